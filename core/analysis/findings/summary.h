#pragma once
// The network-level views of a report: per signature, per operator type, per iteration
// (ProfilerStep#N), per track, and the whole-trace summary naming the dominant bottleneck.
#include <cstdint>
#include <vector>

#include "core/analysis/findings/pattern_costs.h"
#include "core/analysis/inputs/signatures.h"
#include "core/analysis/model/report.h"
#include "core/analysis/scoring/baseline.h"

namespace contend {

// Iterations from the step markers (kSliceStep, "ProfilerStep#N"), by start; one per N even
// when several threads mark the step. Empty when the trace has none.
std::vector<IterationStats> findIterations(const Trace& trace);

// Per op: the iteration it belongs to (index into `iterations`), kNone outside all of them. A
// device op belongs to the step that launched it (its launch slice's start) when known.
std::vector<std::uint32_t> iterationOfOps(const Trace& trace, const OperatorSet& ops,
                                          const std::vector<IterationStats>& iterations);

// Signature rows without the threshold-dependent fields (anomalies, extra wait, dominant cause);
// `signatureBreakdowns` per signature (signatureBreakdowns(), breakdown.h).
std::vector<SignatureStats> baseSignatureStats(const OperatorSet& ops, const BaselineResult& base,
                                               const std::vector<Breakdown>& signatureBreakdowns);

// Fills the threshold-dependent parts of `report` from its anomalies, clusters and patterns
// (their counted runs that are not anomalies: each pattern's unflaggedCostNs): per-signature
// anomalies/extra wait/dominant cause, types, threads, iteration counts and the summary, all but
// summary.windows (the caller's: buildReport pairs the windows beside this).
// `report.operators`, `report.iterations` and `report.threads` must hold the base rows;
// `iterationOfAnomaly` holds, per anomaly, its iteration (index into report.iterations, kNone
// outside all of them: iterationOfOps()'s answer for its operator). One pass over the anomalies
// and one over the patterns' runs, touching only small per-signature, per-iteration and
// per-track arrays. With `costs` (indexPatternCosts of the same patterns and iterations: the
// prepared analysis's), only the runs on the short side of each pattern's flagged line are
// read; the sums are the same.
void summarise(Report& report, const Trace& trace, const std::vector<std::uint32_t>& iterationOfAnomaly,
               const PatternCostIndex* costs = nullptr);

// Per-track rows without the threshold-dependent fields (copied into the report's `threads`
// before summarise).
std::vector<TrackStats> baseTrackStats(const Trace& trace, const OperatorSet& ops);

}  // namespace contend
