#include "core/report/single/report_json_v3.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/model/pattern_excess.h"
#include "core/common/parallel.h"
#include "core/report/breakdowns/breakdowns_json.h"
#include "core/report/producer_json.h"
#include "core/report/ranks/distributed_json.h"
#include "core/report/single/evidence_code.h"
#include "core/report/single/json_writer.h"
#include "core/report/single/report_json_v3_detail.h"
#include "core/report/single/report_sections.h"

// Writing contend.report/3 (report_json_v3_read.cpp reads it).
namespace contend {

using nlohmann::json;

using v3detail::AnomalyChecks;
using v3detail::BreakdownPart;
using v3detail::kBreakdownParts;
using v3detail::SliceTimes;
using v3detail::TextTable;

namespace {

// Findings from which the passes before writing run on two cores (below, a thread costs more
// than it saves).
constexpr std::size_t kTwoCoresFrom = std::size_t{1} << 15;

// An anomaly's, a window operator's or a cluster's text and times, from the trace when a report
// built by hand lacks them (report/2 does the same: report_json.cpp).
struct ItemText {
    std::string_view name, pid, tid, label;
    TimeNs start, dur;
};

class Writer {
  public:
    Writer(JsonWriter& w, const Report& r, const Trace* t, int version) : m_w(w), m_r(r), m_t(t), m_version(version) {
        for (const TrackStats& s : r.threads) m_threads.emplace(s.track, &s);
    }
    void write();

  private:
    template <typename Fn>
    void column(std::string_view key, std::size_t n, Fn each) {
        m_w.key(key);
        m_w.beginArray();
        for (std::size_t i = 0; i < n; ++i) each(i);
        m_w.endArray();
    }
    // A column of numbers (get(k) returns each; an empty optional is null), block-formatted
    // (JsonWriter::numbers). get may index a text (its string-table index): it is called in row
    // order, as column's each is, so the table fills in the same order.
    template <typename Get>
    void numbers(std::string_view key, std::size_t n, Get get) {
        m_w.key(key);
        m_w.numbers(n, get);
    }
    static std::optional<std::int64_t> optional(TimeNs v) {
        return v >= 0 ? std::optional<std::int64_t>(v) : std::nullopt;
    }
    template <typename Pred>
    static bool all(std::size_t n, Pred p) {
        for (std::size_t i = 0; i < n; ++i)
            if (!p(i)) return false;
        return true;
    }
    std::uint64_t text(std::string_view s) { return m_strings.index(s); }
    // A text that stays put while the report is written (TextTable::indexStable).
    std::uint64_t stableText(std::string_view s) { return m_strings.indexStable(s); }
    std::int64_t time(TimeNs v) const { return v - m_origin; }
    void evidence(std::string_view s);
    // The thread (threads[]) a finding's track_index names, when its pid, tid and label are that
    // thread's.
    bool fromThread(std::uint32_t track, std::string_view pid, std::string_view tid, std::string_view label) const {
        auto it = m_threads.find(track);
        return it != m_threads.end() && it->second->pid == pid && it->second->tid == tid && it->second->label == label;
    }
    const SignatureStats* op(std::uint32_t sig) const {
        return sig < m_r.operators.size() ? &m_r.operators[sig] : nullptr;
    }
    void collectFallbacks();
    ItemText anomalyText(std::size_t k) const;
    // An anomaly's start and duration (its text's, without reading the texts).
    std::pair<TimeNs, TimeNs> anomalyTimes(std::size_t k) const {
        if (!m_fallback.empty())
            if (auto it = m_fallback.find(k); it != m_fallback.end()) return {it->second.start, it->second.dur};
        return {m_r.anomalies.startNs(k), m_r.anomalies.durNs(k)};
    }
    ItemText opText(std::size_t i) const;
    void collectOps();
    bool windowsFromOps() const;
    void origin();
    void sliceTimes();
    void slices();
    AnomalyChecks anomalyChecks() const;
    void anomalies();
    void breakdowns(const AnomalyChecks& checks);
    void windows();
    void windowOps();
    void clusters();
    void pattern(const ContentionPattern& p);

