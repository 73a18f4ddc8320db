#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/analysis/model/pattern_excess.h"
#include "core/common/json_fields.h"
#include "core/common/shared_text.h"
#include "core/report/single/evidence_code.h"
#include "core/report/single/report_json_v3.h"

// Reading the columnar sections of contend.report/3 and /4 (report_json_v3.cpp writes them). Every value
// is checked where it is read, and an error names its place: "anomalies.score[12]: not a number".
namespace contend {

using nlohmann::json;
using namespace jsonfields;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw JsonFieldError{where + ": " + what}; }

// A columnar table: an object of arrays, each `rows` long.
class Columns {
  public:
    // The table `key` of `parent` (an object), `rows` long: given, or its own "rows".
    Columns(const json& parent, const char* key, const std::string& where, std::optional<std::size_t> rows = {})
        : m_where(where.empty() ? std::string(key) : where + "." + key) {
        m_obj = &jsonfields::need(parent, key, where.empty() ? "report" : where);
        if (!m_obj->is_object()) fail(m_where, "not an object of columns");
        m_rows = rows ? *rows : getInt<std::size_t>(*m_obj, "rows", m_where, 0);
    }
    std::size_t rows() const { return m_rows; }
    const std::string& where() const { return m_where; }
    bool has(const char* key) const { return m_obj->contains(key); }
    // The column, or nullptr when it is left out.
    const json* col(const char* key) const {
        if (!m_obj->contains(key)) return nullptr;
        const json& c = (*m_obj)[key];
        if (!c.is_array()) fail(m_where + "." + key, "not an array");
        if (c.size() != m_rows)
            fail(m_where + "." + key, std::to_string(c.size()) + " values for " + std::to_string(m_rows) + " rows");
        return &c;
    }
    const json& need(const char* key) const {
        if (const json* c = col(key)) return *c;
        fail(m_where, std::string("missing column \"") + key + "\"");
    }
    std::string at(const char* key, std::size_t i) const { return m_where + "." + key + "[" + std::to_string(i) + "]"; }

  private:
    const json* m_obj = nullptr;
    std::string m_where;
    std::size_t m_rows = 0;
};

