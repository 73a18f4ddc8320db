#include "core/report/report_json.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "core/report/distributed_json.h"
#include "core/report/producer_json.h"

namespace contend {

std::string jsonText(const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

using nlohmann::json;

namespace {

json breakdownJson(const Breakdown& b) {
    json j = {{"compute_ns", b.computeNs},
              {"data_wait_ns", b.dataWaitNs},
              {"queue_ns", b.queueNs},
              {"sync_ns", b.syncNs},
              {"measured", {{"data", b.measuredData}, {"queue", b.measuredQueue}, {"sync", b.measuredSync}}}};
    j["wait_before_ns"] = b.waitBeforeNs >= 0 ? json(b.waitBeforeNs) : json(nullptr);
    return j;
}

double finite(double v) { return std::isfinite(v) ? v : 0.0; }

// --- what-if (report/2): kept in small functions of their own --------------------------------

// A time the what-if may not have computed: null for -1.
json optionalNs(TimeNs v) { return v >= 0 ? json(v) : json(nullptr); }

json whatIfJson(const WhatIfSummary& w) {
    json resources = json::array();
    for (const ResourceGain& g : w.resources)
        resources.push_back(
            {{"resource", resourceName(g.resource)}, {"extra_wait_ns", g.extraWaitNs}, {"gain_ns", g.gainNs}});
    return {{"computed", w.computed},
            {"total_ns", w.totalNs},
            {"iterations", w.iterations},
            {"nodes", w.nodes},
            {"edges", w.edges},
            {"critical_track", w.criticalTrack},
            {"critical_device_ns", w.criticalDeviceNs},
            {"replayed", w.replayed},
            {"off_path", w.offPath},
            {"skipped", w.skipped},
            {"resources", std::move(resources)},
            {"all_gain_ns", optionalNs(w.allGainNs)}};
}

// Fields the what-if adds to an item ("gain_ns", "slack_ns", "critical_path_ns", ...).
void addGain(json& item, TimeNs gain) { item["gain_ns"] = optionalNs(gain); }
void addSlack(json& item, TimeNs slack) { item["slack_ns"] = optionalNs(slack); }
void addCriticalPath(json& item, const IterationStats& s) {
    item["critical_path_ns"] = optionalNs(s.criticalPathNs);
    item["critical_track"] = s.criticalTrack;
}

// Slice-dependent fallbacks for hand-built reports.
struct SliceText {
    std::string name, pid, tid, label;
    TimeNs start = 0, dur = 0;
};
SliceText sliceText(const Trace* t, std::uint32_t slice) {
    SliceText s;
    if (!t || slice >= t->slices().size()) return s;
    const Slice& sl = t->slices()[slice];
    const Track& tr = t->tracks()[sl.track];
    s.name = std::string(t->str(sl.name));
    s.pid = tr.pid;
    s.tid = tr.tid;
    s.label = tr.label();
    s.start = sl.start;
    s.dur = sl.dur;
    return s;
}

// --- writing: one function per item, one per section --------------------------------------
// A section is a top-level key. Sections are visited in the order nlohmann::json keeps object
// keys (alphabetical), so the streaming writer emits the same bytes as dumping the whole
// document; a new section goes in its alphabetical place in forEachSection.

json traceJson(const Report& r) {
    return {{"path", r.trace.path},           {"format", r.trace.format}, {"events", r.trace.events},
            {"operators", r.trace.operators}, {"tracks", r.trace.tracks}, {"span_ns", r.trace.spanNs},
            {"counters", r.trace.counters},   {"scope", r.trace.scope}};
}

json settingsJson(const Report& r) {
    json j = {{"coefficient", r.settings.coefficient}, {"overlap_ratio", r.settings.overlapRatio}};
    if (!r.settings.configPath.empty()) j["config"] = r.settings.configPath;
    return j;
}

json summaryJson(const Report& r) {
    json byRes = json::object();
    for (std::size_t i = 0; i < kResourceCount; ++i)
        if (r.summary.extraWaitByResource[i] > 0)
            byRes[resourceName(static_cast<Resource>(i))] = r.summary.extraWaitByResource[i];
    return {{"end_to_end_ns", r.summary.endToEndNs},
            {"anomalies", r.summary.anomalies},
            {"windows", r.summary.windows},
            {"clusters", r.summary.clusters},
            {"extra_wait_ns", r.summary.extraWaitNs},
            {"operator_time_ns", r.summary.operatorTimeNs},
            {"explained_wait_ns", r.summary.explainedWaitNs},
            {"anomaly_wait_ns", r.summary.anomalyWaitNs},
            {"cluster_wait_ns", r.summary.clusterWaitNs},
            {"bottleneck",
             {{"resource", resourceName(r.summary.bottleneck)}, {"share", finite(r.summary.bottleneckShare)}}},
            {"extra_wait_by_resource", byRes}};
}

json anomalyJson(const Anomaly& a, const Trace* t) {
    SliceText fb = a.name.empty() ? sliceText(t, a.slice) : SliceText{};
    const bool useFb = a.name.empty() && !fb.name.empty();
    json j = {{"id", a.id},
              {"slice", a.slice},
              {"signature", a.signature},
              {"name", useFb ? fb.name : a.name},
              {"pid", idJson(useFb ? fb.pid : a.pid)},
              {"tid", idJson(useFb ? fb.tid : a.tid)},
              {"track", useFb ? fb.label : a.trackLabel},
              {"track_index", a.track},
              {"start_ns", useFb ? fb.start : a.startNs},
              {"dur_ns", useFb ? fb.dur : a.durNs},
              {"baseline_ns", a.baselineNs},
              {"excess_ns", a.excessNs},
              {"score", finite(a.score)},
              {"cause", resourceName(a.cause)},
              {"provenance", provenanceName(a.provenance)},
              {"evidence", a.evidence},
              {"windows", a.windows},
              {"breakdown", breakdownJson(a.breakdown)}};
    addGain(j, a.gainNs);
    addSlack(j, a.slackNs);
    return j;
}

json windowOpJson(const WindowOp& o, const Trace* t) {
    SliceText fb = o.name.empty() ? sliceText(t, o.slice) : SliceText{};
    const bool useFb = o.name.empty() && !fb.name.empty();
    json j = {{"slice", o.slice},
              {"name", useFb ? fb.name : o.name},
              {"pid", idJson(useFb ? fb.pid : o.pid)},
              {"tid", idJson(useFb ? fb.tid : o.tid)},
              {"start_ns", useFb ? fb.start : o.startNs},
              {"dur_ns", useFb ? fb.dur : o.durNs},
              {"extra_wait_ns", o.extraWaitNs}};
    addSlack(j, o.slackNs);
    return j;
}

json windowJson(const ContentionWindow& w, const Trace* t) {
    json ops = json::array();
    for (const WindowOp& o : w.ops) ops.push_back(windowOpJson(o, t));
    json j = {{"id", w.id},
              {"resource", resourceName(w.resource)},
              {"start_ns", w.start},
              {"end_ns", w.end},
              {"overlap_ratio", finite(w.overlapRatio)},
              {"peak_utilization", finite(w.peakUtilization)},
              {"from_counters", w.fromCounters},
              {"provenance", provenanceName(w.provenance)},
              {"evidence", w.evidence},
              {"ops", std::move(ops)}};
    addGain(j, w.gainNs);
    return j;
}

json clusterJson(const Cluster& c, const Trace* t) {
    std::string pid = c.pid, tid = c.tid, label = c.trackLabel;
    if (pid.empty() && t && c.track < t->tracks().size()) {
        pid = t->tracks()[c.track].pid;
        tid = t->tracks()[c.track].tid;
        label = t->tracks()[c.track].label();
    }
    json j = {{"id", c.id},
              {"pid", idJson(pid)},
              {"tid", idJson(tid)},
              {"track", label},
              {"track_index", c.track},
              {"first_slice", c.firstSlice},
              {"last_slice", c.lastSlice},
              {"start_ns", c.start},
              {"end_ns", c.end},
              {"ops", c.ops},
              {"busy_ns", c.busyNs},
              {"wait_ns", c.waitNs},
              {"estimated_saving_ns", c.savingNs},
              {"provenance", provenanceName(c.provenance)},
              {"sync_gaps", c.syncGaps},
              {"evidence", c.evidence}};
    addGain(j, c.gainNs);
    return j;
}

json noteJson(const ReportNote& n) { return {{"kind", n.kind}, {"text", n.text}}; }

json operatorJson(const SignatureStats& s) {
    return {{"id", s.id},
            {"signature", s.signature},
            {"name", s.name},
            {"type", s.opType},
            {"count", s.count},
            {"total_ns", s.totalNs},
            {"baseline_ns", s.baselineNs},
            {"baseline_from_solo", s.baselineFromSolo},
            {"baseline_rule", s.baselineRule},
            {"p50_ns", s.p50Ns},
            {"p95_ns", s.p95Ns},
            {"max_ns", s.maxNs},
            {"mean_ns", finite(s.meanNs)},
            {"anomalies", s.anomalies},
            {"extra_wait_ns", s.extraWaitNs},
            {"dominant_cause", resourceName(s.dominantCause)},
            {"breakdown", breakdownJson(s.breakdown)}};
}

json typeJson(const TypeStats& s) {
    return {{"type", s.type},
            {"count", s.count},
            {"total_ns", s.totalNs},
            {"anomalies", s.anomalies},
            {"extra_wait_ns", s.extraWaitNs},
            {"dominant_cause", resourceName(s.dominantCause)}};
}

json iterationJson(const IterationStats& s) {
    json j = {{"index", s.index},
              {"start_ns", s.start},
              {"end_ns", s.end},
              {"anomalies", s.anomalies},
              {"extra_wait_ns", s.extraWaitNs},
              {"cut", s.cut}};
    addCriticalPath(j, s);
    return j;
}

json threadJson(const TrackStats& s) {
    return {{"track_index", s.track},   {"pid", idJson(s.pid)},          {"tid", idJson(s.tid)},
            {"track", s.label},         {"operators", s.operators},      {"busy_ns", s.busyNs},
            {"anomalies", s.anomalies}, {"extra_wait_ns", s.extraWaitNs}};
}

// Calls v.value(key, json) for a section that is one small value and v.array(key, items, fn)
// for a list, where fn(item) makes one element, in alphabetical key order.
template <typename Visitor>
void forEachSection(const Report& r, const Trace* t, Visitor& v) {
    v.array("anomalies", r.anomalies, [t](const Anomaly& a) { return anomalyJson(a, t); });
    v.array("clusters", r.clusters, [t](const Cluster& c) { return clusterJson(c, t); });
    if (!r.distributed.empty()) v.value("distributed", distributedToJson(r.distributed));
    v.array("iterations", r.iterations, iterationJson);
    v.array("notes", r.notes, noteJson);
    v.array("operators", r.operators, operatorJson);
    v.value("producer", producerJson());  // this build, never r.producer: the file is its writing
    v.value("schema", json(kReportSchema));
    v.value("settings", settingsJson(r));
    v.value("summary", summaryJson(r));
    v.array("threads", r.threads, threadJson);
    v.value("trace", traceJson(r));
    v.array("types", r.types, typeJson);
    v.value("what_if", whatIfJson(r.whatIf));
    v.array("windows", r.windows, [t](const ContentionWindow& w) { return windowJson(w, t); });
}

// The whole document in memory (reportToJson).
struct DomVisitor {
    json doc = json::object();
    void value(const char* key, json v) { doc[key] = std::move(v); }
    template <typename Items, typename Fn>
    void array(const char* key, const Items& items, Fn fn) {
        json a = json::array();
        for (const auto& x : items) a.push_back(fn(x));
        doc[key] = std::move(a);
    }
};

json toJson(const Report& r, const Trace* t) {
    DomVisitor v;
    forEachSection(r, t, v);
    return std::move(v.doc);
}

// The same text as jsonText(toJson(...)), one element at a time: each element is dumped on its
// own (at depth 0) and re-indented to its depth, which is exactly how nlohmann::json indents
// nested values (raw newlines only come from the indentation: strings escape theirs).
class StreamVisitor {
  public:
    explicit StreamVisitor(std::ostream& out) : m_out(out) {}
    void value(const char* key, const json& v) {
        openKey(key);
        writeIndented(v, "  ");
    }
    template <typename Items, typename Fn>
    void array(const char* key, const Items& items, Fn fn) {
        openKey(key);
        if (items.empty()) {
            m_out << "[]";
            return;
        }
        m_out << "[\n";
        bool first = true;
        for (const auto& x : items) {
            if (!first) m_out << ",\n";
            first = false;
            m_out << "    ";
            writeIndented(fn(x), "    ");
        }
        m_out << "\n  ]";
    }
    void finish() { m_out << (m_keys ? "\n}\n" : "{}\n"); }

  private:
    void openKey(const char* key) { m_out << (m_keys++ ? ",\n  " : "{\n  ") << json(key).dump() << ": "; }
    void writeIndented(const json& v, const char* indent) {
        const std::string text = v.dump(2, ' ', false, json::error_handler_t::replace);
        std::size_t from = 0;
        for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
            m_out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
            m_out << indent;
        }
        m_out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
    }

    std::ostream& m_out;
    std::size_t m_keys = 0;
};

}  // namespace

void writeReportJson(std::ostream& out, const Report& report, const Trace* trace) {
    StreamVisitor v(out);
    forEachSection(report, trace, v);
    v.finish();
}

namespace {

// --- reading ---------------------------------------------------------------------------------

struct ReadError {
    std::string what;
};

const json& need(const json& j, const char* key, const std::string& where) {
    if (!j.is_object() || !j.contains(key)) throw ReadError{where + ": missing \"" + key + "\""};
    return j[key];
}

// v as a T, or nullopt when it is not one. Integers are range-checked: nlohmann's get<long>() of
// 3e126 (a float where a count belongs, in a file we did not write) is a cast out of range,
// undefined behaviour; so is a negative count read as unsigned. A float is accepted for an
// integer only when it is whole and in range.
template <typename T>
std::optional<T> convert(const json& v) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using L = std::numeric_limits<T>;
        if (v.is_number_unsigned()) {
            const auto u = v.get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(L::max())) return std::nullopt;
            return static_cast<T>(u);
        }
        if (v.is_number_integer()) {
            const auto i = v.get<std::int64_t>();
            if (i < static_cast<std::int64_t>(L::min())) return std::nullopt;
            if (i > 0 && static_cast<std::uint64_t>(i) > static_cast<std::uint64_t>(L::max())) return std::nullopt;
            return static_cast<T>(i);
        }
        if (v.is_number_float()) {
            const double d = v.get<double>();
            // 2^63 and 2^64 are exact doubles; max() itself is not.
            const double hi = L::is_signed ? 9223372036854775808.0 : 18446744073709551616.0;
            if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(L::min()) ||
                d >= std::min(hi, static_cast<double>(L::max()) + 1.0))
                return std::nullopt;
            return static_cast<T>(d);
        }
        return std::nullopt;
    } else {
        try {
            return v.get<T>();
        } catch (const json::exception&) {
            return std::nullopt;
        }
    }
}

