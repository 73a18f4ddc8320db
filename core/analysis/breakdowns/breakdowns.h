#pragma once
// HTA's breakdowns of one trace (one rank): temporal, idle per stream, communication/computation
// overlap, queue length, memory bandwidth, launch statistics and device time per annotation,
// over HTA's scope (scope.h). A pure function of the trace; each section says why when the
// trace cannot give it.
#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/trace/trace.h"

namespace contend {

// Every section computed or not computed with its reason (a trace without a device operation
// on a stream: all of them).
TraceBreakdowns computeBreakdowns(const Trace& trace);

}  // namespace contend