class Reader {
  public:
    Reader(const json& doc, Report& r, int version) : m_doc(doc), m_r(r), m_version(version) {
        const json& s = needArray(doc, "strings", "report");
        m_strings.reserve(s.size());
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (!s[i].is_string()) fail("strings[" + std::to_string(i) + "]", "not a string");
            m_strings.push_back(s[i].get<std::string>());
        }
        m_shared.resize(m_strings.size());
        m_origin = getIntOr<TimeNs>(doc, "time_origin_ns", "report", 0);
        for (const TrackStats& t : r.threads) m_threads.emplace(t.track, &t);
        if (version >= 4) slices();
    }
    void anomalies();
    void windows();
    void clusters();
    void patterns();

  private:
    template <typename T>
    T integerAt(const Columns& t, const char* key, const json& c, std::size_t i,
                T lo = std::numeric_limits<T>::min()) const {
        if (std::optional<T> x = integer<T>(c[i], lo)) return *x;
        fail(t.at(key, i), "not an integer in range");
    }
    TimeNs timeAt(const Columns& t, const char* key, const json& c, std::size_t i) const {
        const TimeNs v = integerAt<TimeNs>(t, key, c, i);
        if ((v > 0 && m_origin > std::numeric_limits<TimeNs>::max() - v) ||
            (v < 0 && m_origin < std::numeric_limits<TimeNs>::min() - v))
            fail(t.at(key, i), "out of range");
        return m_origin + v;
    }
    double numberAt(const Columns& t, const char* key, const json& c, std::size_t i) const {
        if (!c[i].is_number() || !std::isfinite(c[i].get<double>())) fail(t.at(key, i), "not a number");
        return c[i].get<double>();
    }
    bool flagAt(const Columns& t, const char* key, const json& c, std::size_t i) const {
        const auto v = integer<int>(c[i], 0);
        if (!v || *v > 1) fail(t.at(key, i), "not 0 or 1");
        return *v == 1;
    }
    TimeNs optionalNsAt(const Columns& t, const char* key, const json* c, std::size_t i) const {
        if (!c || (*c)[i].is_null()) return -1;
        return integerAt<TimeNs>(t, key, *c, i, 0);
    }
    std::size_t stringIndexAt(const Columns& t, const char* key, const json& c, std::size_t i) const {
        const auto k = integer<std::size_t>(c[i], 0);
        if (!k || *k >= m_strings.size()) fail(t.at(key, i), "not an index into strings");
        return *k;
    }
    const std::string& textAt(const Columns& t, const char* key, const json& c, std::size_t i) const {
        return m_strings[stringIndexAt(t, key, c, i)];
    }
    // The same text as a shared one (shared_text.h): one per entry of strings, made on first use.
    SharedText sharedAt(const Columns& t, const char* key, const json& c, std::size_t i) const {
        const std::size_t k = stringIndexAt(t, key, c, i);
        if (m_shared[k].empty()) m_shared[k] = SharedText(m_strings[k]);
        return m_shared[k];
    }
    Resource resourceAt(const Columns& t, const char* key, const json& c, std::size_t i) const {
        Resource r;
        const std::string& s = textAt(t, key, c, i);
        if (!resourceFromName(s, r)) fail(t.at(key, i), "unknown resource \"" + s + "\"");
        return r;
    }
    Provenance provenanceAt(const Columns& t, const char* key, const json& c, std::size_t i) const {
        Provenance p;
        const std::string& s = textAt(t, key, c, i);
        if (!provenanceFromName(s, p)) fail(t.at(key, i), "unknown provenance \"" + s + "\"");
        return p;
    }
    std::string evidence(const json& v, const std::string& where) const;
    const SignatureStats& op(std::uint32_t sig, const std::string& where) const {
        if (sig >= m_r.operators.size()) fail(where, "no operator " + std::to_string(sig) + " to take it from");
        return m_r.operators[sig];
    }
    const TrackStats& thread(std::uint32_t track, const std::string& where) const {
        auto it = m_threads.find(track);
        if (it == m_threads.end())
            fail(where, "no thread with track_index " + std::to_string(track) + " to take it from");
        return *it->second;
    }
    // The pid, tid and track columns: all three, or none (then each row takes its thread's).
    struct TrackCols {
        const json *pid = nullptr, *tid = nullptr, *label = nullptr;
    };
    TrackCols trackColumns(const Columns& t) const {
        const int n = t.has("pid") + t.has("tid") + t.has("track");
        if (n != 0 && n != 3) fail(t.where(), "pid, tid and track come together");
        return n == 3 ? TrackCols{t.col("pid"), t.col("tid"), t.col("track")} : TrackCols{};
    }
    // Row k's pid, tid and track label (its track index read already).
    template <class Row>
    void readTrack(const Columns& t, const TrackCols& c, std::size_t k, Row& x) const {
        if (c.pid) {
            x.pid = textAt(t, "pid", *c.pid, k);
            x.tid = textAt(t, "tid", *c.tid, k);
            x.trackLabel = textAt(t, "track", *c.label, k);
            return;
        }
        const TrackStats& th = thread(x.track, t.at("track_index", k));
        x.pid = th.pid;
        x.tid = th.tid;
        x.trackLabel = th.label;
    }
    void windowOps(const Columns& win, const std::vector<std::size_t>& counts);
    void slices();
    // A table's start_ns and dur_ns columns: both, or (report/4) neither, its rows' times then
    // being their slices' in `slices`.
    struct TimeCols {
        const json *start = nullptr, *dur = nullptr;
    };
    TimeCols timeColumns(const Columns& t) const {
        if (m_version < 4) return {&t.need("start_ns"), &t.need("dur_ns")};
        if (t.has("start_ns") != t.has("dur_ns")) fail(t.where(), "start_ns and dur_ns come together");
        return t.has("start_ns") ? TimeCols{t.col("start_ns"), t.col("dur_ns")} : TimeCols{};
    }
    // The start and duration `slices` gives `slice`, for row `i` of table `t`.
    std::pair<TimeNs, TimeNs> sliceTimes(std::uint32_t slice, const Columns& t, std::size_t i) const {
        auto it = std::lower_bound(m_sliceIds.begin(), m_sliceIds.end(), slice);
        if (it == m_sliceIds.end() || *it != slice)
            fail(t.at("slice", i), "slice " + std::to_string(slice) + " is not in slices to take its times from");
        const auto k = static_cast<std::size_t>(it - m_sliceIds.begin());
        return {m_sliceStart[k], m_sliceDur[k]};
    }

    const json& m_doc;
    Report& m_r;
    const int m_version;
    // report/4's `slices`, by slice.
    std::vector<std::uint32_t> m_sliceIds;
    std::vector<TimeNs> m_sliceStart, m_sliceDur;
    std::vector<std::string> m_strings;
    mutable std::vector<SharedText> m_shared;  // sharedAt's
    TimeNs m_origin = 0;
    std::unordered_map<std::uint32_t, const TrackStats*> m_threads;
    // The ids of the windows whose operators hold a slice, in window order (an anomaly's windows
    // when its column is left out).
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> m_windowsOf;
};

