#include "core/report/single/report_sections.h"

namespace contend {

using nlohmann::json;

nlohmann::json idJson(const std::string& text) {
    if (text.empty() || text.size() > 18) return text;
    std::size_t k = text[0] == '-' ? 1 : 0;
    if (k == text.size()) return text;
    for (std::size_t i = k; i < text.size(); ++i)
        if (text[i] < '0' || text[i] > '9') return text;
    if (text.size() > k + 1 && text[k] == '0') return text;  // "007" is text
    return std::stoll(text);
}

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

json breakdownJson(const Breakdown& b) {
    json j = {{"compute_ns", b.computeNs},
              {"data_wait_ns", b.dataWaitNs},
              {"queue_ns", b.queueNs},
              {"sync_ns", b.syncNs},
              {"measured", {{"data", b.measuredData}, {"queue", b.measuredQueue}, {"sync", b.measuredSync}}}};
    j["wait_before_ns"] = b.waitBeforeNs >= 0 ? json(b.waitBeforeNs) : json(nullptr);
    return j;
}

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
            {"pattern_wait_ns", r.summary.patternWaitNs},
            {"bottleneck",
             {{"resource", resourceName(r.summary.bottleneck)}, {"share", finite(r.summary.bottleneckShare)}}},
            {"extra_wait_by_resource", byRes}};
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
    j["critical_path_ns"] = optionalNs(s.criticalPathNs);
    j["critical_track"] = s.criticalTrack;
    return j;
}

json threadJson(const TrackStats& s) {
    return {{"track_index", s.track},   {"pid", idJson(s.pid)},          {"tid", idJson(s.tid)},
            {"track", s.label},         {"operators", s.operators},      {"busy_ns", s.busyNs},
            {"anomalies", s.anomalies}, {"extra_wait_ns", s.extraWaitNs}};
}

}  // namespace contend