template <typename T>
T get(const json& j, const char* key, const std::string& where) {
    const json& v = need(j, key, where);
    if (std::optional<T> x = convert<T>(v)) return *x;
    throw ReadError{where + ": \"" + key + "\" has the wrong type or is out of range"};
}

template <typename T>
T getOr(const json& j, const char* key, T fallback) {
    if (!j.is_object() || !j.contains(key) || j[key].is_null()) return fallback;
    return convert<T>(j[key]).value_or(fallback);
}

// pid/tid written as a number or a string.
std::string getId(const json& j, const char* key, const std::string& where) {
    const json& v = need(j, key, where);
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<long long>());
    throw ReadError{where + ": \"" + key + "\" is neither a number nor a string"};
}

Resource getResource(const json& j, const char* key, const std::string& where) {
    Resource r;
    const auto s = get<std::string>(j, key, where);
    if (!resourceFromName(s, r)) throw ReadError{where + ": unknown resource \"" + s + "\""};
    return r;
}

const json& needArray(const json& j, const char* key) {
    const json& v = need(j, key, "report");
    if (!v.is_array()) throw ReadError{std::string("report: \"") + key + "\" is not an array"};
    return v;
}

Breakdown readBreakdown(const json& j) {
    Breakdown b;
    if (!j.is_object()) return b;
    b.computeNs = getOr<TimeNs>(j, "compute_ns", 0);
    b.dataWaitNs = getOr<TimeNs>(j, "data_wait_ns", 0);
    b.queueNs = getOr<TimeNs>(j, "queue_ns", 0);
    b.syncNs = getOr<TimeNs>(j, "sync_ns", 0);
    b.waitBeforeNs = getOr<TimeNs>(j, "wait_before_ns", -1);
    if (j.contains("measured")) {
        const json& m = j["measured"];
        b.measuredData = getOr<bool>(m, "data", false);
        b.measuredQueue = getOr<bool>(m, "queue", false);
        b.measuredSync = getOr<bool>(m, "sync", false);
    }
    return b;
}

