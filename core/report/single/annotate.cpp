#include "core/report/single/annotate.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/analysis/inputs/signatures.h"
#include "core/common/output_sink.h"
#include "core/io/byte_source.h"
#include "core/report/single/report_json.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

using nlohmann::json;

// A pid no track uses: one past the largest numeric pid (at least 1,000,000).
long long freePid(const Trace& t) {
    long long top = 999'999;
    for (const Track& tr : t.tracks()) {
        long long v = 0;
        const auto [p, ec] = std::from_chars(tr.pid.data(), tr.pid.data() + tr.pid.size(), v);
        if (ec == std::errc() && p == tr.pid.data() + tr.pid.size()) top = std::max(top, v);
    }
    return top + 1;
}

// Microseconds on the file's clock.
double fileUs(const Trace& t, TimeNs ns) { return static_cast<double>(ns - t.baseTimeNs()) / 1000.0; }

// "contention windows", "contention windows 2", ...
std::string laneName(const char* what, std::size_t lane) {
    std::string s(what);
    if (lane > 0) {
        s += ' ';
        s += std::to_string(lane + 1);
    }
    return s;
}

struct Lanes {
    std::vector<TimeNs> ends;  // per lane: end of its last slice
    // The first lane free at `start` (slices arrive by start), a new one if none.
    std::size_t place(TimeNs start, TimeNs end) {
        for (std::size_t k = 0; k < ends.size(); ++k)
            if (ends[k] <= start) {
                ends[k] = end;
                return k;
            }
        ends.push_back(end);
        return ends.size() - 1;
    }
};

}  // namespace