std::string Reader::evidence(const json& v, const std::string& where) const {
    if (v.is_null()) return {};
    if (!v.is_array() || v.empty()) fail(where, "evidence is neither null nor [template, number...]");
    const auto k = integer<std::size_t>(v[0], 0);
    if (!k || *k >= m_strings.size()) fail(where, "the evidence template is not an index into strings");
    std::string out, error;
    if (!joinEvidence(m_strings[*k], v.size() > 1 ? &v[1] : nullptr, v.size() - 1, out, error))
        fail(where, "evidence: " + error);
    return out;
}

// report/4's `slices`: slice and start_ns each from the row before (the first start from
// time_origin_ns), the slices strictly ascending.
void Reader::slices() {
    const Columns t(m_doc, "slices", "");
    const std::size_t n = t.rows();
    const json &slice = t.need("slice"), &start = t.need("start_ns"), &dur = t.need("dur_ns");
    m_sliceIds.resize(n);
    m_sliceStart.resize(n);
    m_sliceDur.resize(n);
    std::int64_t sl = 0;
    TimeNs at = m_origin;
    for (std::size_t k = 0; k < n; ++k) {
        constexpr std::int64_t kMaxStep = std::int64_t{1} << 33;  // slices are 32-bit: a step is less
        const auto step = integerAt<std::int64_t>(t, "slice", slice, k, k ? 1 : 0);
        if (step > kMaxStep) fail(t.at("slice", k), "not a step between slices");
        sl += step;
        if (sl > std::numeric_limits<std::uint32_t>::max()) fail(t.at("slice", k), "not a slice");
        m_sliceIds[k] = static_cast<std::uint32_t>(sl);
        const TimeNs gap = integerAt<TimeNs>(t, "start_ns", start, k);
        if ((gap > 0 && at > std::numeric_limits<TimeNs>::max() - gap) ||
            (gap < 0 && at < std::numeric_limits<TimeNs>::min() - gap))
            fail(t.at("start_ns", k), "out of range");
        at += gap;
        m_sliceStart[k] = at;
        m_sliceDur[k] = integerAt<TimeNs>(t, "dur_ns", dur, k, 0);
    }
}

