#pragma once
// The analysis engine in two stages, so a slider can re-threshold without recomputing:
//
//   prepareAnalysis  everything that does not depend on the anomaly coefficient or the overlap
//                    ratio: operators and signatures, the sweep-line overlaps, baselines and
//                    scores, counter-to-resource mapping and per-op pressure, causes,
//                    breakdowns, window candidates, clusters, iterations. O(n log n).
//   buildReport      thresholds those: anomalies (score > coefficient), windows (candidate
//                    ratio >= overlap ratio, chained in time), then the summaries. Linear in
//                    the anomalies and candidates; no pass over the trace.
//
// The GUI calls prepareAnalysis once on a worker thread, then buildReport on every slider move.
// PreparedAnalysis is immutable and may be shared between threads.
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/breakdowns/breakdowns.h"
#include "core/analysis/breakdowns/queue_length.h"
#include "core/analysis/findings/breakdown.h"
#include "core/analysis/findings/causes.h"
#include "core/analysis/findings/pattern_costs.h"
#include "core/analysis/findings/patterns.h"
#include "core/analysis/findings/windows.h"
#include "core/analysis/inputs/overlap.h"
#include "core/analysis/inputs/resource_timeline.h"
#include "core/analysis/inputs/signatures.h"
#include "core/analysis/model/report.h"
#include "core/analysis/model/resources.h"
#include "core/analysis/model/slice_view.h"
#include "core/analysis/scoring/baseline.h"
#include "core/analysis/scoring/character.h"
#include "core/analysis/scoring/exposure.h"
#include "core/analysis/scoring/pressure.h"
#include "core/analysis/whatif/depgraph.h"
#include "core/analysis/whatif/whatif.h"
#include "core/common/failure.h"
#include "core/trace/trace.h"

namespace contend {

// The stages of prepareAnalysis, in the order they run (a progress bar's words and fractions).
enum class PrepareStage : std::uint8_t {
    Overlaps,         // which operators ran beside which
    Counters,         // counters mapped to resources, their timelines
    Pressure,         // each operator's resource pressure
    Partners,         // the runs beside each partner against the runs without (exposure)
    Baselines,        // per-signature baselines and scores
    Causes,           // the starved resource of each slow operator
    Windows,          // breakdowns and the window candidates
    Clusters,         // tiny-operator clusters and their evidence
    DependencyGraph,  // the what-if's graph
    Ranking,          // the operators in score order, the anomaly rows
};
inline constexpr std::size_t kPrepareStages = 10;
// "finding overlaps", "reading counters", ... (lower case, for "Analysing contention: ...").
const char* prepareStageName(PrepareStage stage);
// The share of a preparation done when `stage` starts (0 for the first), by the stages' measured
// cost on a 10M-kernel trace; rising.
double prepareStageStart(PrepareStage stage);
// Told, on the preparing thread, as each stage starts.
using PrepareProgress = std::function<void(PrepareStage stage)>;

// Wall-clock milliseconds of one preparation, per stage: `operatorsMs` before the first stage
// (the config file, choosing the operators and their signatures), then each stage from its start
// to the next one's (the last to the end). contend-cli analyze --timings prints them.
struct PrepareTimes {
    double operatorsMs = 0;
    // Each stage's wall time on the findings' chain. The clusters and the dependency graph are
    // built on the second core beside it (with HTA's breakdowns and the collectives): their
    // stages are the chain's wait for that work, and besideMs its own wall time.
    std::array<double, kPrepareStages> stageMs{};
    double besideMs = 0;
    // Of the work beside, HTA's breakdowns (core/analysis/breakdowns), by part.
    BreakdownTimes htaBreakdowns;
    double totalMs() const;
};

class PreparedAnalysis : public std::enable_shared_from_this<PreparedAnalysis> {
  public:
    const Trace& trace() const { return *m_trace; }
    const TracePtr& tracePtr() const { return m_trace; }
    const AnalysisSettings& settings() const { return m_settings; }

