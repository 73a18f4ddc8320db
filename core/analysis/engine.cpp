#include "core/analysis/engine.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>

#include "core/analysis/breakdowns/breakdowns.h"
#include "core/analysis/findings/input_notes.h"
#include "core/analysis/findings/notes.h"
#include "core/analysis/findings/patterns.h"
#include "core/analysis/findings/summary.h"
#include "core/analysis/findings/sync_clusters.h"
#include "core/analysis/inputs/memory_estimate.h"
#include "core/analysis/ranks/collectives.h"
#include "core/analysis/whatif/whatif.h"
#include "core/common/parallel.h"
#include "core/trace/conventions.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

// The timelines that may speak for operators: a counter sampled more than kCoarseSampling times
// the 25th-percentile operator duration apart averages over many operators, so it neither drives
// nor vetoes their verdicts (it stays in the views). `coarse` gets one line per dropped series.
// The percentile is of operator time (the duration below which a quarter of the device's
// operator time lies), not of operator count: a run of 3 us element-wise kernels between
// 100 us convolutions does not make 10 kHz GPU metrics useless for the convolutions. Each
// operator's own check (pressure.h, kCoarseSampling) still keeps a counter from speaking for
// an operator it does not resolve.
ResourceTimelines resolvingTimelines(const Trace& t, const OperatorSet& ops, const ResourceTimelines& all,
                                     std::vector<std::string>* coarse) {
    ResourceTimelines out = all;
    if (ops.size() == 0) return out;
    // No timeline to judge (no counters): the percentile below sorts every duration for nothing.
    if (std::ranges::all_of(all.pressure, [](const ResourceTimeline& tl) { return tl.empty(); })) return out;
    std::vector<TimeNs> durs;
    durs.reserve(ops.size());
    for (std::uint32_t sl : ops.slices) durs.push_back(t.slices()[sl].dur);
    std::sort(durs.begin(), durs.end());
    long double total = 0;
    for (TimeNs d : durs) total += static_cast<long double>(std::max<TimeNs>(0, d));
    TimeNs q25 = durs.empty() ? 0 : durs.back();
    long double below = 0;
    for (TimeNs d : durs) {
        below += static_cast<long double>(std::max<TimeNs>(0, d));
        if (below >= 0.25L * total) {
            q25 = d;
            break;
        }
    }
    for (std::size_t p = 0; p < kPressureResources; ++p) {
        const ResourceTimeline& tl = all.pressure[p];
        if (tl.empty() || static_cast<double>(tl.medianSpacing()) <= kCoarseSampling * static_cast<double>(q25))
            continue;
        out.pressure[p] = ResourceTimeline();
        if (coarse)
            coarse->push_back(std::string(resourceName(kPressureResource[p])) + " sampled every " +
                              formatDuration(tl.medianSpacing()) +
                              " (25th percentile of operator time: " + formatDuration(q25) + ")");
    }
    return out;
}

}  // namespace

const char* prepareStageName(PrepareStage stage) {
    switch (stage) {
    case PrepareStage::Overlaps: return "finding overlaps";
    case PrepareStage::Counters: return "reading counters";
    case PrepareStage::Pressure: return "measuring pressure";
    case PrepareStage::Partners: return "testing partners";
    case PrepareStage::Baselines: return "computing baselines";
    case PrepareStage::Causes: return "attributing causes";
    case PrepareStage::Windows: return "pairing windows";
    case PrepareStage::Clusters: return "finding clusters";
    case PrepareStage::DependencyGraph: return "building the dependency graph";
    case PrepareStage::Ranking: return "ranking";
    }
    return "analysing";
}

double PrepareTimes::totalMs() const {
    double sum = operatorsMs;
    for (double ms : stageMs) sum += ms;
    return sum;
}

double prepareStageStart(PrepareStage stage) {
    // Wall time of each stage on the 1M-kernel Kineto-shaped trace (contend-cli analyze
    // --timings), as shares of the whole: overlaps 470 ms, counters 90, pressure 40, partners
    // 800, baselines 30, causes 950, windows (with the patterns beside) 640, clusters and graph
    // (built beside the chain: the wait for them) ~0, ranking 100.
    static constexpr std::array<double, kPrepareStages> kStart{0.0,  0.15, 0.18,  0.19, 0.45,
                                                               0.46, 0.76, 0.955, 0.96, 0.965};
    return kStart[static_cast<std::size_t>(stage)];
}

