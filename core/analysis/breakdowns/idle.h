#pragma once
// HTA's idle time breakdown per stream (get_idle_time_breakdown): the gap before each device
// operation (its start less the previous operation's end on the stream, in start order; the
// first has none) is host wait when the operation's launch call started after the previous one
// ended (the host was late), else kernel wait when shorter than kKernelWaitNs, else other.
// Wait tasks (cuda_sync, Ascend EVENT_WAIT...) are not operations here, as in HTA.
#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/scope.h"

namespace contend::breakdowns {

// Not computed when no operation is linked to the host call that launched it (the trace then
// cannot tell host wait from the rest). Over a range (stats.h): each gap's time inside the range,
// its kind that of the whole gap (a gap of 80 us cut to 20 by the range is still "other"); a
// negative gap (operations that overlap on their stream, which HTA counts as they are) counts
// when the operation after it starts in the range; a row for each stream with an operation that
// runs in the range or a gap in it.
BreakdownSection<StreamIdle> idleBreakdown(const Trace& trace, const Scope& scope, const TimeRange& range = {});

}  // namespace contend::breakdowns
