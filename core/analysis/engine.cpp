#include "core/analysis/engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/analysis/breakdown.h"
#include "core/analysis/clusters.h"
#include "core/analysis/summary.h"

namespace contend {

std::shared_ptr<const PreparedAnalysis> prepareAnalysis(TracePtr trace, const AnalysisSettings& s, std::string* error,
                                                        const std::function<bool()>& keepGoing) {
    auto stopped = [&] {
        if (!keepGoing || keepGoing()) return false;
        if (error) *error = "cancelled";
        return true;
    };
    const auto t0 = std::chrono::steady_clock::now();
    ResourceConfig config;
    if (!s.configPath.empty()) {
        auto c = loadResourceConfig(s.configPath, error);
        if (!c) return nullptr;
        config = std::move(*c);
    }
    std::shared_ptr<PreparedAnalysis> p(new PreparedAnalysis());
    p->m_trace = std::move(trace);
    p->m_settings = s;
    const Trace& t = *p->m_trace;

    p->m_ops = selectOperators(t);
    if (stopped()) return nullptr;
    const OperatorSet& ops = p->m_ops;
    p->m_overlap = findOverlaps(t, ops, keepGoing);
    if (stopped()) return nullptr;
    p->m_resources = mapResources(t, config);
    if (stopped()) return nullptr;
    p->m_timelines = buildTimelines(t, p->m_resources);
    if (stopped()) return nullptr;
    p->m_pressure = computePressure(t, ops, p->m_resources, p->m_timelines, p->m_overlap, keepGoing);
    if (stopped()) return nullptr;
    p->m_quiet = quietOccurrences(t, ops, p->m_overlap, p->m_pressure, p->m_timelines);
    if (stopped()) return nullptr;
    // Host scope (a trace without device operators): threads run side by side all the time, so
    // overlap says nothing about contention: plain medians, and no windows below. Host work is
    // far more variable than kernels (scheduling, page faults, Python): a 25% relative floor.
    BaselineSettings baseSettings;
    if (!ops.deviceScope) {
        baseSettings.preferSolo = false;
        baseSettings.splitModes = false;
        baseSettings.relativeFloor = 0.25;
    }
    const std::vector<TimeNs> soloEstimate =
        ops.deviceScope ? soloEstimates(t, ops, p->m_overlap, p->m_pressure, p->m_timelines) : std::vector<TimeNs>{};
    if (stopped()) return nullptr;
    p->m_base = computeBaselines(t, ops, p->m_quiet, baseSettings, soloEstimate);
    if (stopped()) return nullptr;
    p->m_causes = attributeCauses(t, ops, p->m_base, p->m_overlap, p->m_pressure, p->m_timelines);
    if (stopped()) return nullptr;
    p->m_breakdowns = computeBreakdowns(t, ops, p->m_base, p->m_pressure, p->m_causes);
    if (stopped()) return nullptr;
    if (ops.deviceScope)
        p->m_candidates = findWindowCandidates(t, ops, p->m_overlap, p->m_base, p->m_pressure, p->m_timelines,
                                               p->m_causes.cause, keepGoing);
    if (stopped()) return nullptr;
    ClusterSettings clusterSettings;
    clusterSettings.resolutionNs = ops.resolutionNs;
    p->m_clusters = findClusters(t, ops, clusterSettings);
    if (stopped()) return nullptr;
    for (Cluster& c : p->m_clusters) {
        const Track& tr = t.tracks()[c.track];
        c.pid = tr.pid;
        c.tid = tr.tid;
        c.trackLabel = tr.label();
    }
    p->m_iterations = findIterations(t);
    if (stopped()) return nullptr;
    p->m_iterationOfOp = iterationOfOps(t, ops, p->m_iterations);
    if (stopped()) return nullptr;
    p->m_signatureStats = baseSignatureStats(ops, p->m_base, p->m_breakdowns);
    if (stopped()) return nullptr;
    p->m_trackStats = baseTrackStats(t, ops);
    if (stopped()) return nullptr;
    p->m_trackLabels.reserve(t.tracks().size());
    for (const Track& tr : t.tracks()) p->m_trackLabels.push_back(tr.label());

    // Ops that can be anomalies (score > 0, slower than the baseline) by score, highest first:
    // an anomaly list is a prefix of this for any non-negative coefficient. The rest follow in
    // trace order, unsorted.
    const auto& score = p->m_base.score;
    p->m_byScore.resize(ops.size());
    std::iota(p->m_byScore.begin(), p->m_byScore.end(), 0u);
    const auto positive = std::stable_partition(p->m_byScore.begin(), p->m_byScore.end(), [&](std::uint32_t op) {
        return score[op] > 0.0f && p->m_base.excessNs[op] > 0;
    });
    std::sort(p->m_byScore.begin(), positive, [&](std::uint32_t a, std::uint32_t b) {
        return score[a] != score[b] ? score[a] > score[b] : a < b;
    });

    // Rows for every possible anomaly, in score order.
    for (std::uint32_t op : p->m_byScore) {
        if (!(score[op] > 0.0f) || p->m_base.excessNs[op] <= 0) break;
        const Resource cause = p->m_causes.cause[op] == Resource::None ? Resource::Unknown : p->m_causes.cause[op];
        p->m_anomalyRows.push_back({op, ops.slices[op], score[op], cause});
    }

    p->m_sliceScore.assign(t.slices().size(), std::numeric_limits<float>::quiet_NaN());
    p->m_sliceSignature.assign(t.slices().size(), kNone);
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        p->m_sliceScore[ops.slices[op]] = score[op];
        p->m_sliceSignature[ops.slices[op]] = ops.signatureOf[op];
    }