Result<std::shared_ptr<const PreparedAnalysis>> prepareAnalysis(TracePtr trace, const AnalysisSettings& s,
                                                                const std::function<bool()>& keepGoing,
                                                                const PrepareProgress& progress) {
    auto stopped = [&] { return keepGoing && !keepGoing(); };
    const auto t0 = std::chrono::steady_clock::now();
    // Each stage's wall time: a stage ends where the next one starts (the last at the end).
    PrepareTimes times;
    auto lap = t0;
    double* running = &times.operatorsMs;
    auto endLap = [&] {
        const auto now = std::chrono::steady_clock::now();
        *running = std::chrono::duration<double, std::milli>(now - lap).count();
        lap = now;
    };
    auto starting = [&](PrepareStage stage) {
        endLap();
        running = &times.stageMs[static_cast<std::size_t>(stage)];
        if (progress) progress(stage);
    };
    ResourceConfig config;
    if (!s.configPath.empty()) {
        Result<ResourceConfig> c = loadResourceConfig(s.configPath);
        if (!c) return c.failure();  // Unreadable or Malformed, naming the config file
        config = std::move(c).value();
    }
    std::shared_ptr<PreparedAnalysis> p(new PreparedAnalysis());
    p->m_trace = std::move(trace);
    p->m_settings = s;
    const Trace& t = *p->m_trace;

    p->m_ops = selectOperators(t);
    if (stopped()) return Failure::cancelled();
    const OperatorSet& ops = p->m_ops;
    // Weighed twice: on the operators alone, then once the sweep has counted the pairs (the
    // stages after it hold a few words per pair).
    auto tooBig = [&](std::size_t pairs) -> std::optional<Failure> {
        const std::uint64_t need = prepareBytesEstimate(ops.size(), t.slices().size(), pairs);
        if (s.memoryHeadroomBytes == 0 || need <= s.memoryHeadroomBytes) return std::nullopt;
        return Failure::of(
            Failure::Kind::OutOfMemory,
            analysisMemoryMessage("analysing this trace (" + formatCount(ops.size()) + " operators" +
                                      (pairs ? ", " + formatCount(pairs) + " overlap pairs)" : std::string(")")),
                                  need, s.memoryHeadroomBytes));
    };
    if (auto f = tooBig(0)) return *f;
    // The steps first: the baselines leave the cut ones out and the graph is built over them
    // (notes.h).
    p->m_iterations = findIterations(t);
    p->m_iterationOfOp = iterationOfOps(t, ops, p->m_iterations);
    const std::vector<std::uint32_t> cut = cutIterations(ops, p->m_iterations, p->m_iterationOfOp);
    for (std::uint32_t it : cut) p->m_iterations[it].cut = true;
    // What needs only the trace, the operators and the steps runs on the second core beside the
    // findings' chain (overlaps .. windows), and is joined before the ranking reads it: the
    // collectives, HTA's breakdowns, the sync clusters, the dependency graph and the tracks'
    // rows. Each writes only its own members; the chain only reads the steps meanwhile.
    PreparedAnalysis* const pa = p.get();
    SideTask beside([pa, &t, &ops](const std::function<bool()>& going) {
        const auto b0 = std::chrono::steady_clock::now();
        pa->m_distributed = findCollectives(t, pa->m_iterations);
        // HTA's breakdowns (core/analysis/breakdowns): from the trace alone, whatever the
        // thresholds.
        auto series = std::make_shared<std::vector<breakdowns::QueueSeries>>();
        pa->m_traceBreakdowns = computeBreakdowns(t, *series, &pa->m_htaTimes);
        pa->m_queueSeries = std::move(series);
        if (!going()) return;
        SyncClusterSettings clusterSettings;
        clusterSettings.resolutionNs = ops.resolutionNs;
        pa->m_clusters = findClusters(t, ops, clusterSettings);
        if (!going()) return;
        judgeClusterEvidence(t, ops, pa->m_clusters);
        for (Cluster& c : pa->m_clusters) {
            const Track& tr = t.tracks()[c.track];
            c.pid = tr.pid;
            c.tid = tr.tid;
            c.trackLabel = tr.label();
        }
        pa->m_depGraph = buildDependencyGraph(t, ops, pa->m_iterations, pa->m_iterationOfOp, going);
        if (!going()) return;
        pa->m_trackStats = baseTrackStats(t, ops);
        pa->m_trackLabels.reserve(t.tracks().size());
        for (const Track& tr : t.tracks()) pa->m_trackLabels.push_back(tr.label());
        pa->m_besideMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - b0).count();
    });
    starting(PrepareStage::Overlaps);
    p->m_overlap = findOverlaps(t, ops, keepGoing);
    if (stopped()) return Failure::cancelled();
    if (auto f = tooBig(p->m_overlap.pairCount())) return *f;
    starting(PrepareStage::Counters);
    p->m_resources = mapResources(t, config);
    if (stopped()) return Failure::cancelled();
    p->m_timelines = buildTimelines(t, p->m_resources);
    if (stopped()) return Failure::cancelled();
    std::vector<std::string> coarse;
    p->m_analysisTimelines = resolvingTimelines(t, ops, p->m_timelines, &coarse);
    const ResourceTimelines& tls = p->m_analysisTimelines;
    starting(PrepareStage::Pressure);
    p->m_pressure = computePressure(t, ops, p->m_resources, tls, p->m_overlap, keepGoing);
    if (stopped()) return Failure::cancelled();
    p->m_characters = signatureCharacters(t, ops, p->m_pressure);
    starting(PrepareStage::Partners);
    p->m_exposure = findExposures(t, ops, p->m_overlap, p->m_characters, p->m_pressure, tls, keepGoing);
    if (stopped()) return Failure::cancelled();
    // Host scope (a trace without device operators): threads run side by side all the time and a
    // host function's time depends on what it calls, so nothing is judged (baseline.h, "host").
    starting(PrepareStage::Baselines);
    BaselineSettings baseSettings;
    baseSettings.host = !ops.deviceScope;
    const std::vector<TimeNs> soloEstimate =
        ops.deviceScope ? soloEstimates(t, ops, p->m_overlap, p->m_pressure, tls) : std::vector<TimeNs>{};
    if (stopped()) return Failure::cancelled();
    // Operators that overlap another on their own stream are kept out too (input_notes.h):
    // their times cannot be right.
    std::vector<std::uint8_t> inBaseline(ops.size(), 1);
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        const std::uint32_t it = p->m_iterationOfOp[op];
        if (it != kNone && std::find(cut.begin(), cut.end(), it) != cut.end()) inBaseline[op] = 0;
        if (t.slices()[ops.slices[op]].is(kSliceOverlap)) inBaseline[op] = 0;
    }
    std::vector<std::uint8_t> contrasted(ops.signatures.size(), 0);
    for (std::size_t sig = 0; sig < contrasted.size(); ++sig)
        contrasted[sig] = p->m_exposure.signatures[sig].significant > 0;
    p->m_base = computeBaselines(t, ops, p->m_exposure.reference, contrasted, baseSettings, soloEstimate, inBaseline);
    if (stopped()) return Failure::cancelled();
    // Ops that can be anomalies (score > 0, slower than the baseline) by score, highest first:
    // an anomaly list is a prefix of this for any non-negative coefficient. The rest follow in
    // trace order, unsorted. Needs the baselines only: sorted on the second core beside the
    // causes and the windows, joined for the ranking.
    std::size_t positiveCount = 0;
    SideTask byScore(
        [pa, &positiveCount](const std::function<bool()>&) { pa->m_byScore = opsByScore(pa->m_base, positiveCount); });
    starting(PrepareStage::Causes);
    const CauseInputs in = p->causeInputs();
    p->m_physics = judgeSerialisation(in);
    p->m_serialised.resize(p->m_physics.size());
    for (std::size_t f = 0; f < p->m_physics.size(); ++f) p->m_serialised[f] = p->m_physics[f].serialised ? 1 : 0;
    p->m_causes = attributeCauses(in, keepGoing);
    if (stopped()) return Failure::cancelled();
    // The patterns on the second core beside the breakdowns and the windows' candidates (each
    // reads the causes, none the others' results): their time is the windows' stage. The
    // candidates' sweep is shared: this core sweeps it from the front after the breakdowns, the
    // second from the back once the patterns are done (either alone left the other idle).
    starting(PrepareStage::Windows);
    std::optional<CandidateSweep> sweep;
    if (ops.deviceScope) sweep.emplace(in, p->m_causes, s.lowestCoefficient);
    std::atomic<bool> sideStop{false};
    std::vector<Breakdown> sigBreakdowns;
    runBeside(
        [&] {
            p->m_patterns = findPatterns(in, p->m_causes, p->m_physics);
            if (sweep) sweep->sweepBack([&] { return sideStop.load(std::memory_order_relaxed); });
        },
        [&] {
            sigBreakdowns = signatureBreakdowns(t, ops, p->m_base, p->m_pressure, p->m_causes);
            if (sweep && (stopped() || !sweep->sweepFront(stopped))) sideStop = true;
        });
    if (stopped()) return Failure::cancelled();
    if (sweep && !sweep->take(p->m_candidates, stopped)) return Failure::cancelled();
    // The clusters and the graph were built beside the chain: these two stages wait for them.
    starting(PrepareStage::Clusters);
    starting(PrepareStage::DependencyGraph);
    beside.join();
    if (stopped()) return Failure::cancelled();
    starting(PrepareStage::Ranking);
    p->m_signatureStats = baseSignatureStats(ops, p->m_base, sigBreakdowns);
    if (stopped()) return Failure::cancelled();

    byScore.join();
    const auto& score = p->m_base.score;
    if (stopped()) return Failure::cancelled();

    // Rows for every possible anomaly, in score order (asking for a cancel every 64k rows: this
    // is seconds with millions of them), beside the views' per-slice indexes on the second core
    // (each writes only its own members).
    bool rowsStopped = false;
    auto rows = [&] {
        p->m_rowOfOp.assign(ops.size(), kNone);
        const auto reported = std::partition_point(
            p->m_byScore.begin(), p->m_byScore.begin() + static_cast<std::ptrdiff_t>(positiveCount),
            [&](std::uint32_t op) { return static_cast<double>(score[op]) > s.lowestCoefficient; });
        p->m_anomalyRows.reserve(static_cast<std::size_t>(reported - p->m_byScore.begin()));
        // The ops that can be anomalies (byScore's first positiveCount) above the lowest
        // coefficient reported.
        for (auto it = p->m_byScore.begin(); it != reported; ++it) {
            const std::uint32_t op = *it;
            if ((p->m_anomalyRows.size() & 0xFFFFu) == 0xFFFFu && stopped()) {
                rowsStopped = true;
                return;
            }
            AnomalyRow row;
            row.op = op;
            row.slice = ops.slices[op];
            const Slice& sl = t.slices()[row.slice];
            row.signature = ops.signatureOf[op];
            row.track = sl.track;
            row.name = sl.name;
            row.iteration = p->m_iterationOfOp[op];
            row.cause = p->m_causes.cause[op] == Resource::None ? Resource::Unknown : p->m_causes.cause[op];
            row.provenance = p->m_causes.provenance[op];
            row.score = score[op];
            row.baselineNs = p->m_base.signatures[row.signature].baselineNs;
            row.excessNs = p->m_base.excessNs[op];
            row.startNs = sl.start;
            row.durNs = sl.dur;
            row.breakdown = breakdownOf(t, ops, p->m_base, p->m_pressure, p->m_causes, op);
            p->m_rowOfOp[op] = static_cast<std::uint32_t>(p->m_anomalyRows.size());
            p->m_anomalyRows.push_back(row);
        }
        const std::size_t withEvidence = std::min(p->m_anomalyRows.size(), kEvidenceTop);
        p->m_rowEvidence.reserve(withEvidence);
        for (std::size_t k = 0; k < withEvidence; ++k)
            p->m_rowEvidence.push_back(describeCause(in, p->m_causes, p->m_anomalyRows[k].op));
    };
    auto views = [&] {
        // The views' per-slice indexes, once per trace (slice_view.h). The slack is the
        // dependency graph's (built above), -1 for the slices not in it; none without a graph.
        std::vector<float> sliceScore(t.slices().size(), std::numeric_limits<float>::quiet_NaN());
        std::vector<std::uint32_t> sliceSignature(t.slices().size(), kNone);
        for (std::uint32_t op = 0; op < ops.size(); ++op) {
            sliceScore[ops.slices[op]] = score[op];
            sliceSignature[ops.slices[op]] = ops.signatureOf[op];
        }
        const DependencyGraph& g = *p->m_depGraph;
        std::vector<TimeNs> sliceSlack;
        if (g.size() > 0) {
            sliceSlack.assign(t.slices().size(), -1);
            for (std::uint32_t v = 0; v < g.size(); ++v) sliceSlack[g.slice[v]] = g.slack[v];
        }
        p->m_sliceView = std::make_shared<const SliceView>(makeSliceView(
            std::move(sliceScore), std::move(sliceSignature), std::move(sliceSlack), ops.signatures.size()));
    };
    if (twoCores()) {
        runBeside(views, rows);
    } else {
        rows();
        views();
    }
    if (rowsStopped) return Failure::cancelled();
    // Each pattern run's anomaly row: a report flags the runs whose row is below its count.
    for (ContentionPattern& pat : p->m_patterns.patterns)
        for (PatternRun& run : pat.runs) {
            const std::uint32_t op = run.slice < ops.opOfSlice.size() ? ops.opOfSlice[run.slice] : kNone;
            run.row = op != kNone ? p->m_rowOfOp[op] : kNone;
        }
    // The slider's summaries read the patterns' costs by row (pattern_costs.h); a caller that
    // reports once (a lowest coefficient set) walks the runs once instead.
    if (!(s.lowestCoefficient > -std::numeric_limits<double>::infinity()))
        p->m_patternCosts = indexPatternCosts(p->m_patterns.patterns, p->m_iterations, t);

    ReportTraceInfo& info = p->m_traceInfo;
    info.path = t.source().folder.empty() ? t.source().path : t.source().folder;
    info.format = formatName(t.traceFormat());
    info.events = t.stats().events;
    info.operators = ops.size();
    info.tracks = t.tracks().size();
    info.spanNs = t.span();
    info.counters = p->m_resources.mappedLabels;
    info.scope = ops.deviceScope ? "device" : "host";
    p->m_notes = inputNotes({t, ops, p->m_iterations, cut, p->m_distributed.collectives.size()});
    for (ReportNote& n : dataNotes({t, ops, p->m_base, p->m_exposure, p->m_timelines, p->m_analysisTimelines, coarse,
                                    p->m_iterations, p->m_iterationOfOp, cut}))
        p->m_notes.push_back(std::move(n));
    for (ReportNote& n : dependencyNotes(*p->m_depGraph)) p->m_notes.push_back(std::move(n));

    endLap();
    times.besideMs = p->m_besideMs;
    times.htaBreakdowns = p->m_htaTimes;
    p->m_times = times;
    p->m_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::shared_ptr<const PreparedAnalysis>(std::move(p));
}