void Reader::anomalies() {
    const Columns t(m_doc, "anomalies", "");
    const std::size_t n = t.rows();
    const json &slice = t.need("slice"), &sig = t.need("signature"), &track = t.need("track_index");
    const TimeCols times = timeColumns(t);
    // report/4: the scores as 32-bit floats, or as doubles when any is not one.
    const bool f32 = m_version >= 4 && t.has("score_f32");
    if (f32 && t.has("score")) fail(t.where(), "score and score_f32 both given");
    const char* scoreKey = f32 ? "score_f32" : "score";
    const json& score = t.need(scoreKey);
    const json &cause = t.need("cause"), &prov = t.need("provenance");
    const json *id = t.col("id"), *name = t.col("name"), *baseline = t.col("baseline_ns"), *excess = t.col("excess_ns");
    const json *ev = t.col("evidence"), *wins = t.col("windows"), *gain = t.col("gain_ns"), *slack = t.col("slack_ns");
    const TrackCols tracks = trackColumns(t);
    std::optional<Columns> b;
    if (t.has("breakdown")) b.emplace(m_doc["anomalies"], "breakdown", t.where(), n);
    const auto part = [&](const char* key) { return b ? b->col(key) : nullptr; };
    const json *compute = part("compute_ns"), *data = part("data_wait_ns"), *queue = part("queue_ns");
    const json *sync = part("sync_ns"), *mData = part("measured_data"), *mQueue = part("measured_queue");
    const json *mSync = part("measured_sync"), *before = part("wait_before_ns");
    std::vector<Anomaly> out(n);
    for (std::size_t k = 0; k < n; ++k) {
        Anomaly& x = out[k];
        x.id = id ? integerAt<std::uint32_t>(t, "id", *id, k, 0) : static_cast<std::uint32_t>(k);
        x.slice = integerAt<std::uint32_t>(t, "slice", slice, k, 0);
        x.signature = integerAt<std::uint32_t>(t, "signature", sig, k, 0);
        x.track = integerAt<std::uint32_t>(t, "track_index", track, k, 0);
        x.name = name ? textAt(t, "name", *name, k) : op(x.signature, t.at("signature", k)).name;
        readTrack(t, tracks, k, x);
        if (times.start) {
            x.startNs = timeAt(t, "start_ns", *times.start, k);
            x.durNs = integerAt<TimeNs>(t, "dur_ns", *times.dur, k, 0);
        } else {
            std::tie(x.startNs, x.durNs) = sliceTimes(x.slice, t, k);
        }
        x.baselineNs = baseline ? integerAt<TimeNs>(t, "baseline_ns", *baseline, k)
                                : op(x.signature, t.at("signature", k)).baselineNs;
        x.excessNs = excess ? integerAt<TimeNs>(t, "excess_ns", *excess, k) : x.durNs - x.baselineNs;
        x.score = numberAt(t, scoreKey, score, k);
        if (f32) x.score = static_cast<double>(static_cast<float>(x.score));
        x.cause = resourceAt(t, "cause", cause, k);
        x.provenance = provenanceAt(t, "provenance", prov, k);
        if (ev) x.evidence = evidence((*ev)[k], t.at("evidence", k));
        if (!wins) {
            auto it = m_windowsOf.find(x.slice);
            if (it != m_windowsOf.end()) x.windows = it->second;
        } else {
            const json& w = (*wins)[k];
            if (!w.is_array()) fail(t.at("windows", k), "not an array of window ids");
            for (const json& v : w) {
                const auto wid = integer<std::uint32_t>(v, 0);
                if (!wid) fail(t.at("windows", k), "not an array of window ids");
                x.windows.push_back(*wid);
            }
        }
        if (b || m_version >= 4) {
            Breakdown& d = x.breakdown;
            d.dataWaitNs = data ? integerAt<TimeNs>(*b, "data_wait_ns", *data, k) : 0;
            d.queueNs = queue ? integerAt<TimeNs>(*b, "queue_ns", *queue, k) : 0;
            d.syncNs = sync ? integerAt<TimeNs>(*b, "sync_ns", *sync, k) : 0;
            d.measuredData = mData && flagAt(*b, "measured_data", *mData, k);
            d.measuredQueue = mQueue && flagAt(*b, "measured_queue", *mQueue, k);
            d.measuredSync = mSync && flagAt(*b, "measured_sync", *mSync, k);
            d.waitBeforeNs = b ? optionalNsAt(*b, "wait_before_ns", before, k) : -1;
            // report/4 leaves compute_ns out when it is the duration less the other parts.
            d.computeNs = compute          ? integerAt<TimeNs>(*b, "compute_ns", *compute, k)
                          : m_version >= 4 ? x.durNs - d.dataWaitNs - d.queueNs - d.syncNs
                                           : 0;
        }
        x.gainNs = optionalNsAt(t, "gain_ns", gain, k);
        x.slackNs = optionalNsAt(t, "slack_ns", slack, k);
    }
    m_r.anomalies = AnomalyList(std::move(out));
}