    // The stage results, for views and tests.
    const OperatorSet& operators() const { return m_ops; }
    const OverlapResult& overlaps() const { return m_overlap; }
    const BaselineResult& baselines() const { return m_base; }
    const ResourceMap& resources() const { return m_resources; }
    // Every counter timeline, for views (heatmap, counter tracks).
    const ResourceTimelines& timelines() const { return m_timelines; }
    // The timelines that may speak for operators: those sampled finely enough (median spacing at
    // most kCoarseSampling times the 25th percentile of operator time); the others are empty here.
    const ResourceTimelines& analysisTimelines() const { return m_analysisTimelines; }
    const PressureResult& pressure() const { return m_pressure; }
    const std::vector<SignatureCharacter>& characters() const { return m_characters; }
    const ExposureResult& exposure() const { return m_exposure; }
    // Per op: in its signature's reference sample (exposure.h).
    const std::vector<std::uint8_t>& reference() const { return m_exposure.reference; }
    const std::vector<ReportNote>& notes() const { return m_notes; }
    const CauseResult& causes() const { return m_causes; }
    const PatternResult& patterns() const { return m_patterns; }
    // An operator's breakdown (breakdown.h: made when asked, none kept per operator).
    Breakdown breakdownOf(std::uint32_t op) const {
        return contend::breakdownOf(*m_trace, m_ops, m_base, m_pressure, m_causes, op);
    }
    const std::vector<WindowCandidate>& windowCandidates() const { return m_candidates; }
    const std::vector<Cluster>& clusters() const { return m_clusters; }
    // Ops with score > 0 that are slower than their baseline, highest score first; then the
    // rest in trace order.
    const std::vector<std::uint32_t>& opsByScore() const { return m_byScore; }
    double prepareSeconds() const { return m_seconds; }
    // Each stage's wall time (PrepareTimes).
    const PrepareTimes& prepareTimes() const { return m_times; }
    // The dependency graph of the device operators and the host calls that gate them, with its
    // observed critical paths and slack (depgraph.h); empty in host scope.
    const DependencyGraph& dependencyGraph() const { return *m_depGraph; }
    std::shared_ptr<const DependencyGraph> dependencyGraphPtr() const { return m_depGraph; }
    // Per op: its iteration (index into the report's iterations, kNone before the first step).
    const std::vector<std::uint32_t>& iterationOfOp() const { return m_iterationOfOp; }

    // The per-slice indexes views read (slice_view.h: score, signature, slack, the occurrences of
    // a signature), built once here and the same for every report built from this analysis; the
    // app hands it beside each report. Never null.
    const SliceViewPtr& sliceView() const { return m_sliceView; }
    // HTA's queue length per stream as the step series the report's breakdowns summarised
    // (breakdowns/queue_length.h), kept for the app's queue tracks; never null.
    const std::shared_ptr<const std::vector<breakdowns::QueueSeries>>& queueSeries() const { return m_queueSeries; }
    // The index in report.anomalies of the slice's anomaly, kNone when it is not one at the
    // report's coefficient. `report` must be one this analysis built (buildReport).
    std::uint32_t anomalyOfSlice(const Report& report, std::uint32_t slice) const;

  private:
    friend Result<std::shared_ptr<const PreparedAnalysis>> prepareAnalysis(TracePtr, const AnalysisSettings&,
                                                                           const std::function<bool()>&,
                                                                           const PrepareProgress&);
    friend Report buildReport(const PreparedAnalysis&, double, double);
    friend std::uint64_t reportBytes(const PreparedAnalysis&, double, double);
    friend std::string describeOperator(const PreparedAnalysis&, std::uint32_t);
    friend class PreparedAnomalySource;
    friend class PreparedWindows;
    PreparedAnalysis() = default;
    CauseInputs causeInputs() const {
        return {*m_trace,   m_ops,        m_base,       m_overlap, m_pressure, m_analysisTimelines,
                m_exposure, m_characters, &m_serialised};
    }

