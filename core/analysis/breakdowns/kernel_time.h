#pragma once
// HTA's temporal breakdown and communication/computation overlap, for one rank (a trace):
// merged busy time over all streams, of compute kernels, of communication kernels
// (hta_rules.h sorts them by name). Over a range (stats.h): the operations that run in it, their
// time clipped to it.
#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/scope.h"

namespace contend::breakdowns {

// Over the scope's operations (all of them, syncs included, as HTA counts every event on a
// stream). Not computed without operations. Over a range, the kernel time is the span from
// the first operation's start (or the range's) to the last one's end (or the range's).
BreakdownSection<RankTemporal> temporalBreakdown(const Trace& trace, const Scope& scope, const TimeRange& range = {});

// The share of merged communication time with a compute kernel running. Not computed without a
// communication kernel.
BreakdownSection<RankOverlap> commCompOverlap(const Trace& trace, const Scope& scope, const TimeRange& range = {});

}  // namespace contend::breakdowns