// Builds a report's anomalies from the prepared rows, on demand (anomaly_list.h); holds the
// prepared analysis, and so the rows, alive as long as a report reads them.
class PreparedAnomalySource : public AnomalySource {
  public:
    explicit PreparedAnomalySource(std::shared_ptr<const PreparedAnalysis> p) : m_p(std::move(p)) {}
    void fill(std::size_t k, Anomaly& a) const override {
        const PreparedAnalysis& p = *m_p;
        const Trace& t = *p.m_trace;
        const AnomalyRow& row = p.m_anomalyRows[k];
        const Track& tr = t.tracks()[row.track];
        a.id = static_cast<std::uint32_t>(k);
        a.slice = row.slice;
        a.signature = row.signature;
        a.score = row.score;
        a.baselineNs = row.baselineNs;
        a.excessNs = row.excessNs;
        a.cause = row.cause;
        a.provenance = row.provenance;
        a.breakdown = row.breakdown;
        a.evidence = k < p.m_rowEvidence.size() ? p.m_rowEvidence[k] : std::string();
        a.name = std::string(t.str(row.name));
        a.pid = tr.pid;
        a.tid = tr.tid;
        a.trackLabel = p.m_trackLabels[row.track];
        a.track = row.track;
        a.startNs = row.startNs;
        a.durNs = row.durNs;
    }
    AnomalyText text(std::size_t k) const override {
        const PreparedAnalysis& p = *m_p;
        const Trace& t = *p.m_trace;
        const AnomalyRow& row = p.m_anomalyRows[k];
        const Track& tr = t.tracks()[row.track];
        return {t.str(row.name), tr.pid, tr.tid, p.m_trackLabels[row.track],
                k < p.m_rowEvidence.size() ? std::string_view(p.m_rowEvidence[k]) : std::string_view()};
    }

