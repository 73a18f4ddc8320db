#pragma once
// Why an occurrence was slower than its baseline.
//
// For each resource the counters measure, an occurrence's credit is the fraction of its run
// during which that resource was saturated (at or above its high threshold), counted only for
// resources the operator itself uses (its signature's own demand >= kUseThreshold; for the cache
// only when the cache was more thrashed than in the signature's own runs). A per-op metric
// that moved against the signature's usual value (e.g. aic_mte2_ratio up, L2 hit rate down) also
// earns credit. Then, in order:
//   1. the resource with the largest credit, when it is at least kMinCredit;
//   2. queue: compute units were saturated by others while it ran, and it is not a heavy
//      compute user itself (it waited for units others held);
//   3. sync: a collective (NCCL/HCCL) operator: its extra time is waiting for peers;
//   4. lock: it overlapped other operators for at least kMinOverlap of its run while the
//      counters show no shared resource saturated (spinning on something another holds);
//   5. traces without counters: with enough overlap, the resource the operator
//      types suggest (memcpy/memset partner -> bandwidth, matmul/conv with matmul/conv ->
//      compute), else unknown;
//   6. unknown: no overlap and no pressure, so the time went inside the operator itself.
// Host scope (no device operators in the trace): only 1 and 6; threads overlap all the time.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/baseline.h"
#include "core/analysis/overlap.h"
#include "core/analysis/pressure.h"
#include "core/analysis/report.h"

namespace contend {

inline constexpr double kMinCredit = 0.25;
inline constexpr double kMinOverlap = 0.25;
// A per-op metric that moved this much (0..1) from its signature's median earns full credit.
inline constexpr double kMetricMove = 0.15;

struct CauseResult {
    std::vector<Resource> cause;          // per op; None when the op was not slower than its baseline
    std::vector<PressureArray> credit;    // per op, by pressure resource (0..1)
    bool anyCounters = false;
    bool anyMetrics = false;
};

CauseResult attributeCauses(const Trace& trace, const OperatorSet& ops, const BaselineResult& base,
                            const OverlapResult& overlap, const PressureResult& pressure, const ResourceTimelines& timelines);

// One line saying what the evidence was, for the report: "DRAM bandwidth saturated for 72% of
// its run; overlapped 90% by other streams".
std::string describeCause(const OperatorSet& ops, std::uint32_t op, const BaselineResult& base,
                          const OverlapResult& overlap, const PressureResult& pressure, const CauseResult& causes,
                          const Trace& trace);

}  // namespace contend