TimeNs optionalNsOf(const json& j, const char* key) { return getOr<TimeNs>(j, key, -1); }

// report/2's what-if; a report/1 has none (computed false, every gain -1).
WhatIfSummary readWhatIf(const json& j) {
    WhatIfSummary w;
    if (!j.contains("what_if") || !j["what_if"].is_object()) return w;
    const json& x = j["what_if"];
    w.computed = getOr<bool>(x, "computed", false);
    w.totalNs = getOr<TimeNs>(x, "total_ns", 0);
    w.iterations = getOr<std::size_t>(x, "iterations", 0);
    w.nodes = getOr<std::uint64_t>(x, "nodes", 0);
    w.edges = getOr<std::uint64_t>(x, "edges", 0);
    w.criticalTrack = getOr<std::string>(x, "critical_track", "");
    w.criticalDeviceNs = getOr<TimeNs>(x, "critical_device_ns", 0);
    w.replayed = getOr<std::size_t>(x, "replayed", 0);
    w.offPath = getOr<std::size_t>(x, "off_path", 0);
    w.skipped = getOr<std::size_t>(x, "skipped", 0);
    w.allGainNs = optionalNsOf(x, "all_gain_ns");
    if (x.contains("resources") && x["resources"].is_array())
        for (const json& g : x["resources"]) {
            ResourceGain rg;
            if (!resourceFromName(getOr<std::string>(g, "resource", ""), rg.resource)) continue;
            rg.extraWaitNs = getOr<TimeNs>(g, "extra_wait_ns", 0);
            rg.gainNs = getOr<TimeNs>(g, "gain_ns", 0);
            w.resources.push_back(rg);
        }
    return w;
}