void Reader::windows() {
    const Columns t(m_doc, "windows", "");
    const std::size_t n = t.rows();
    const json &id = t.need("id"), &res = t.need("resource"), &start = t.need("start_ns"), &end = t.need("end_ns");
    const json &ratio = t.need("overlap_ratio"), &prov = t.need("provenance"), &count = t.need("op_count");
    const json *peak = t.col("peak_utilization"), *counters = t.col("from_counters"), *ev = t.col("evidence");
    const json* gain = t.col("gain_ns");
    std::vector<ContentionWindow> out(n);
    std::vector<std::size_t> counts(n);
    for (std::size_t k = 0; k < n; ++k) {
        ContentionWindow& x = out[k];
        x.id = integerAt<std::uint32_t>(t, "id", id, k, 0);
        x.resource = resourceAt(t, "resource", res, k);
        x.start = timeAt(t, "start_ns", start, k);
        x.end = timeAt(t, "end_ns", end, k);
        x.overlapRatio = numberAt(t, "overlap_ratio", ratio, k);
        x.peakUtilization = peak ? numberAt(t, "peak_utilization", *peak, k) : 0.0;
        x.fromCounters = counters && flagAt(t, "from_counters", *counters, k);
        x.provenance = provenanceAt(t, "provenance", prov, k);
        if (ev) x.evidence = evidence((*ev)[k], t.at("evidence", k));
        x.gainNs = optionalNsAt(t, "gain_ns", gain, k);
        counts[k] = integerAt<std::size_t>(t, "op_count", count, k, 0);
    }
    m_r.windows = WindowList(std::move(out));
    windowOps(t, counts);
    for (const ContentionWindow& w : m_r.windows)
        for (const WindowOp& o : w.ops) {
            std::vector<std::uint32_t>& ids = m_windowsOf[o.slice];
            if (ids.empty() || ids.back() != w.id) ids.push_back(w.id);
        }
}

// The windows' operators, op_count of them per window in window order.
void Reader::windowOps(const Columns& win, const std::vector<std::size_t>& counts) {
    const Columns t(m_doc["windows"], "ops", win.where());
    const std::size_t n = t.rows();
    std::size_t total = 0;
    for (std::size_t c : counts) {
        if (c > n - total) fail(win.where() + ".op_count", "more operators than ops has rows");
        total += c;
    }
    if (total != n) fail(win.where() + ".op_count", "adds up to " + std::to_string(total) + ", not ops.rows");
    const json &slice = t.need("slice"), &name = t.need("name"), &pid = t.need("pid"), &tid = t.need("tid");
    const json& extra = t.need("extra_wait_ns");
    const TimeCols times = timeColumns(t);
    const json* slack = t.col("slack_ns");
    std::vector<ContentionWindow>& ws = m_r.windows.edit();
    std::size_t i = 0;
    for (std::size_t k = 0; k < ws.size(); ++k) {
        ws[k].ops.resize(counts[k]);
        for (WindowOp& o : ws[k].ops) {
            o.slice = integerAt<std::uint32_t>(t, "slice", slice, i, 0);
            o.name = sharedAt(t, "name", name, i);
            o.pid = sharedAt(t, "pid", pid, i);
            o.tid = sharedAt(t, "tid", tid, i);
            if (times.start) {
                o.startNs = timeAt(t, "start_ns", *times.start, i);
                o.durNs = integerAt<TimeNs>(t, "dur_ns", *times.dur, i, 0);
            } else {
                std::tie(o.startNs, o.durNs) = sliceTimes(o.slice, t, i);
            }
            o.extraWaitNs = integerAt<TimeNs>(t, "extra_wait_ns", extra, i);
            o.slackNs = optionalNsAt(t, "slack_ns", slack, i);
            ++i;
        }
    }
}