std::string findingEvents(const Trace& t, const Report& r, std::uint64_t* count) {
    const long long pid = freePid(t);
    std::vector<json> ev;
    auto meta = [&](const char* name, long long tid, json args) {
        ev.push_back({{"ph", "M"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}});
    };
    meta("process_name", 0, {{"name", "Contend findings"}});
    meta("process_sort_index", 0, {{"sort_index", -1}});
    // Thread ids: windows 1000+lane, clusters 2000+lane, anomalies 3000, pattern runs 4000+lane.
    constexpr long long kWindowTid = 1000, kClusterTid = 2000, kAnomalyTid = 3000, kPatternTid = 4000;

    // Windows, by start, on lanes.
    std::vector<std::size_t> order(r.windows.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return r.windows[a].start < r.windows[b].start; });
    Lanes windowLanes;
    long long flowId = 1;
    for (std::size_t i : order) {
        const ContentionWindow& w = r.windows[i];
        const long long tid = kWindowTid + static_cast<long long>(windowLanes.place(w.start, w.end));
        TimeNs extra = 0;
        json ops = json::array();
        for (const WindowOp& o : w.ops) {
            extra += o.extraWaitNs;
            ops.push_back(o.name + " (pid " + o.pid + ", tid " + o.tid + ") +" + formatDuration(o.extraWaitNs));
        }
        json args = {{"id", w.id},
                     {"resource", resourceName(w.resource)},
                     {"provenance", provenanceName(w.provenance)},
                     {"overlap_ratio", w.overlapRatio},
                     {"extra_wait_ns", extra},
                     {"operators", std::move(ops)}};
        if (w.fromCounters) args["peak_utilization"] = w.peakUtilization;
        if (!w.evidence.empty()) args["evidence"] = w.evidence;
        const std::string name = std::string(resourceName(w.resource)) + " window +" + formatDuration(extra);
        const double ts = fileUs(t, w.start);
        ev.push_back({{"ph", "X"},
                      {"cat", "contend"},
                      {"name", name},
                      {"pid", pid},
                      {"tid", tid},
                      {"ts", ts},
                      {"dur", static_cast<double>(w.end - w.start) / 1000.0},
                      {"args", std::move(args)}});
        for (const WindowOp& o : w.ops) {
            const std::string fname = "window " + std::to_string(w.id);
            ev.push_back({{"ph", "s"},
                          {"cat", "contend.window"},
                          {"name", fname},
                          {"id", flowId},
                          {"pid", pid},
                          {"tid", tid},
                          {"ts", ts}});
            ev.push_back({{"ph", "f"},
                          {"bp", "e"},
                          {"cat", "contend.window"},
                          {"name", fname},
                          {"id", flowId},
                          {"pid", idJson(o.pid)},
                          {"tid", idJson(o.tid)},
                          {"ts", fileUs(t, o.startNs)}});
            ++flowId;
        }
    }
    for (std::size_t k = 0; k < windowLanes.ends.size(); ++k)
        meta("thread_name", kWindowTid + static_cast<long long>(k), {{"name", laneName("contention windows", k)}});

    // Clusters, by start (they come sorted), on lanes.
    Lanes clusterLanes;
    for (const Cluster& c : r.clusters) {
        const long long tid = kClusterTid + static_cast<long long>(clusterLanes.place(c.start, c.end));
        json args = {{"id", c.id},
                     {"track", c.trackLabel},
                     {"ops", c.ops},
                     {"busy_ns", c.busyNs},
                     {"wait_ns", c.waitNs},
                     {"estimated_saving_ns", c.savingNs},
                     {"provenance", provenanceName(c.provenance)},
                     {"evidence", c.evidence}};
        ev.push_back(
            {{"ph", "X"},
             {"cat", "contend"},
             {"name", "cluster of " + std::to_string(c.ops) + " tiny ops, saves ~" + formatDuration(c.savingNs)},
             {"pid", pid},
             {"tid", tid},
             {"ts", fileUs(t, c.start)},
             {"dur", static_cast<double>(c.end - c.start) / 1000.0},
             {"args", std::move(args)}});
    }
    for (std::size_t k = 0; k < clusterLanes.ends.size(); ++k)
        meta("thread_name", kClusterTid + static_cast<long long>(k), {{"name", laneName("sync clusters", k)}});

    // Contention patterns: each run counted in one (none twice), a slice over the run on lanes,
    // in time order; the pattern's own figures in its args (its evidence is the report's).
    struct CountedRun {
        const ContentionPattern* pattern;
        const PatternRun* run;
    };
    std::vector<CountedRun> counted;
    for (const ContentionPattern& p : r.patterns)
        for (const PatternRun& run : p.runs)
            if (run.counted) counted.push_back({&p, &run});
    std::stable_sort(counted.begin(), counted.end(),
                     [](const CountedRun& a, const CountedRun& b) { return a.run->startNs < b.run->startNs; });
    Lanes patternLanes;
    for (const CountedRun& c : counted) {
        const ContentionPattern& p = *c.pattern;
        const PatternRun& run = *c.run;
        const TimeNs end = run.startNs + std::max<TimeNs>(0, run.durNs);
        const long long tid = kPatternTid + static_cast<long long>(patternLanes.place(run.startNs, end));
        char pct[32];
        std::snprintf(pct, sizeof pct, "%+.0f%%", 100.0 * p.slowdown);
        json args = {{"pattern", p.id},
                     {"victim", p.victim},
                     {"partner", p.partner},
                     {"factor", p.factor},
                     {"slowdown", p.slowdown},
                     {"slowdown_ci", {p.slowdownLow, p.slowdownHigh}},
                     {"p_value", p.pValue},
                     {"runs_beside", p.runsBeside},
                     {"runs_apart", p.runsApart},
                     {"pattern_cost_ns", p.costNs},
                     {"cause", resourceName(p.cause)},
                     {"provenance", provenanceName(p.provenance)},
                     {"dur_ns", run.durNs},
                     {"excess_ns", run.excessNs}};
        ev.push_back({{"ph", "X"},
                      {"cat", "contend"},
                      {"name", shortName(p.victim) + " beside " + shortName(p.partner) + " " + pct},
                      {"pid", pid},
                      {"tid", tid},
                      {"ts", fileUs(t, run.startNs)},
                      {"dur", static_cast<double>(end - run.startNs) / 1000.0},
                      {"args", std::move(args)}});
    }
    for (std::size_t k = 0; k < patternLanes.ends.size(); ++k)
        meta("thread_name", kPatternTid + static_cast<long long>(k), {{"name", laneName("contention patterns", k)}});

    // Anomalies as instants, in time order.
    std::vector<const Anomaly*> anomalies;
    for (const Anomaly& a : r.anomalies) anomalies.push_back(&a);
    std::stable_sort(anomalies.begin(), anomalies.end(),
                     [](const Anomaly* a, const Anomaly* b) { return a->startNs < b->startNs; });
    for (const Anomaly* a : anomalies) {
        json args = {{"operator", a->name},
                     {"track", a->trackLabel},
                     {"score", std::isfinite(a->score) ? a->score : 0.0},
                     {"cause", resourceName(a->cause)},
                     {"provenance", provenanceName(a->provenance)},
                     {"dur_ns", a->durNs},
                     {"baseline_ns", a->baselineNs},
                     {"excess_ns", a->excessNs}};
        if (!a->evidence.empty()) args["evidence"] = a->evidence;
        char score[32];
        std::snprintf(score, sizeof score, "%.1f", a->score);
        ev.push_back({{"ph", "i"},
                      {"s", "t"},
                      {"cat", "contend"},
                      {"name", a->name + " (score " + score + ", " + resourceName(a->cause) + ")"},
                      {"pid", pid},
                      {"tid", kAnomalyTid},
                      {"ts", fileUs(t, a->startNs)},
                      {"args", std::move(args)}});
    }
    if (!anomalies.empty()) meta("thread_name", kAnomalyTid, {{"name", "anomalies"}});

    std::string out;
    for (std::size_t i = 0; i < ev.size(); ++i) {
        if (i) out += ",\n";
        out += jsonText(ev[i]);
    }
    if (count) *count = ev.size();
    return out;
}