Report readReport(const json& j) {
    if (!j.is_object()) throw ReadError{"report: not a JSON object"};
    const auto schema = getOr<std::string>(j, "schema", "");
    if (schema != kReportSchema && schema != kReportSchemaV1)
        throw ReadError{"report: schema is \"" + schema + "\", expected \"" + kReportSchema + "\" (or \"" +
                        kReportSchemaV1 + "\")"};
    Report r;
    const json& tr = need(j, "trace", "report");
    r.trace.path = get<std::string>(tr, "path", "trace");
    r.trace.format = get<std::string>(tr, "format", "trace");
    r.trace.events = getOr<std::uint64_t>(tr, "events", 0);
    r.trace.operators = getOr<std::uint64_t>(tr, "operators", 0);
    r.trace.tracks = getOr<std::uint64_t>(tr, "tracks", 0);
    r.trace.spanNs = getOr<TimeNs>(tr, "span_ns", 0);
    r.trace.counters = getOr<std::vector<std::string>>(tr, "counters", {});
    r.trace.scope = getOr<std::string>(tr, "scope", "device");
    const json& st = need(j, "settings", "report");
    r.settings.coefficient = get<double>(st, "coefficient", "settings");
    r.settings.overlapRatio = get<double>(st, "overlap_ratio", "settings");
    r.settings.configPath = getOr<std::string>(st, "config", "");
    const json& sm = need(j, "summary", "report");
    r.summary.endToEndNs = get<TimeNs>(sm, "end_to_end_ns", "summary");
    r.summary.anomalies = get<std::size_t>(sm, "anomalies", "summary");
    r.summary.windows = get<std::size_t>(sm, "windows", "summary");
    r.summary.clusters = get<std::size_t>(sm, "clusters", "summary");
    r.summary.extraWaitNs = get<TimeNs>(sm, "extra_wait_ns", "summary");
    r.summary.operatorTimeNs = getOr<TimeNs>(sm, "operator_time_ns", 0);
    r.summary.explainedWaitNs = getOr<TimeNs>(sm, "explained_wait_ns", r.summary.extraWaitNs);
    r.summary.anomalyWaitNs = getOr<TimeNs>(sm, "anomaly_wait_ns", 0);
    r.summary.clusterWaitNs = getOr<TimeNs>(sm, "cluster_wait_ns", 0);
    const json& bn = need(sm, "bottleneck", "summary");
    r.summary.bottleneck = getResource(bn, "resource", "summary.bottleneck");
    r.summary.bottleneckShare = get<double>(bn, "share", "summary.bottleneck");
    if (sm.contains("extra_wait_by_resource") && sm["extra_wait_by_resource"].is_object()) {
        for (const auto& [k, v] : sm["extra_wait_by_resource"].items()) {
            Resource res;
            if (!resourceFromName(k, res)) continue;
            if (std::optional<TimeNs> ns = convert<TimeNs>(v))
                r.summary.extraWaitByResource[static_cast<std::size_t>(res)] = *ns;
        }
    }
    std::size_t i = 0;
    for (const json& a : needArray(j, "anomalies")) {
        const std::string where = "anomalies[" + std::to_string(i++) + "]";
        Anomaly x;
        x.id = get<std::uint32_t>(a, "id", where);
        x.slice = getOr<std::uint32_t>(a, "slice", 0);
        x.signature = getOr<std::uint32_t>(a, "signature", 0);
        x.name = get<std::string>(a, "name", where);
        x.pid = getId(a, "pid", where);
        x.tid = getId(a, "tid", where);
        x.trackLabel = getOr<std::string>(a, "track", "");
        x.track = getOr<std::uint32_t>(a, "track_index", 0);
        x.startNs = get<TimeNs>(a, "start_ns", where);
        x.durNs = get<TimeNs>(a, "dur_ns", where);
        x.baselineNs = get<TimeNs>(a, "baseline_ns", where);
        x.excessNs = get<TimeNs>(a, "excess_ns", where);
        x.score = get<double>(a, "score", where);
        x.cause = getResource(a, "cause", where);
        x.evidence = getOr<std::string>(a, "evidence", "");
        // Reports before provenance: a cause other than unknown was a verdict of some kind.
        if (!provenanceFromName(getOr<std::string>(a, "provenance", ""), x.provenance))
            x.provenance = x.cause == Resource::Unknown ? Provenance::Unknown : Provenance::Estimated;
        x.windows = getOr<std::vector<std::uint32_t>>(a, "windows", {});
        if (a.contains("breakdown")) x.breakdown = readBreakdown(a["breakdown"]);
        x.gainNs = optionalNsOf(a, "gain_ns");
        x.slackNs = optionalNsOf(a, "slack_ns");
        r.anomalies.push_back(std::move(x));
    }
    i = 0;
    for (const json& w : needArray(j, "windows")) {
        const std::string where = "windows[" + std::to_string(i++) + "]";
        ContentionWindow x;
        x.id = get<std::uint32_t>(w, "id", where);
        x.resource = getResource(w, "resource", where);
        x.start = get<TimeNs>(w, "start_ns", where);
        x.end = get<TimeNs>(w, "end_ns", where);
        x.overlapRatio = get<double>(w, "overlap_ratio", where);
        x.peakUtilization = getOr<double>(w, "peak_utilization", 0.0);
        x.fromCounters = getOr<bool>(w, "from_counters", false);
        if (!provenanceFromName(getOr<std::string>(w, "provenance", ""), x.provenance))
            x.provenance = x.fromCounters ? Provenance::Measured : Provenance::Estimated;
        x.evidence = getOr<std::string>(w, "evidence", "");
        for (const json& o : need(w, "ops", where)) {
            WindowOp op;
            op.slice = getOr<std::uint32_t>(o, "slice", 0);
            op.name = get<std::string>(o, "name", where + ".ops");
            op.pid = getId(o, "pid", where + ".ops");
            op.tid = getId(o, "tid", where + ".ops");
            op.startNs = get<TimeNs>(o, "start_ns", where + ".ops");
            op.durNs = getOr<TimeNs>(o, "dur_ns", 0);
            op.extraWaitNs = get<TimeNs>(o, "extra_wait_ns", where + ".ops");
            op.slackNs = optionalNsOf(o, "slack_ns");
            x.ops.push_back(std::move(op));
        }
        x.gainNs = optionalNsOf(w, "gain_ns");
        r.windows.push_back(std::move(x));
    }
    i = 0;
    for (const json& c : needArray(j, "clusters")) {
        const std::string where = "clusters[" + std::to_string(i++) + "]";
        Cluster x;
        x.id = get<std::uint32_t>(c, "id", where);
        x.pid = getId(c, "pid", where);
        x.tid = getId(c, "tid", where);
        x.trackLabel = getOr<std::string>(c, "track", "");
        x.track = getOr<std::uint32_t>(c, "track_index", 0);
        x.firstSlice = getOr<std::uint32_t>(c, "first_slice", 0);
        x.lastSlice = getOr<std::uint32_t>(c, "last_slice", 0);
        x.start = get<TimeNs>(c, "start_ns", where);
        x.end = get<TimeNs>(c, "end_ns", where);
        x.ops = get<std::uint32_t>(c, "ops", where);
        x.busyNs = get<TimeNs>(c, "busy_ns", where);
        x.waitNs = get<TimeNs>(c, "wait_ns", where);
        x.savingNs = get<TimeNs>(c, "estimated_saving_ns", where);
        if (!provenanceFromName(getOr<std::string>(c, "provenance", ""), x.provenance))
            x.provenance = Provenance::Measured;
        x.syncGaps = getOr<std::uint32_t>(c, "sync_gaps", 0);
        x.evidence = getOr<std::string>(c, "evidence", "");
        x.gainNs = optionalNsOf(c, "gain_ns");
        r.clusters.push_back(std::move(x));
    }
    if (j.contains("notes") && j["notes"].is_array()) {
        for (const json& n : j["notes"]) {
            if (!n.is_object()) continue;
            r.notes.push_back({getOr<std::string>(n, "kind", ""), getOr<std::string>(n, "text", "")});
        }
    }
    i = 0;
    for (const json& s : needArray(j, "operators")) {
        const std::string where = "operators[" + std::to_string(i++) + "]";
        SignatureStats x;
        x.id = getOr<std::uint32_t>(s, "id", static_cast<std::uint32_t>(i - 1));
        x.signature = get<std::string>(s, "signature", where);
        x.name = get<std::string>(s, "name", where);
        x.opType = getOr<std::string>(s, "type", "");
        x.count = get<std::uint64_t>(s, "count", where);
        x.totalNs = get<TimeNs>(s, "total_ns", where);
        x.baselineNs = get<TimeNs>(s, "baseline_ns", where);
        x.baselineFromSolo = getOr<bool>(s, "baseline_from_solo", false);
        x.baselineRule = getOr<std::string>(s, "baseline_rule", "");
        x.p50Ns = get<TimeNs>(s, "p50_ns", where);
        x.p95Ns = get<TimeNs>(s, "p95_ns", where);
        x.maxNs = get<TimeNs>(s, "max_ns", where);
        x.meanNs = getOr<double>(s, "mean_ns", 0.0);
        x.anomalies = get<std::uint32_t>(s, "anomalies", where);
        x.extraWaitNs = getOr<TimeNs>(s, "extra_wait_ns", 0);
        x.dominantCause = getResource(s, "dominant_cause", where);
        if (s.contains("breakdown")) x.breakdown = readBreakdown(s["breakdown"]);
        r.operators.push_back(std::move(x));
    }
    if (j.contains("types") && j["types"].is_array()) {
        for (const json& s : j["types"]) {
            TypeStats x;
            x.type = getOr<std::string>(s, "type", "");
            x.count = getOr<std::uint64_t>(s, "count", 0);
            x.totalNs = getOr<TimeNs>(s, "total_ns", 0);
            x.anomalies = getOr<std::uint32_t>(s, "anomalies", 0);
            x.extraWaitNs = getOr<TimeNs>(s, "extra_wait_ns", 0);
            Resource res = Resource::None;
            resourceFromName(getOr<std::string>(s, "dominant_cause", "none"), res);
            x.dominantCause = res;
            r.types.push_back(std::move(x));
        }
    }
    if (j.contains("iterations") && j["iterations"].is_array()) {
        for (const json& s : j["iterations"]) {
            IterationStats x;
            x.index = getOr<std::uint32_t>(s, "index", 0);
            x.start = getOr<TimeNs>(s, "start_ns", 0);
            x.end = getOr<TimeNs>(s, "end_ns", 0);
            x.anomalies = getOr<std::uint32_t>(s, "anomalies", 0);
            x.extraWaitNs = getOr<TimeNs>(s, "extra_wait_ns", 0);
            x.cut = getOr<bool>(s, "cut", false);
            x.criticalPathNs = optionalNsOf(s, "critical_path_ns");
            x.criticalTrack = getOr<std::string>(s, "critical_track", "");
            r.iterations.push_back(x);
        }
    }
    if (j.contains("threads") && j["threads"].is_array()) {
        for (const json& s : j["threads"]) {
            TrackStats x;
            x.track = getOr<std::uint32_t>(s, "track_index", 0);
            x.pid = s.contains("pid") ? getId(s, "pid", "threads") : "";
            x.tid = s.contains("tid") ? getId(s, "tid", "threads") : "";
            x.label = getOr<std::string>(s, "track", "");
            x.operators = getOr<std::uint64_t>(s, "operators", 0);
            x.busyNs = getOr<TimeNs>(s, "busy_ns", 0);
            x.anomalies = getOr<std::uint32_t>(s, "anomalies", 0);
            x.extraWaitNs = getOr<TimeNs>(s, "extra_wait_ns", 0);
            r.threads.push_back(std::move(x));
        }
    }
    if (j.contains("distributed")) {
        Result<ReportDistributed> d = distributedFromJson(j["distributed"]);
        if (!d) throw ReadError{d.failure().reason};
        r.distributed = std::move(d).value();
    }
    r.whatIf = readWhatIf(j);
    r.producer = producerFromJson(j);  // absent before 0.7.0
    return r;
}

}  // namespace

nlohmann::json idJson(const std::string& text) {
    if (text.empty() || text.size() > 18) return text;
    std::size_t k = text[0] == '-' ? 1 : 0;
    if (k == text.size()) return text;
    for (std::size_t i = k; i < text.size(); ++i)
        if (text[i] < '0' || text[i] > '9') return text;
    if (text.size() > k + 1 && text[k] == '0') return text;  // "007" is text
    return std::stoll(text);
}

json reportToJson(const Report& report, const Trace& trace) { return toJson(report, &trace); }
json reportToJson(const Report& report) { return toJson(report, nullptr); }

Result<Report> reportFromJson(const json& j) {
    try {
        return readReport(j);
    } catch (const ReadError& e) {
        return Failure::of(Failure::Kind::Malformed, e.what);
    } catch (const json::exception& e) {
        return Failure::of(Failure::Kind::Malformed, std::string("report: ") + e.what());
    }
}

}  // namespace contend