    JsonWriter& m_w;
    const Report& m_r;
    const Trace* m_t;
    const int m_version;
    TextTable m_strings;
    TimeNs m_origin = 0;
    std::unordered_map<std::uint32_t, const TrackStats*> m_threads;
    std::unordered_map<std::size_t, SliceText> m_fallback;    // by anomaly, for hand-built reports without names
    std::vector<const WindowOp*> m_ops;                       // every window's, one after the other
    std::vector<std::uint32_t> m_opWindow;                    // the id of each one's window
    std::unordered_map<std::size_t, SliceText> m_opFallback;  // by m_ops index, for hand-built reports
    // report/4: the times of the anomalies, window operators, pattern runs are `slices`'.
    bool m_anomalySlices = false, m_opSlices = false, m_runSlices = false;
    AnomalyChecks m_checks;                  // which anomaly columns are left out
    bool m_windowsFromOps = false;           // the anomalies' windows are left to the reader
    std::optional<SliceTimes> m_sliceTable;  // the slices' times, and their order by slice
    std::vector<std::uint32_t> m_sliceOrder;
};

void Writer::evidence(std::string_view s) {
    if (s.empty()) return m_w.null();
    EvidenceParts parts = splitEvidence(s);
    std::string back, error;
    if (!joinEvidence(parts.templ, parts.args.data(), parts.args.size(), back, error) || back != s) {
        // Never expected (splitEvidence keeps a number only when it writes back the same); the
        // text as a template of its own keeps the report exact whatever it holds.
        parts.args.clear();
        parts.templ.clear();
        for (const char c : s) {
            parts.templ += c;
            if (c == '{' || c == '}') parts.templ += c;
        }
    }
    m_w.beginArray();
    m_w.value(text(parts.templ));
    for (const json& a : parts.args) m_w.value(a);
    m_w.endArray();
}

// The text and times of the anomalies a hand-built report left without a name, from the trace.
void Writer::collectFallbacks() {
    const AnomalyList& list = m_r.anomalies;
    if (!m_t) return;
    for (std::size_t k = 0; k < list.size(); ++k)
        if (list.text(k).name.empty()) {
            SliceText f = sliceText(m_t, list.slice(k));
            if (!f.name.empty()) m_fallback.emplace(k, std::move(f));
        }
}

// Read through the list's compact accessors and views: a lazy list (anomaly_list.h) is never
// materialised for writing.
ItemText Writer::anomalyText(std::size_t k) const {
    if (!m_fallback.empty())
        if (auto it = m_fallback.find(k); it != m_fallback.end()) {
            const SliceText& f = it->second;
            return {f.name, f.pid, f.tid, f.label, f.start, f.dur};
        }
    const AnomalyList& list = m_r.anomalies;
    const AnomalyText a = list.text(k);
    return {a.name, a.pid, a.tid, a.trackLabel, list.startNs(k), list.durNs(k)};
}

// Whether every anomaly's windows are the ids of the windows whose operators hold its slice, in
// window order (as the engine makes them): the reader then rebuilds them from the windows.
bool Writer::windowsFromOps() const {
    std::vector<std::uint32_t> slices;
    slices.reserve(m_ops.size());
    for (const WindowOp* o : m_ops) slices.push_back(o->slice);
    return v3detail::windowsFollowOps(m_r.anomalies, slices, m_opWindow);
}

// The earliest start of any finding: their times are written from it.
void Writer::origin() {
    TimeNs o = std::numeric_limits<TimeNs>::max();
    for (std::size_t k = 0; k < m_r.anomalies.size(); ++k) o = std::min(o, anomalyTimes(k).first);
    for (const ContentionWindow& w : m_r.windows) o = std::min(o, w.start);
    for (std::size_t i = 0; i < m_ops.size(); ++i) o = std::min(o, opText(i).start);
    for (const Cluster& c : m_r.clusters) o = std::min(o, c.start);
    for (const ContentionPattern& p : m_r.patterns)
        for (const PatternRun& run : p.runs) o = std::min(o, run.startNs);
    m_origin = o == std::numeric_limits<TimeNs>::max() ? 0 : o;
}

// Every window's operators, one after the other (op_count of them per window), their text and
// times from the trace where a hand-built report lacks them.
void Writer::collectOps() {
    for (const ContentionWindow& w : m_r.windows)
        for (const WindowOp& o : w.ops) {
            m_ops.push_back(&o);
            m_opWindow.push_back(w.id);
        }
    for (std::size_t i = 0; i < m_ops.size(); ++i)
        if (m_ops[i]->name.empty() && m_t) {
            SliceText s = sliceText(m_t, m_ops[i]->slice);
            if (!s.name.empty()) m_opFallback.emplace(i, std::move(s));
        }
}

ItemText Writer::opText(std::size_t i) const {
    const WindowOp& o = *m_ops[i];
    if (!m_opFallback.empty())  // (a hand-built report's; the engine's operators have their texts)
        if (auto it = m_opFallback.find(i); it != m_opFallback.end()) {
            const SliceText& f = it->second;
            return {f.name, f.pid, f.tid, f.label, f.start, f.dur};
        }
    return {o.name.view(), o.pid.view(), o.tid.view(), {}, o.startNs, o.durNs};
}

// report/4: the slices the anomalies, window operators and pattern runs name, each with its start
// and duration once. A table whose rows give one slice two different times (never the engine's)
// keeps its own columns, and its slices stay out unless another table needs them.
void Writer::sliceTimes() {
    if (m_version < 4) return;
    const AnomalyList& list = m_r.anomalies;
    std::uint32_t top = 0;
    std::size_t refs = list.size() + m_ops.size();
    for (std::size_t k = 0; k < list.size(); ++k) top = std::max(top, list.slice(k));
    for (const WindowOp* o : m_ops) top = std::max(top, o->slice);
    for (const ContentionPattern& p : m_r.patterns) {
        refs += p.runs.size();
        for (const PatternRun& run : p.runs) top = std::max(top, run.slice);
    }
    bool useA = true, useO = true, useR = true;
    for (;;) {  // at most three times: each pass that fails drops a table
        SliceTimes t(top, refs);
        bool okA = true, okO = true, okR = true;
        if (useA)
            for (std::size_t k = 0; k < list.size(); ++k) {
                const auto [start, dur] = anomalyTimes(k);
                okA = t.add(list.slice(k), start, dur) && okA;
            }
        if (useO)
            for (std::size_t i = 0; i < m_ops.size(); ++i) {
                const ItemText x = opText(i);
                okO = t.add(m_ops[i]->slice, x.start, x.dur) && okO;
            }
        if (useR)
            for (const ContentionPattern& p : m_r.patterns)
                for (const PatternRun& run : p.runs) okR = t.add(run.slice, run.startNs, run.durNs) && okR;
        if ((okA || !useA) && (okO || !useO) && (okR || !useR)) {
            m_anomalySlices = useA;
            m_opSlices = useO;
            m_runSlices = useR;
            m_sliceOrder = t.order();
            m_sliceTable.emplace(std::move(t));
            return;
        }
        useA = useA && okA;
        useO = useO && okO;
        useR = useR && okR;
    }
}

void Writer::slices() {
    const std::size_t n = m_sliceOrder.size();
    const auto at = [&](std::size_t i) -> const SliceTimes::Row& { return m_sliceTable->row(m_sliceOrder[i]); };
    m_w.key("slices");
    m_w.beginObject();
    m_w.member("rows", static_cast<std::uint64_t>(n));
    numbers("slice", n, [&](std::size_t i) {
        return static_cast<std::int64_t>(at(i).slice) - (i ? static_cast<std::int64_t>(at(i - 1).slice) : 0);
    });
    numbers("start_ns", n, [&](std::size_t i) { return at(i).start - (i ? at(i - 1).start : m_origin); });
    numbers("dur_ns", n, [&](std::size_t i) { return at(i).dur; });
    m_w.endObject();
    m_sliceTable.reset();
    m_sliceOrder = {};
}

// Which of the anomalies' columns and breakdown parts can be left out, found in one pass over
// the rows (v3detail::AnomalyChecks).
AnomalyChecks Writer::anomalyChecks() const {
    return v3detail::checkAnomalies(
        m_r.anomalies, m_version >= 4, [&](std::size_t k) { return anomalyText(k); },
        [&](std::uint32_t sig) { return op(sig); },
        [&](std::uint32_t track, const ItemText& x) { return fromThread(track, x.pid, x.tid, x.label); });
}

void Writer::anomalies() {
    const AnomalyList& list = m_r.anomalies;
    const std::size_t n = list.size();
    const AnomalyChecks& checks = m_checks;
    m_w.key("anomalies");
    m_w.beginObject();
    m_w.member("rows", static_cast<std::uint64_t>(n));
    if (!checks.ids) numbers("id", n, [&](std::size_t k) { return list.id(k); });
    numbers("slice", n, [&](std::size_t k) { return list.slice(k); });
    numbers("signature", n, [&](std::size_t k) { return list.signature(k); });
    numbers("track_index", n, [&](std::size_t k) { return list.track(k); });
    if (!checks.names) numbers("name", n, [&](std::size_t k) { return text(anomalyText(k).name); });
    if (!checks.threads) {
        numbers("pid", n, [&](std::size_t k) { return text(anomalyText(k).pid); });
        numbers("tid", n, [&](std::size_t k) { return text(anomalyText(k).tid); });
        numbers("track", n, [&](std::size_t k) { return text(anomalyText(k).label); });
    }
    if (!m_anomalySlices) {
        numbers("start_ns", n, [&](std::size_t k) { return time(anomalyTimes(k).first); });
        numbers("dur_ns", n, [&](std::size_t k) { return anomalyTimes(k).second; });
    }
    if (!checks.baselines) numbers("baseline_ns", n, [&](std::size_t k) { return list.baselineNs(k); });
    if (!checks.excess) numbers("excess_ns", n, [&](std::size_t k) { return list.excessNs(k); });
    if (checks.float32)
        numbers("score_f32", n, [&](std::size_t k) { return static_cast<float>(list.score(k)); });
    else
        numbers("score", n, [&](std::size_t k) { return finite(list.score(k)); });
    numbers("cause", n, [&](std::size_t k) { return stableText(resourceName(list.cause(k))); });
    numbers("provenance", n, [&](std::size_t k) { return stableText(provenanceName(list.provenance(k))); });
    if (!checks.noEvidence) column("evidence", n, [&](std::size_t k) { evidence(list.text(k).evidence); });
    if (!m_windowsFromOps)
        column("windows", n, [&](std::size_t k) {
            m_w.beginArray();
            list.forEachWindow(k, [&](std::uint32_t id) { m_w.value(id); });
            m_w.endArray();
        });
    breakdowns(checks);
    if (!checks.noGain) numbers("gain_ns", n, [&](std::size_t k) { return optional(list.gainNs(k)); });
    if (!checks.noSlack) numbers("slack_ns", n, [&](std::size_t k) { return optional(list.slackNs(k)); });
    m_w.endObject();
}

// The anomalies' breakdowns, a columnar table of their own; a part that is 0 (false, not known)
// in every one is left out, and the table when all are. In report/4 `compute_ns` is left out
// when, and only when, every one is the duration less the other three parts.
void Writer::breakdowns(const AnomalyChecks& checks) {
    const AnomalyList& list = m_r.anomalies;
    const std::size_t n = list.size();
    bool open = false;
    for (std::size_t i = 0; i < kBreakdownParts.size(); ++i) {
        const BreakdownPart& p = kBreakdownParts[i];
        if (checks.defaultPart[i]) continue;
        if (!open) {
            m_w.key("breakdown");
            m_w.beginObject();
            open = true;
        }
        const bool waitBefore = p.ns == &Breakdown::waitBeforeNs;
        numbers(p.key, n, [&](std::size_t k) -> std::optional<std::int64_t> {
            const Breakdown& b = list.breakdown(k);
            if (p.flag) return b.*p.flag ? 1 : 0;
            if (waitBefore) return optional(b.waitBeforeNs);
            return b.*p.ns;
        });
    }
    if (open) m_w.endObject();
}

void Writer::windows() {
    const WindowList& list = m_r.windows;
    const std::size_t n = list.size();
    m_w.key("windows");
    m_w.beginObject();
    m_w.member("rows", static_cast<std::uint64_t>(n));
    numbers("id", n, [&](std::size_t k) { return list.id(k); });
    numbers("resource", n, [&](std::size_t k) { return stableText(resourceName(list.resource(k))); });
    numbers("start_ns", n, [&](std::size_t k) { return time(list.start(k)); });
    numbers("end_ns", n, [&](std::size_t k) { return time(list.end(k)); });
    numbers("overlap_ratio", n, [&](std::size_t k) { return finite(list.overlapRatio(k)); });
    if (!all(n, [&](std::size_t k) { return finite(list[k].peakUtilization) == 0; }))
        numbers("peak_utilization", n, [&](std::size_t k) { return finite(list[k].peakUtilization); });
    if (!all(n, [&](std::size_t k) { return !list.fromCounters(k); }))
        numbers("from_counters", n, [&](std::size_t k) { return std::uint64_t{list.fromCounters(k) ? 1u : 0u}; });
    numbers("provenance", n, [&](std::size_t k) { return stableText(provenanceName(list[k].provenance)); });
    if (!all(n, [&](std::size_t k) { return list[k].evidence.empty(); }))
        column("evidence", n, [&](std::size_t k) { evidence(list[k].evidence); });
    if (!all(n, [&](std::size_t k) { return list[k].gainNs < 0; }))
        numbers("gain_ns", n, [&](std::size_t k) { return optional(list[k].gainNs); });
    numbers("op_count", n, [&](std::size_t k) { return static_cast<std::uint64_t>(list[k].ops.size()); });
    windowOps();
    m_w.endObject();
}

// Every window's operators, one after the other (op_count of them per window), in one table.
void Writer::windowOps() {
    const std::vector<const WindowOp*>& ops = m_ops;
    const auto get = [&](std::size_t i) { return opText(i); };
    const std::size_t n = ops.size();
    m_w.key("ops");
    m_w.beginObject();
    m_w.member("rows", static_cast<std::uint64_t>(n));
    numbers("slice", n, [&](std::size_t i) { return ops[i]->slice; });
    numbers("name", n, [&](std::size_t i) { return stableText(get(i).name); });
    numbers("pid", n, [&](std::size_t i) { return stableText(get(i).pid); });
    numbers("tid", n, [&](std::size_t i) { return stableText(get(i).tid); });
    if (!m_opSlices) {
        numbers("start_ns", n, [&](std::size_t i) { return time(get(i).start); });
        numbers("dur_ns", n, [&](std::size_t i) { return get(i).dur; });
    }
    numbers("extra_wait_ns", n, [&](std::size_t i) { return ops[i]->extraWaitNs; });
    if (!all(n, [&](std::size_t i) { return ops[i]->slackNs < 0; }))
        numbers("slack_ns", n, [&](std::size_t i) { return optional(ops[i]->slackNs); });
    m_w.endObject();
}

void Writer::clusters() {
    const std::vector<Cluster>& cs = m_r.clusters;
    const std::size_t n = cs.size();
    // The track's text, from the trace when a hand-built cluster lacks it (as report/2).
    std::vector<std::array<std::string, 3>> track(n);
    for (std::size_t k = 0; k < n; ++k) {
        const Cluster& c = cs[k];
        track[k] = {c.pid, c.tid, c.trackLabel};
        if (c.pid.empty() && m_t && c.track < m_t->tracks().size())
            track[k] = {m_t->tracks()[c.track].pid, m_t->tracks()[c.track].tid, m_t->tracks()[c.track].label()};
    }
    m_w.key("clusters");
    m_w.beginObject();
    m_w.member("rows", static_cast<std::uint64_t>(n));
    if (!all(n, [&](std::size_t k) { return cs[k].id == k; }))
        numbers("id", n, [&](std::size_t k) { return cs[k].id; });
    numbers("track_index", n, [&](std::size_t k) { return cs[k].track; });
    if (!all(n, [&](std::size_t k) { return fromThread(cs[k].track, track[k][0], track[k][1], track[k][2]); })) {
        numbers("pid", n, [&](std::size_t k) { return text(track[k][0]); });
        numbers("tid", n, [&](std::size_t k) { return text(track[k][1]); });
        numbers("track", n, [&](std::size_t k) { return text(track[k][2]); });
    }
    numbers("first_slice", n, [&](std::size_t k) { return cs[k].firstSlice; });
    numbers("last_slice", n, [&](std::size_t k) { return cs[k].lastSlice; });
    numbers("start_ns", n, [&](std::size_t k) { return time(cs[k].start); });
    numbers("end_ns", n, [&](std::size_t k) { return time(cs[k].end); });
    numbers("ops", n, [&](std::size_t k) { return cs[k].ops; });
    numbers("busy_ns", n, [&](std::size_t k) { return cs[k].busyNs; });
    numbers("wait_ns", n, [&](std::size_t k) { return cs[k].waitNs; });
    numbers("estimated_saving_ns", n, [&](std::size_t k) { return cs[k].savingNs; });
    numbers("provenance", n, [&](std::size_t k) { return stableText(provenanceName(cs[k].provenance)); });
    numbers("sync_gaps", n, [&](std::size_t k) { return cs[k].syncGaps; });
    if (!all(n, [&](std::size_t k) { return cs[k].evidence.empty(); }))
        column("evidence", n, [&](std::size_t k) { evidence(cs[k].evidence); });
    if (!all(n, [&](std::size_t k) { return cs[k].gainNs < 0; }))
        numbers("gain_ns", n, [&](std::size_t k) { return optional(cs[k].gainNs); });
    m_w.endObject();
}

// One pattern: report/2's object, its signature added, its evidence coded and its runs a
// columnar table (slice and start_ns from the run before; excess_ns left out when every run's is
// its duration less the signature's baseline, at least 0).
void Writer::pattern(const ContentionPattern& p) {
    const std::vector<PatternRun>& runs = p.runs.view();
    const std::size_t n = runs.size();
    m_w.beginObject();
    m_w.member("id", p.id);
    m_w.member("signature", p.signature);
    m_w.member("victim", p.victim);
    m_w.member("partner", p.partner);
    m_w.member("factor", p.factor);
    m_w.member("runs_beside", p.runsBeside);
    m_w.member("runs_apart", p.runsApart);
    m_w.member("slowdown", finite(p.slowdown));
    m_w.key("slowdown_ci");
    m_w.beginArray();
    m_w.value(finite(p.slowdownLow));
    m_w.value(finite(p.slowdownHigh));
    m_w.endArray();
    m_w.member("p_value", finite(p.pValue));
    m_w.member("cost_ns", p.costNs);
    m_w.member("counted_cost_ns", p.countedCostNs);
    m_w.member("unflagged_cost_ns", p.unflaggedCostNs);
    m_w.key("cause");
    m_w.beginObject();
    m_w.member("resource", resourceName(p.cause));
    m_w.member("provenance", provenanceName(p.provenance));
    m_w.key("evidence");
    evidence(p.evidence);
    m_w.endObject();
    m_w.member("concurrency", p.concurrency);
    if (p.lostShare >= 0) m_w.member("lost_share", finite(p.lostShare));
    // The runs' excess left to the reader when a rule gives it: in report/4 each run's share
    // of the slowdown as written ("run_excess": "share", pattern_excess.h); in both, as
    // report/3 has it, duration - baseline clipped at 0 (a report read from an older file).
    const double slowdown = finite(p.slowdown);
    const bool share = m_version >= 4 && n > 0 && all(n, [&](std::size_t i) {
                           return runs[i].excessNs == patternRunExcessNs(runs[i].durNs, slowdown);
                       });
    const SignatureStats* s = op(p.signature);
    const bool clipped = !share && s && all(n, [&](std::size_t i) {
        return runs[i].excessNs == std::max<TimeNs>(0, runs[i].durNs - s->baselineNs);
    });
    if (share) m_w.member("run_excess", "share");
    m_w.key("runs");
    m_w.beginObject();
    m_w.member("rows", static_cast<std::uint64_t>(n));
    numbers("slice", n, [&](std::size_t i) {
        return static_cast<std::int64_t>(runs[i].slice) - (i ? static_cast<std::int64_t>(runs[i - 1].slice) : 0);
    });
    if (!m_runSlices) {
        numbers("start_ns", n, [&](std::size_t i) { return runs[i].startNs - (i ? runs[i - 1].startNs : m_origin); });
        numbers("dur_ns", n, [&](std::size_t i) { return runs[i].durNs; });
    }
    if (!share && !clipped) numbers("excess_ns", n, [&](std::size_t i) { return runs[i].excessNs; });
    numbers("counted", n, [&](std::size_t i) { return std::uint64_t{runs[i].counted ? 1u : 0u}; });
    m_w.endObject();
    m_w.endObject();
}

void Writer::write() {
    collectFallbacks();
    collectOps();
    // Four passes over every finding before the first is written: the times' origin and the
    // slices' table on one core, which anomaly columns to leave out on the other (each writes
    // only its own members; the lists' reads are thread-safe).
    auto times = [&] {
        origin();
        sliceTimes();
    };
    auto checks = [&] {
        m_checks = anomalyChecks();
        m_windowsFromOps = windowsFromOps();
    };
    if (m_r.anomalies.size() + m_ops.size() >= kTwoCoresFrom && twoCores()) {
        runBeside(checks, times);
    } else {
        times();
        checks();
    }
    m_w.beginObject();
    m_w.member("schema", m_version >= 4 ? kReportSchemaV4 : kReportSchemaV3);
    m_w.key("producer");
    m_w.value(producerJson());  // this build, never r.producer: the file is its writing
    m_w.key("trace");
    m_w.value(traceJson(m_r));
    m_w.key("settings");
    m_w.value(settingsJson(m_r));
    m_w.key("summary");
    m_w.value(summaryJson(m_r));
    const auto rows = [&](const char* key, const auto& items, auto fn) {
        m_w.key(key);
        m_w.beginArray();
        for (const auto& x : items) m_w.value(fn(x));
        m_w.endArray();
    };
    rows("notes", m_r.notes, noteJson);
    rows("operators", m_r.operators, operatorJson);
    rows("types", m_r.types, typeJson);
    rows("iterations", m_r.iterations, iterationJson);
    rows("threads", m_r.threads, threadJson);
    m_w.key("what_if");
    m_w.value(whatIfJson(m_r.whatIf));
    if (!m_r.distributed.empty()) {
        m_w.key("distributed");
        m_w.value(distributedToJson(m_r.distributed));
    }
    if (!m_r.breakdowns.empty()) {
        m_w.key("breakdowns");
        m_w.value(breakdownsToJson(m_r.breakdowns));
    }
    m_w.member("time_origin_ns", m_origin);
    if (m_version >= 4) slices();
    anomalies();
    windows();
    clusters();
    m_w.key("patterns");
    m_w.beginArray();
    for (const ContentionPattern& p : m_r.patterns) pattern(p);
    m_w.endArray();
    m_w.key("strings");
    m_w.beginArray();
    for (const std::string& s : m_strings.all()) m_w.value(std::string_view(s));
    m_w.endArray();
    m_w.endObject();
}

}  // namespace

void writeReportJsonV3(std::ostream& out, const Report& report, const Trace* trace, int version) {
    std::string text;
    JsonWriter w(text, 0, &out, 2);  // the document's members and theirs one per line, the rest compact
    Writer(w, report, trace, version).write();
    text += '\n';
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace contend