void Reader::clusters() {
    const Columns t(m_doc, "clusters", "");
    const std::size_t n = t.rows();
    const json &track = t.need("track_index"), &first = t.need("first_slice"), &last = t.need("last_slice");
    const json &start = t.need("start_ns"), &end = t.need("end_ns"), &ops = t.need("ops"), &busy = t.need("busy_ns");
    const json &wait = t.need("wait_ns"), &saving = t.need("estimated_saving_ns"), &prov = t.need("provenance");
    const json& gaps = t.need("sync_gaps");
    const json *id = t.col("id"), *ev = t.col("evidence"), *gain = t.col("gain_ns");
    const TrackCols tracks = trackColumns(t);
    m_r.clusters.assign(n, Cluster{});
    for (std::size_t k = 0; k < n; ++k) {
        Cluster& x = m_r.clusters[k];
        x.id = id ? integerAt<std::uint32_t>(t, "id", *id, k, 0) : static_cast<std::uint32_t>(k);
        x.track = integerAt<std::uint32_t>(t, "track_index", track, k, 0);
        readTrack(t, tracks, k, x);
        x.firstSlice = integerAt<std::uint32_t>(t, "first_slice", first, k, 0);
        x.lastSlice = integerAt<std::uint32_t>(t, "last_slice", last, k, 0);
        x.start = timeAt(t, "start_ns", start, k);
        x.end = timeAt(t, "end_ns", end, k);
        x.ops = integerAt<std::uint32_t>(t, "ops", ops, k, 0);
        x.busyNs = integerAt<TimeNs>(t, "busy_ns", busy, k);
        x.waitNs = integerAt<TimeNs>(t, "wait_ns", wait, k);
        x.savingNs = integerAt<TimeNs>(t, "estimated_saving_ns", saving, k);
        x.provenance = provenanceAt(t, "provenance", prov, k);
        x.syncGaps = integerAt<std::uint32_t>(t, "sync_gaps", gaps, k, 0);
        if (ev) x.evidence = evidence((*ev)[k], t.at("evidence", k));
        x.gainNs = optionalNsAt(t, "gain_ns", gain, k);
    }
}

