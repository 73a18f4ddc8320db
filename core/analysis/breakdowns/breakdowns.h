#pragma once
// HTA's breakdowns of one trace (one rank): temporal, idle per stream, communication/computation
// overlap, queue length, memory bandwidth, launch statistics and device time per annotation,
// over HTA's scope (scope.h). A pure function of the trace; each section says why when the
// trace cannot give it.
//
// Over a time range (the app's range selected on the timeline; breakdowns::TimeRange, stats.h):
// the same definitions restricted to it, the whole range giving the whole trace's figures
// exactly. Time figures are clipped to the range (temporal, overlap, idle gaps, time at a full
// queue); sampled figures take the samples at a time in it (queue length, HTA's summed
// bandwidth); per-operation figures count each operation that runs in it, whole (launch
// statistics, each copy's bandwidth, device time per annotation). The scope and the queue series
// are the trace's, computed once (BreakdownBasis), so a range costs a pass over the operations.
#include <array>
#include <memory>
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/queue_length.h"
#include "core/analysis/breakdowns/scope.h"
#include "core/analysis/breakdowns/stats.h"
#include "core/trace/trace.h"

namespace contend {

// What every range of one trace shares: HTA's scope and the queue length's step series per stream
// (queue_length.h, the summary's ties).
struct BreakdownBasis {
    breakdowns::Scope scope;
    std::vector<breakdowns::QueueSeries> queueSeries;
};
BreakdownBasis breakdownBasis(const Trace& trace);

// Wall ms of each part of one computeBreakdowns, in the order they run: the basis (scope, queue
// series) and each section (contend-cli analyze --timings and bench-analyze print them).
struct BreakdownTimes {
    static constexpr std::size_t kParts = 9;
    static constexpr std::array<const char*, kParts> kNames = {
        "scope", "queue series", "temporal", "overlap", "idle", "queue", "bandwidth", "launch", "annotations"};
    std::array<double, kParts> ms{};
    double totalMs() const;
};

// Every section computed or not computed with its reason (a trace without a device operation
// on a stream: all of them).
TraceBreakdowns computeBreakdowns(const Trace& trace);

// The same, and the queue length's step series per stream it summarised (queue_length.h) in
// `queueSeries` (empty when not computed): the app draws them under each stream without
// computing HTA's scope again. `times`, when given, gets each part's time.
TraceBreakdowns computeBreakdowns(const Trace& trace, std::vector<breakdowns::QueueSeries>& queueSeries,
                                  BreakdownTimes* times = nullptr);

// Over a range, from the trace's basis (the whole range: the whole trace's figures). `times`
// gets the sections' times (the basis' are left as they are).
TraceBreakdowns computeBreakdowns(const Trace& trace, const BreakdownBasis& basis, const breakdowns::TimeRange& range,
                                  BreakdownTimes* times = nullptr);

}  // namespace contend