    ReportTraceInfo& info = p->m_traceInfo;
    info.path = t.source().folder.empty() ? t.source().path : t.source().folder;
    info.format = t.format();
    info.events = t.stats().events;
    info.operators = ops.size();
    info.tracks = t.tracks().size();
    info.spanNs = t.span();
    info.counters = p->m_resources.mappedLabels;
    info.scope = ops.deviceScope ? "device" : "host";

    p->m_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return p;
}

Report buildReport(const PreparedAnalysis& p, double coefficient, double overlapRatio) {
    const Trace& t = *p.m_trace;
    const OperatorSet& ops = p.m_ops;
    const auto& slices = t.slices();
    Report r;
    r.trace = p.m_traceInfo;
    r.settings = p.m_settings;
    r.settings.coefficient = coefficient;
    r.settings.overlapRatio = overlapRatio;
    r.sliceScore = p.m_sliceScore;
    r.sliceSignature = p.m_sliceSignature;
    r.sliceCause.assign(slices.size(), Resource::None);
    r.operators = p.m_signatureStats;
    r.iterations = p.m_iterations;
    r.threads = p.m_trackStats;
    r.clusters = p.m_clusters;

    // Windows first: anomalies list the windows they were in.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> membership;
    r.windows = buildWindows(p.m_candidates, overlapRatio, coefficient, ops, p.m_base, p.m_timelines, &membership);
    for (ContentionWindow& w : r.windows) {
        for (WindowOp& wop : w.ops) {
            const Slice& s = slices[wop.slice];
            const Track& tr = t.tracks()[s.track];
            wop.name = std::string(t.str(s.name));
            wop.pid = tr.pid;
            wop.tid = tr.tid;
            wop.startNs = s.start;
            wop.durNs = s.dur;
        }
    }

    // Anomalies: the prefix of ops-by-score above the coefficient. A signature seen once has
    // score 0 and never qualifies for a non-negative coefficient.
    const auto& rows = p.m_anomalyRows;
    std::size_t count = 0;
    if (coefficient >= 0) {
        // Rows are sorted by score, highest first: binary search for the cut.
        count = static_cast<std::size_t>(
            std::partition_point(rows.begin(), rows.end(),
                                 [&](const PreparedAnalysis::AnomalyRow& a) { return a.score > coefficient; }) -
            rows.begin());
    } else {
        count = rows.size();   // every op slower than its baseline
    }
    r.anomalies.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
        const PreparedAnalysis::AnomalyRow& row = rows[k];
        const std::uint32_t op = row.op;
        const Slice& s = slices[row.slice];
        const Track& tr = t.tracks()[s.track];
        const std::uint32_t sig = ops.signatureOf[op];
        Anomaly& a = r.anomalies[k];
        a.id = static_cast<std::uint32_t>(k);
        a.slice = row.slice;
        a.signature = sig;
        a.score = row.score;
        a.baselineNs = p.m_base.signatures[sig].baselineNs;
        a.excessNs = p.m_base.excessNs[op];
        a.cause = row.cause;
        a.breakdown = p.m_breakdowns[op];
        if (k < kEvidenceTop) a.evidence = describeCause(ops, op, p.m_base, p.m_overlap, p.m_pressure, p.m_causes, t);
        a.name = std::string(t.str(s.name));
        a.pid = tr.pid;
        a.tid = tr.tid;
        a.trackLabel = p.m_trackLabels[s.track];
        a.track = s.track;
        a.startNs = s.start;
        a.durNs = s.dur;
        auto it = std::lower_bound(membership.begin(), membership.end(), std::make_pair(op, 0u));
        for (; it != membership.end() && it->first == op; ++it) a.windows.push_back(it->second);
        r.sliceCause[a.slice] = a.cause;
    }
    summarise(r, t, ops, p.m_iterationOfOp);
    return r;
}

std::string describeOperator(const PreparedAnalysis& p, std::uint32_t slice) {
    if (slice >= p.m_ops.opOfSlice.size() || p.m_ops.opOfSlice[slice] == kNone) return {};
    const std::uint32_t op = p.m_ops.opOfSlice[slice];
    if (p.m_causes.cause[op] == Resource::None) return "not slower than its baseline";
    return describeCause(p.m_ops, op, p.m_base, p.m_overlap, p.m_pressure, p.m_causes, *p.m_trace);
}

Report analyze(TracePtr trace, const AnalysisSettings& s) {
    std::string error;
    auto p = prepareAnalysis(trace, s, &error);
    if (!p) {
        Report r;
        r.settings = s;
        if (trace) r.trace.path = trace->source().path;
        return r;
    }
    return buildReport(*p, s.coefficient, s.overlapRatio);
}

}  // namespace contend
