#pragma once
// Where each occurrence's time went: its own work (computeNs), waiting for data (bandwidth and
// cache stalls), queueing for compute units or issue slots, and waiting on sync or locks.
// The parts add up to the duration.
//
// Estimated (the default): computeNs is the baseline (the whole duration when the occurrence
// was not slower, or when the cause is unknown: the time went inside the operator); the excess
// goes to the part its cause names, split by credit when several saturated resources share
// the blame (bandwidth/cache -> data, compute/issue/queue -> queue, sync/lock -> sync).
// Measured: when the operator carries a per-op data-movement ratio (Ascend aic/aiv mte2), the
// data part is its extra data time, ratio * duration - usual ratio * baseline (capped at the
// excess), and measuredData is set. waitBeforeNs is always measured when present: Ascend
// "Wait Time", or for Kineto the launch call's end to the kernel's start via correlation.
#include <vector>

#include "core/analysis/findings/causes.h"
#include "core/analysis/model/report.h"
#include "core/analysis/scoring/baseline.h"
#include "core/analysis/scoring/pressure.h"

namespace contend {

// One occurrence's breakdown. The engine keeps none per operator (48 bytes each: 480 MB of
// fresh pages at 10M kernels): it makes each anomaly row's when the row is made, and the
// signatures' sums in one pass.
Breakdown breakdownOf(const Trace& trace, const OperatorSet& ops, const BaselineResult& base,
                      const PressureResult& pressure, const CauseResult& causes, std::uint32_t op);
// Every occurrence's, by op.
std::vector<Breakdown> computeBreakdowns(const Trace& trace, const OperatorSet& ops, const BaselineResult& base,
                                         const PressureResult& pressure, const CauseResult& causes);
// Per signature: its occurrences' breakdowns added up (accumulate) in op order.
std::vector<Breakdown> signatureBreakdowns(const Trace& trace, const OperatorSet& ops, const BaselineResult& base,
                                           const PressureResult& pressure, const CauseResult& causes);

// Adds b into sum (durations and the measured flags, which stay set when any part was).
void accumulate(Breakdown& sum, const Breakdown& b);

}  // namespace contend