    TracePtr m_trace;
    AnalysisSettings m_settings;
    OperatorSet m_ops;
    OverlapResult m_overlap;
    BaselineResult m_base;
    ResourceMap m_resources;
    ResourceTimelines m_timelines;
    ResourceTimelines m_analysisTimelines;
    PressureResult m_pressure;
    std::vector<SignatureCharacter> m_characters;
    ExposureResult m_exposure;
    std::vector<ReportNote> m_notes;
    std::vector<FactorPhysics> m_physics;    // per exposure factor (patterns.h)
    std::vector<std::uint8_t> m_serialised;  // per exposure factor: m_physics[f].serialised
    CauseResult m_causes;
    PatternResult m_patterns;
    PatternCostIndex m_patternCosts;  // the patterns' costs by anomaly row; empty for one report
    std::vector<WindowCandidate> m_candidates;
    std::vector<Cluster> m_clusters;  // with names filled in
    std::vector<std::uint32_t> m_byScore;
    std::shared_ptr<const DependencyGraph> m_depGraph;
    std::vector<IterationStats> m_iterations;
    ReportDistributed m_distributed;    // rank and collectives (collectives.h)
    TraceBreakdowns m_traceBreakdowns;  // HTA's breakdowns (breakdowns/breakdowns.h)
    std::shared_ptr<const std::vector<breakdowns::QueueSeries>> m_queueSeries;  // their queue series
    std::vector<std::uint32_t> m_iterationOfOp;
    double m_besideMs = 0;                         // the work beside the chain (PrepareTimes::besideMs)
    BreakdownTimes m_htaTimes;                     // HTA's breakdowns by part (PrepareTimes::htaBreakdowns)
    std::vector<SignatureStats> m_signatureStats;  // threshold-independent rows
    std::vector<TrackStats> m_trackStats;          // threshold-independent rows
    std::vector<std::string> m_trackLabels;        // per track, Track::label()
    // Every op that can be an anomaly at a non-negative coefficient (score > 0 and slower than
    // its baseline), in m_byScore order. Each row carries the fields of its Anomaly that live in
    // per-op or per-slice arrays (anomaly_list.h), so a re-threshold reads them front to back
    // instead of gathering from arrays indexed by op (profiled at 1M operators: those gathers,
    // a cache miss each, were most of the re-threshold), and a report's anomalies are a view
    // over a prefix of them.
    std::vector<AnomalyRow> m_anomalyRows;
    // Per op: its index in m_anomalyRows, kNone when it can never be an anomaly; an op is an
    // anomaly of a report when its row index is below the report's anomaly count.
    std::vector<std::uint32_t> m_rowOfOp;
    // Evidence lines of the first kEvidenceTop rows: every report's anomalies are a prefix of
    // the rows, so their evidence is written once here instead of on every slider step.
    std::vector<std::string> m_rowEvidence;
    SliceViewPtr m_sliceView;
    ReportTraceInfo m_traceInfo;
    double m_seconds = 0;
    PrepareTimes m_times;
};

// Anomalies carry an evidence line for the kEvidenceTop highest scores (writing one for each of
// a hundred thousand anomalies at a low coefficient would cost more than the re-threshold);
// describeOperator gives it for any analysed slice, on demand.
inline constexpr std::size_t kEvidenceTop = 1000;
std::string describeOperator(const PreparedAnalysis& p, std::uint32_t slice);

// The prepared analysis (never null), or a Failure: the settings' config file cannot be read or
// parsed (its text names the file), the analysis would not fit s.memoryHeadroomBytes
// (OutOfMemory), or keepGoing (optional, asked between the stages and every 64k operators
// inside the long ones) returned false (Cancelled: the app's Cancel button). `progress`
// (optional) is told as each stage starts.
Result<std::shared_ptr<const PreparedAnalysis>> prepareAnalysis(TracePtr trace, const AnalysisSettings& s,
                                                                const std::function<bool()>& keepGoing = {},
                                                                const PrepareProgress& progress = {});
// What buildReport(p, coefficient, overlapRatio) will allocate, about (memory_estimate.h):
// the anomalies above the coefficient and the operators of the candidates that qualify.
std::uint64_t reportBytes(const PreparedAnalysis& p, double coefficient, double overlapRatio);
// Cheap re-threshold: 100k operators in a few milliseconds.
Report buildReport(const PreparedAnalysis& p, double coefficient, double overlapRatio);
// The what-if (whatif.h) on a prepared analysis: its trace, operators and dependency graph.
// Nullopt when done; a Cancelled Failure when settings.keepGoing stopped it. (Load, both stages
// and the what-if in one call: analyzeTrace, core/pipeline/analyze_trace.h.)
inline std::optional<Failure> predictGains(const PreparedAnalysis& p, Report& report,
                                           const WhatIfSettings& settings = {}) {
    return predictGains(p.trace(), p.operators(), p.dependencyGraph(), report, settings);
}

}  // namespace contend
