#include "core/analysis/breakdowns/breakdowns.h"

#include <string>

#include "core/analysis/breakdowns/annotations.h"
#include "core/analysis/breakdowns/idle.h"
#include "core/analysis/breakdowns/kernel_time.h"
#include "core/analysis/breakdowns/launch_stats.h"
#include "core/analysis/breakdowns/memory_bandwidth.h"
#include "core/analysis/breakdowns/queue_length.h"
#include "core/analysis/breakdowns/scope.h"

namespace contend {

TraceBreakdowns computeBreakdowns(const Trace& trace) {
    std::vector<breakdowns::QueueSeries> series;
    return computeBreakdowns(trace, series);
}

TraceBreakdowns computeBreakdowns(const Trace& trace, std::vector<breakdowns::QueueSeries>& queueSeries) {
    queueSeries.clear();
    TraceBreakdowns b;
    const breakdowns::Scope scope = breakdowns::htaScope(trace);
    if (scope.deviceOps == 0) {
        const std::string why = "no device operation on a stream (a host-only trace)";
        b.scope = why;
        for (std::string* s :
             {&b.temporal.notComputed, &b.idle.notComputed, &b.commCompOverlap.notComputed, &b.queueLength.notComputed,
              &b.memoryBandwidth.notComputed, &b.launch.notComputed, &b.annotations.notComputed})
            *s = why;
        return b;
    }
    b.scope = scope.text;
    b.deviceOps = scope.deviceOps;
    b.inScope = scope.ops.size();
    b.temporal = breakdowns::temporalBreakdown(trace, scope);
    b.idle = breakdowns::idleBreakdown(trace, scope);
    b.commCompOverlap = breakdowns::commCompOverlap(trace, scope);
    queueSeries = breakdowns::queueLengthSeries(trace, scope);
    b.queueLength = breakdowns::queueLength(trace, queueSeries);
    b.memoryBandwidth = breakdowns::memoryBandwidth(trace, scope);
    b.launch = breakdowns::launchStats(trace, scope);
    b.annotations = breakdowns::annotationTime(trace, scope);
    return b;
}

}  // namespace contend
