#include "core/analysis/breakdowns/breakdowns.h"

#include <chrono>
#include <string>
#include <utility>

#include "core/analysis/breakdowns/annotations.h"
#include "core/analysis/breakdowns/idle.h"
#include "core/analysis/breakdowns/kernel_time.h"
#include "core/analysis/breakdowns/launch_stats.h"
#include "core/analysis/breakdowns/memory_bandwidth.h"

namespace contend {

namespace {

// Runs `fn`, adding its wall ms to (*times).ms[part] when times are asked for.
template <typename Fn>
void timed(BreakdownTimes* times, std::size_t part, Fn&& fn) {
    if (!times) {
        fn();
        return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    times->ms[part] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Every section not computed: the trace has no device operation on a stream.
TraceBreakdowns hostOnly() {
    TraceBreakdowns b;
    const std::string why = "no device operation on a stream (a host-only trace)";
    b.scope = why;
    for (std::string* s :
         {&b.temporal.notComputed, &b.idle.notComputed, &b.commCompOverlap.notComputed, &b.queueLength.notComputed,
          &b.memoryBandwidth.notComputed, &b.launch.notComputed, &b.annotations.notComputed})
        *s = why;
    return b;
}

}  // namespace

double BreakdownTimes::totalMs() const {
    double sum = 0;
    for (double m : ms) sum += m;
    return sum;
}

BreakdownBasis breakdownBasis(const Trace& trace) {
    BreakdownBasis basis;
    basis.scope = breakdowns::htaScope(trace);
    basis.queueSeries = breakdowns::queueLengthSeries(trace, basis.scope);
    return basis;
}

TraceBreakdowns computeBreakdowns(const Trace& trace) {
    std::vector<breakdowns::QueueSeries> series;
    return computeBreakdowns(trace, series);
}

TraceBreakdowns computeBreakdowns(const Trace& trace, std::vector<breakdowns::QueueSeries>& queueSeries,
                                  BreakdownTimes* times) {
    queueSeries.clear();
    BreakdownBasis basis;
    timed(times, 0, [&] { basis.scope = breakdowns::htaScope(trace); });
    if (basis.scope.deviceOps == 0) return hostOnly();
    timed(times, 1, [&] { basis.queueSeries = breakdowns::queueLengthSeries(trace, basis.scope); });
    TraceBreakdowns b = computeBreakdowns(trace, basis, {}, times);
    queueSeries = std::move(basis.queueSeries);
    return b;
}

TraceBreakdowns computeBreakdowns(const Trace& trace, const BreakdownBasis& basis, const breakdowns::TimeRange& range,
                                  BreakdownTimes* times) {
    const breakdowns::Scope& scope = basis.scope;
    if (scope.deviceOps == 0) return hostOnly();
    TraceBreakdowns b;
    b.scope = scope.text;
    b.deviceOps = scope.deviceOps;
    b.inScope = range.whole() ? scope.ops.size() : scope.opsIn(trace, range).size();
    timed(times, 2, [&] { b.temporal = breakdowns::temporalBreakdown(trace, scope, range); });
    timed(times, 3, [&] { b.commCompOverlap = breakdowns::commCompOverlap(trace, scope, range); });
    timed(times, 4, [&] { b.idle = breakdowns::idleBreakdown(trace, scope, range); });
    timed(times, 5, [&] { b.queueLength = breakdowns::queueLength(trace, basis.queueSeries, range); });
    timed(times, 6, [&] {
        b.memoryBandwidth = breakdowns::memoryBandwidth(trace, scope, breakdowns::Ties::DecreaseFirst, range);
    });
    timed(times, 7, [&] { b.launch = breakdowns::launchStats(trace, scope, range); });
    timed(times, 8, [&] { b.annotations = breakdowns::annotationTime(trace, scope, range); });
    return b;
}

}  // namespace contend