void Reader::patterns() {
    const json& ps = needArray(m_doc, "patterns", "report");
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const json& p = ps[i];
        const std::string where = "patterns[" + std::to_string(i) + "]";
        if (!p.is_object()) fail(where, "not an object");
        ContentionPattern x;
        x.id = getInt<std::uint32_t>(p, "id", where, 0);
        x.signature = getInt<std::uint32_t>(p, "signature", where, 0);
        x.victim = getString(p, "victim", where);
        x.partner = getString(p, "partner", where);
        x.factor = getString(p, "factor", where);
        x.runsBeside = getInt<std::uint32_t>(p, "runs_beside", where, 0);
        x.runsApart = getInt<std::uint32_t>(p, "runs_apart", where, 0);
        x.slowdown = getNumber(p, "slowdown", where);
        const json& ci = need(p, "slowdown_ci", where);
        if (!ci.is_array() || ci.size() != 2 || !ci[0].is_number() || !ci[1].is_number())
            fail(where + ".slowdown_ci", "expected [low, high]");
        x.slowdownLow = ci[0].get<double>();
        x.slowdownHigh = ci[1].get<double>();
        x.pValue = getNumber(p, "p_value", where);
        x.costNs = getInt<TimeNs>(p, "cost_ns", where);
        x.countedCostNs = getInt<TimeNs>(p, "counted_cost_ns", where);
        x.unflaggedCostNs = getInt<TimeNs>(p, "unflagged_cost_ns", where);
        const json& cause = need(p, "cause", where);
        const std::string resource = getString(cause, "resource", where + ".cause");
        if (!resourceFromName(resource, x.cause)) fail(where + ".cause", "unknown resource \"" + resource + "\"");
        const std::string prov = getString(cause, "provenance", where + ".cause");
        if (!provenanceFromName(prov, x.provenance)) fail(where + ".cause", "unknown provenance \"" + prov + "\"");
        x.evidence = evidence(need(cause, "evidence", where + ".cause"), where + ".cause.evidence");
        x.concurrency = getInt<std::uint32_t>(p, "concurrency", where, 0);
        x.lostShare = p.contains("lost_share") ? getNumber(p, "lost_share", where) : -1.0;
        const Columns t(p, "runs", where);
        const std::size_t n = t.rows();
        const json& slice = t.need("slice");
        const TimeCols times = timeColumns(t);
        const json &counted = t.need("counted"), *excess = t.col("excess_ns");
        // Without the column the writer's rule gives each run's excess: its share of the
        // slowdown ("run_excess": "share", pattern_excess.h), else (report/3 and older /4 files)
        // duration - baseline clipped at 0.
        bool share = false;
        if (!excess && p.contains("run_excess")) {
            if (getString(p, "run_excess", where) != "share") fail(where + ".run_excess", "expected \"share\"");
            share = true;
        }
        const SignatureStats* s = excess || share ? nullptr : &op(x.signature, where + ".signature");
        x.runs.resize(n);
        std::int64_t sl = 0;
        TimeNs at = m_origin;
        for (std::size_t k = 0; k < n; ++k) {
            PatternRun& run = x.runs[k];
            constexpr std::int64_t kMaxStep = std::int64_t{1} << 33;  // slices are 32-bit: a step is less
            const auto step = integerAt<std::int64_t>(t, "slice", slice, k, -kMaxStep);
            if (step > kMaxStep) fail(t.at("slice", k), "not a step between slices");
            sl += step;
            if (sl < 0 || sl > std::numeric_limits<std::uint32_t>::max()) fail(t.at("slice", k), "not a slice");
            run.slice = static_cast<std::uint32_t>(sl);
            if (times.start) {
                const TimeNs gap = integerAt<TimeNs>(t, "start_ns", *times.start, k);
                if ((gap > 0 && at > std::numeric_limits<TimeNs>::max() - gap) ||
                    (gap < 0 && at < std::numeric_limits<TimeNs>::min() - gap))
                    fail(t.at("start_ns", k), "out of range");
                at += gap;
                run.startNs = at;
                run.durNs = integerAt<TimeNs>(t, "dur_ns", *times.dur, k, 0);
            } else {
                std::tie(run.startNs, run.durNs) = sliceTimes(run.slice, t, k);
            }
            run.excessNs = excess  ? integerAt<TimeNs>(t, "excess_ns", *excess, k, 0)
                           : share ? patternRunExcessNs(run.durNs, x.slowdown)
                                   : std::max<TimeNs>(0, run.durNs - s->baselineNs);
            run.counted = flagAt(t, "counted", counted, k);
        }
        m_r.patterns.push_back(std::move(x));
    }
}

}  // namespace

void readFindingsV3(const json& doc, Report& r, int version) {
    Reader reader(doc, r, version);
    reader.windows();  // first: the anomalies' windows may come from them
    reader.anomalies();
    reader.clusters();
    reader.patterns();
}

}  // namespace contend
