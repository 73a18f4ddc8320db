#pragma once
// HTA's breakdowns of one trace (one rank): temporal, idle per stream, communication/computation
// overlap, queue length, memory bandwidth, launch statistics and device time per annotation,
// over HTA's scope (scope.h). A pure function of the trace; each section says why when the
// trace cannot give it.
#include <memory>
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/queue_length.h"
#include "core/trace/trace.h"

namespace contend {

// Every section computed or not computed with its reason (a trace without a device operation
// on a stream: all of them).
TraceBreakdowns computeBreakdowns(const Trace& trace);

// The same, and the queue length's step series per stream it summarised (queue_length.h) in
// `queueSeries` (empty when not computed): the app draws them under each stream without
// computing HTA's scope again.
TraceBreakdowns computeBreakdowns(const Trace& trace, std::vector<breakdowns::QueueSeries>& queueSeries);

}  // namespace contend
