#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "core/common/json_fields.h"
#include "core/report/breakdowns/breakdowns_json.h"
#include "core/report/producer_json.h"
#include "core/report/ranks/distributed_json.h"
#include "core/report/single/report_json.h"
#include "core/report/single/report_json_v3.h"

// Reading a report back (reportFromJson): report_json.cpp writes it.
namespace contend {

using nlohmann::json;

namespace {

// --- reading ---------------------------------------------------------------------------------

using namespace jsonfields;

// pid/tid written as a number or a string.
std::string getId(const json& j, const char* key, const std::string& where) {
    const json& v = need(j, key, where);
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<long long>());
    throw JsonFieldError{where + ": \"" + key + "\" is neither a number nor a string"};
}

Resource getResource(const json& j, const char* key, const std::string& where) {
    Resource r;
    const auto s = get<std::string>(j, key, where);
    if (!resourceFromName(s, r)) throw JsonFieldError{where + ": unknown resource \"" + s + "\""};
    return r;
}

const json& needArray(const json& j, const char* key) { return jsonfields::needArray(j, key, "report"); }

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

// report/2's (and /1's) findings: arrays of objects.
void readFindingsV2(const json& j, Report& r) {
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
    // Contention patterns (since 0.8.0; absent from older reports).
    if (j.contains("patterns")) {
        i = 0;
        for (const json& p : needArray(j, "patterns")) {
            const std::string where = "patterns[" + std::to_string(i++) + "]";
            ContentionPattern x;
            x.id = get<std::uint32_t>(p, "id", where);
            x.signature = getOr<std::uint32_t>(p, "signature", 0);  // written since report/3's time
            x.victim = get<std::string>(p, "victim", where);
            x.partner = get<std::string>(p, "partner", where);
            x.factor = getOr<std::string>(p, "factor", "");
            x.runsBeside = get<std::uint32_t>(p, "runs_beside", where);
            x.runsApart = get<std::uint32_t>(p, "runs_apart", where);
            x.slowdown = get<double>(p, "slowdown", where);
            const json& ci = need(p, "slowdown_ci", where);
            if (!ci.is_array() || ci.size() != 2) throw JsonFieldError{where + ".slowdown_ci: expected [low, high]"};
            x.slowdownLow = ci[0].get<double>();
            x.slowdownHigh = ci[1].get<double>();
            x.pValue = get<double>(p, "p_value", where);
            x.costNs = get<TimeNs>(p, "cost_ns", where);
            x.countedCostNs = getOr<TimeNs>(p, "counted_cost_ns", x.costNs);
            x.unflaggedCostNs = getOr<TimeNs>(p, "unflagged_cost_ns", 0);
            const json& cause = need(p, "cause", where);
            x.cause = getResource(cause, "resource", where + ".cause");
            if (!provenanceFromName(getOr<std::string>(cause, "provenance", ""), x.provenance))
                x.provenance = Provenance::Unknown;
            x.evidence = getOr<std::string>(cause, "evidence", "");
            x.concurrency = getOr<std::uint32_t>(p, "concurrency", 0);
            x.lostShare = getOr<double>(p, "lost_share", -1.0);
            if (p.contains("runs") && p["runs"].is_array()) {
                for (const json& run : p["runs"]) {
                    PatternRun pr;
                    pr.slice = getOr<std::uint32_t>(run, "slice", 0);
                    pr.startNs = getOr<TimeNs>(run, "start_ns", 0);
                    pr.durNs = getOr<TimeNs>(run, "dur_ns", 0);
                    pr.excessNs = getOr<TimeNs>(run, "excess_ns", 0);
                    pr.counted = getOr<bool>(run, "counted", false);
                    x.runs.push_back(pr);
                }
            }
            r.patterns.push_back(std::move(x));
        }
    }
}

Report readReport(const json& j) {
    if (!j.is_object()) throw JsonFieldError{"report: not a JSON object"};
    const auto schema = getOr<std::string>(j, "schema", "");
    if (schema != kReportSchemaV4 && schema != kReportSchemaV3 && schema != kReportSchemaV2 &&
        schema != kReportSchemaV1)
        throw JsonFieldError{"report: schema is \"" + schema + "\", expected \"" + kReportSchemaV4 + "\" (or \"" +
                             kReportSchemaV3 + "\", \"" + kReportSchemaV2 + "\", \"" + kReportSchemaV1 + "\")"};
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
    r.summary.patternWaitNs = getOr<TimeNs>(sm, "pattern_wait_ns", 0);
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
    if (j.contains("notes") && j["notes"].is_array()) {
        for (const json& n : j["notes"]) {
            if (!n.is_object()) continue;
            r.notes.push_back({getOr<std::string>(n, "kind", ""), getOr<std::string>(n, "text", "")});
        }
    }
    std::size_t i = 0;
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
        if (!d) throw JsonFieldError{d.failure().reason};
        r.distributed = std::move(d).value();
    }
    if (j.contains("breakdowns")) {  // absent before the breakdowns
        Result<TraceBreakdowns> b = breakdownsFromJson(j["breakdowns"]);
        if (!b) throw JsonFieldError{b.failure().reason};
        r.breakdowns = std::move(b).value();
    }
    // The findings last: report/3 and /4 take what they leave out from the operators and threads.
    if (schema == kReportSchemaV4 || schema == kReportSchemaV3)
        readFindingsV3(j, r, schema == kReportSchemaV4 ? 4 : 3);
    else
        readFindingsV2(j, r);
    r.whatIf = readWhatIf(j);
    r.producer = producerFromJson(j);  // absent before 0.7.0
    return r;
}

}  // namespace

Result<Report> reportFromJson(const json& j) {
    try {
        return readReport(j);
    } catch (const JsonFieldError& e) {
        return Failure::of(Failure::Kind::Malformed, e.what);
    } catch (const json::exception& e) {
        return Failure::of(Failure::Kind::Malformed, std::string("report: ") + e.what());
    }
}

}  // namespace contend
