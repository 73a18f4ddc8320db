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
// cannot tell host wait from the rest).
BreakdownSection<StreamIdle> idleBreakdown(const Trace& trace, const Scope& scope);

}  // namespace contend::breakdowns