  private:
    std::shared_ptr<const PreparedAnalysis> m_p;
};

// Builds a report's full windows (their operators, with names and times, each operator's share
// of its excess, the evidence of the costliest) and the anomalies' memberships, once, on first
// read (window_list.h); holds the prepared analysis alive as long as a report reads them.
class PreparedWindows : public WindowSource, public WindowMembership {
  public:
    PreparedWindows(std::shared_ptr<const PreparedAnalysis> p, double coefficient, double overlapRatio,
                    std::size_t anomalies)
        : m_p(std::move(p)), m_coefficient(coefficient), m_overlapRatio(overlapRatio), m_anomalies(anomalies) {}
    const std::vector<ContentionWindow>& windows() const override {
        std::call_once(m_once, [this] { build(); });
        return m_windows;
    }
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& windowsOf() const override {
        std::call_once(m_once, [this] { build(); });
        return m_windowsOf;
    }
    bool built() const override { return m_built.load(std::memory_order_acquire); }
    // Moved out to the one list reading them (window_list.h); the anomalies' memberships stay.
    std::vector<ContentionWindow> take() const override {
        std::call_once(m_once, [this] { build(); });
        return std::move(m_windows);
    }

  private:
    void build() const;

    std::shared_ptr<const PreparedAnalysis> m_p;
    double m_coefficient;
    double m_overlapRatio;
    std::size_t m_anomalies;
    mutable std::once_flag m_once;
    mutable std::atomic<bool> m_built{false};
    mutable std::vector<ContentionWindow> m_windows;
    mutable std::vector<std::pair<std::uint32_t, std::uint32_t>> m_windowsOf;
};

