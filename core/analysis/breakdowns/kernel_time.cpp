#include "core/analysis/breakdowns/kernel_time.h"

#include "core/analysis/breakdowns/hta_rules.h"
#include "core/analysis/breakdowns/stats.h"

namespace contend::breakdowns {

BreakdownSection<RankTemporal> temporalBreakdown(const Trace& trace, const Scope& scope) {
    BreakdownSection<RankTemporal> out;
    if (scope.ops.empty()) {
        out.notComputed = "no device operation on a stream";
        return out;
    }
    const Intervals all = mergedIntervals(trace, scope.ops);
    const Intervals compute = mergedIntervals(trace, scope.opsOfType(trace, KernelType::Compute));
    RankTemporal r;
    r.rank = trace.rank();
    r.kernelNs = all.back().second - all.front().first;
    r.idleNs = r.kernelNs - totalLength(all);
    r.computeNs = totalLength(compute);
    r.nonComputeNs = r.kernelNs - r.computeNs - r.idleNs;
    out.rows.push_back(r);
    return out;
}

BreakdownSection<RankOverlap> commCompOverlap(const Trace& trace, const Scope& scope) {
    BreakdownSection<RankOverlap> out;
    const Intervals comm = mergedIntervals(trace, scope.opsOfType(trace, KernelType::Communication));
    if (comm.empty()) {
        out.notComputed = "no communication kernel (nccl*, hccl*) on a stream";
        return out;
    }
    const Intervals compute = mergedIntervals(trace, scope.opsOfType(trace, KernelType::Compute));
    RankOverlap r;
    r.rank = trace.rank();
    r.commNs = totalLength(comm);
    r.overlapNs = intersectionLength(comm, compute);
    r.fraction = r.commNs > 0 ? static_cast<double>(r.overlapNs) / static_cast<double>(r.commNs) : 0;
    out.rows.push_back(r);
    return out;
}

}  // namespace contend::breakdowns