namespace {

// Finds the end of the events array while bytes stream through: the top-level array, or the
// array under the top-level key "traceEvents".
class EventsEnd {
  public:
    // Feeds one byte; true when it is the ']' that closes the events array.
    bool feed(char c) {
        if (m_done) return false;
        if (m_inString) {
            if (m_escape)
                m_escape = false;
            else if (c == '\\')
                m_escape = true;
            else if (c == '"') {
                m_inString = false;
                if (m_collectKey) m_lastKey = m_key, m_collectKey = false;
            } else if (m_collectKey && m_key.size() < 32) {
                m_key += c;
            }
            if (m_inArray && m_depth == m_arrayDepth) m_nonEmpty = true;
            return false;
        }
        switch (c) {
        case '"':
            m_inString = true;
            m_key.clear();
            // A key of the top-level object (strings at depth 1 alternate key/value; the last
            // string seen before ':' is the key).
            m_collectKey = m_depth == 1 && m_topObject && !m_inArray;
            break;
        case '{':
        case '[':
            if (m_depth == 0) {
                m_topObject = c == '{';
                if (c == '[') {
                    m_inArray = true;
                    m_arrayDepth = 1;
                }
            } else if (c == '[' && m_depth == 1 && m_topObject && !m_inArray && m_lastKey == "traceEvents") {
                m_inArray = true;
                m_arrayDepth = 2;
            } else if (m_inArray && m_depth == m_arrayDepth) {
                m_nonEmpty = true;
            }
            ++m_depth;
            break;
        case '}':
        case ']':
            --m_depth;
            if (m_inArray && c == ']' && m_depth == m_arrayDepth - 1) {
                m_done = true;
                return true;
            }
            break;
        case ',':
        case ':':
            if (c == ',' && m_depth == 1) m_lastKey.clear();
            break;
        default:
            if (m_inArray && m_depth == m_arrayDepth && !std::isspace(static_cast<unsigned char>(c))) m_nonEmpty = true;
            break;
        }
        return false;
    }
    bool nonEmpty() const { return m_nonEmpty; }
    bool done() const { return m_done; }

  private:
    int m_depth = 0;
    int m_arrayDepth = -1;
    bool m_topObject = false;
    bool m_inArray = false;
    bool m_inString = false;
    bool m_escape = false;
    bool m_collectKey = false;
    bool m_nonEmpty = false;
    bool m_done = false;
    std::string m_key, m_lastKey;
};

}  // namespace

Result<Annotated> writeAnnotatedTrace(const Trace& trace, const Report& report, const std::string& outPath) {
    Annotated res;
    const std::string& in = trace.source().path;
    std::string error;
    auto src = openByteSource(in, error);
    if (!src) return Failure::of(Failure::Kind::Unreadable, error, in);
    Result<std::unique_ptr<OutputSink>> opened = OutputSink::open(outPath, OutputSink::Options{});
    if (!opened) return opened.failure();
    const std::unique_ptr<OutputSink> sink = std::move(opened).value();
    const std::string added = findingEvents(trace, report, &res.addedEvents);
    EventsEnd scan;
    std::vector<char> buf(1 << 20);
    std::uint64_t offset = 0;
    for (;;) {
        const std::size_t n = src->read(buf.data(), buf.size());
        if (n == 0) break;
        std::size_t from = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (!scan.feed(buf[i])) continue;
            // Splice the findings in before the closing bracket.
            if (!sink->write(std::string_view(buf.data() + from, i - from))) break;
            if (!added.empty()) {
                sink->write(scan.nonEmpty() ? ",\n" : "\n");
                sink->write(added);
                sink->write("\n");
            }
            from = i;
        }
        if (!sink->write(std::string_view(buf.data() + from, n - from))) break;
        offset += n;
    }
    const auto at = [&](std::string reason, Failure::Kind kind) {
        return Failure{in, static_cast<std::int64_t>(offset), -1, -1, std::move(reason), kind};
    };
    // On a failure the sink's destructor removes the temporary.
    if (!src->error().empty()) return at(src->error(), Failure::Kind::Unreadable);
    if (!scan.done())
        return at("the events array never closes (the trace is cut short), so it cannot be annotated",
                  Failure::Kind::Malformed);
    if (std::optional<Failure> failed = sink->finish()) return *std::move(failed);
    res.bytesWritten = sink->bytes();
    return res;
}

}  // namespace contend