void PreparedWindows::build() const {
    const PreparedAnalysis& p = *m_p;
    const Trace& t = *p.m_trace;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> membership;
    m_windows = buildWindows(p.m_candidates, m_overlapRatio, m_coefficient, p.m_ops, p.m_base, p.m_causes.cause,
                             p.m_analysisTimelines, &membership);
    const CauseInputs in = p.causeInputs();
    nameWindowOps(t, m_windows);
    // Evidence for the windows that cost the most (each window's own words would cost more than
    // building them for hundreds of thousands of them).
    {
        std::vector<std::size_t> byCost(m_windows.size());
        std::iota(byCost.begin(), byCost.end(), std::size_t{0});
        std::vector<TimeNs> costs(m_windows.size(), 0);
        for (std::size_t w = 0; w < costs.size(); ++w)
            for (const WindowOp& o : m_windows[w].ops) costs[w] += o.extraWaitNs;
        const std::size_t top = std::min(byCost.size(), kEvidenceTop);
        std::partial_sort(
            byCost.begin(), byCost.begin() + static_cast<std::ptrdiff_t>(top), byCost.end(),
            [&](std::size_t x, std::size_t y) { return costs[x] != costs[y] ? costs[x] > costs[y] : x < y; });
        for (std::size_t k = 0; k < top; ++k)
            m_windows[byCost[k]].evidence = windowEvidence(in, p.m_causes, m_windows[byCost[k]]);
    }
    // The windows each anomaly was in (membership is in window order: a counting sort by anomaly,
    // stable, keeps each one's ids ascending).
    const std::size_t count = m_anomalies;
    std::vector<std::uint32_t> first(membership.empty() ? 0 : count + 1, 0);
    std::size_t n = 0;
    for (const auto& m : membership) {
        const std::uint32_t k = p.m_rowOfOp[m.first];
        if (k != kNone && k < count) ++first[k + 1], ++n;
    }
    for (std::size_t k = 1; k < first.size(); ++k) first[k] += first[k - 1];
    m_windowsOf.resize(n);
    for (const auto& [op, wid] : membership) {
        const std::uint32_t k = p.m_rowOfOp[op];
        if (k != kNone && k < count) m_windowsOf[first[k]++] = {k, wid};
    }
    m_built.store(true, std::memory_order_release);
}

