#include "core/analysis/breakdowns/kernel_time.h"

#include "core/analysis/breakdowns/hta_rules.h"
#include "core/analysis/breakdowns/stats.h"

namespace contend::breakdowns {

BreakdownSection<RankTemporal> temporalBreakdown(const Trace& trace, const Scope& scope, const TimeRange& range) {
    BreakdownSection<RankTemporal> out;
    const Intervals all = clipped(mergedIntervals(trace, scope.opsIn(trace, range)), range);
    if (all.empty()) {
        out.notComputed = inRange("no device operation on a stream", range);
        return out;
    }
    const Intervals compute =
        clipped(mergedIntervals(trace, scope.opsOfType(trace, KernelType::Compute, range)), range);
    RankTemporal r;
    r.rank = trace.rank();
    r.kernelNs = all.back().second - all.front().first;
    r.idleNs = r.kernelNs - totalLength(all);
    r.computeNs = totalLength(compute);
    r.nonComputeNs = r.kernelNs - r.computeNs - r.idleNs;
    out.rows.push_back(r);
    return out;
}

BreakdownSection<RankOverlap> commCompOverlap(const Trace& trace, const Scope& scope, const TimeRange& range) {
    BreakdownSection<RankOverlap> out;
    const Intervals comm =
        clipped(mergedIntervals(trace, scope.opsOfType(trace, KernelType::Communication, range)), range);
    if (comm.empty()) {
        out.notComputed = inRange("no communication kernel (nccl*, hccl*) on a stream", range);
        return out;
    }
    const Intervals compute =
        clipped(mergedIntervals(trace, scope.opsOfType(trace, KernelType::Compute, range)), range);
    RankOverlap r;
    r.rank = trace.rank();
    r.commNs = totalLength(comm);
    r.overlapNs = intersectionLength(comm, compute);
    r.fraction = r.commNs > 0 ? static_cast<double>(r.overlapNs) / static_cast<double>(r.commNs) : 0;
    out.rows.push_back(r);
    return out;
}

}  // namespace contend::breakdowns