std::uint32_t PreparedAnalysis::anomalyOfSlice(const Report& report, std::uint32_t slice) const {
    if (slice >= m_ops.opOfSlice.size()) return kNone;
    const std::uint32_t op = m_ops.opOfSlice[slice];
    if (op == kNone) return kNone;
    // A report's anomalies are the first rows (m_anomalyRows order): the row is the index.
    const std::uint32_t row = m_rowOfOp[op];
    return row != kNone && row < report.anomalies.size() ? row : kNone;
}

// Below this many anomalies, pattern runs and window candidates a report is built on one core.
constexpr std::size_t kSplitReport = 100000;

Report buildReport(const PreparedAnalysis& p, double coefficient, double overlapRatio) {
    const Trace& t = *p.m_trace;
    Report r;
    r.trace = p.m_traceInfo;
    r.settings = p.m_settings;
    r.settings.coefficient = coefficient;
    r.settings.overlapRatio = overlapRatio;
    r.operators = p.m_signatureStats;
    r.iterations = p.m_iterations;
    r.distributed = p.m_distributed;
    r.breakdowns = p.m_traceBreakdowns;
    r.threads = p.m_trackStats;
    r.notes = p.m_notes;

    // Anomalies: the prefix of ops-by-score above the coefficient. A signature seen once has
    // score 0 and never qualifies for a non-negative coefficient.
    const auto& rows = p.m_anomalyRows;
    std::size_t count = 0;
    if (coefficient >= 0) {
        // Rows are sorted by score, highest first: binary search for the cut.
        count = static_cast<std::size_t>(
            std::partition_point(rows.begin(), rows.end(), [&](const AnomalyRow& a) { return a.score > coefficient; }) -
            rows.begin());
    } else {
        count = rows.size();  // every op slower than its baseline
    }
    // The patterns are copied without their runs (shared, report.h), each told which runs are
    // anomalies at this coefficient; the summary adds the cost of those that are not (each run
    // counted in one pattern; an anomaly's excess is counted as the anomaly's). The anomalies
    // are a view over the first `count` rows (anomaly_list.h): built when read.
    r.clusters = p.m_clusters;
    r.patterns = p.m_patterns.patterns;
    for (ContentionPattern& pat : r.patterns) pat.flaggedRows = static_cast<std::uint32_t>(count);
    auto windows = std::make_shared<PreparedWindows>(p.shared_from_this(), coefficient, overlapRatio, count);
    r.anomalies = AnomalyList(std::make_shared<PreparedAnomalySource>(p.shared_from_this()), rows.data(), count,
                              std::shared_ptr<const WindowMembership>(windows));
    // The windows' compact rows (one pass over the candidates; their operators, evidence and
    // the anomalies' memberships are built when first read, window_list.h) beside the summary
    // (a pass over the anomalies and one over the patterns' runs), on the two cores when large:
    // each writes nothing the other reads. A slider step at 1M contended kernels: 10-14 ms and
    // 25 ms of its 45 one after the other.
    auto tracks = std::make_shared<WindowTracks>();
    std::vector<WindowRow> compact;
    auto windowPass = [&] {
        compact = windowRows(p.m_candidates, overlapRatio, coefficient, tracks.get(), &p.m_ops, &t);
    };
    auto summaryPass = [&] {
        std::vector<std::uint32_t> iterationOfAnomaly(count);
        for (std::size_t k = 0; k < count; ++k) iterationOfAnomaly[k] = rows[k].iteration;
        summarise(r, t, iterationOfAnomaly, p.m_patternCosts.first.empty() ? nullptr : &p.m_patternCosts);
    };
    std::size_t runs = 0;
    for (const ContentionPattern& pat : r.patterns) runs += pat.runs.size();
    if (twoCores() && count + runs + p.m_candidates.size() > kSplitReport) {
        runBeside(windowPass, summaryPass);
    } else {
        windowPass();
        summaryPass();
    }
    r.windows = WindowList(windows, std::move(compact), std::move(tracks));
    r.summary.windows = r.windows.size();
    return r;
}

std::uint64_t reportBytes(const PreparedAnalysis& p, double coefficient, double overlapRatio) {
    const auto& rows = p.m_anomalyRows;
    const std::size_t anomalies =
        coefficient >= 0 ? static_cast<std::size_t>(
                               std::partition_point(rows.begin(), rows.end(),
                                                    [&](const AnomalyRow& a) { return a.score > coefficient; }) -
                               rows.begin())
                         : rows.size();
    const float threshold = static_cast<float>(overlapRatio) - 1e-6f;
    std::size_t windowOps = 0;
    for (const WindowCandidate& c : p.m_candidates)
        if (c.ratio >= threshold && static_cast<double>(c.payerScore) > coefficient) windowOps += 2;
    return reportBytesEstimate(anomalies, windowOps);
}

std::string describeOperator(const PreparedAnalysis& p, std::uint32_t slice) {
    if (slice >= p.m_ops.opOfSlice.size() || p.m_ops.opOfSlice[slice] == kNone) return {};
    const std::uint32_t op = p.m_ops.opOfSlice[slice];
    if (p.m_causes.cause[op] == Resource::None) return "not slower than its baseline";
    return describeCause(p.causeInputs(), p.m_causes, op);
}

}  // namespace contend
