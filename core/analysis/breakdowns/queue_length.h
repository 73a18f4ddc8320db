#pragma once
// HTA's queue length per stream (get_queue_length_summary, get_time_spent_blocked_on_full_queue):
// the operations launched on a stream and not yet started. Each operation whose launch call is
// an enqueue call (hta_rules.h) adds one at the call's start and takes one away at its own
// start; every change is a sample.
// The samples also come as a step series over time (QueueSeries): after every change the series
// holds (time, length), events at the same time ordered by `Ties` as the summary orders them
// and each its own sample, so the series' max and median are the summary's max and p50. The
// timeline draws it under each stream (widgets/timeline), and a finding's Details read it at the
// operation's launch and start.
#include <cstdint>
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/scope.h"
#include "core/analysis/breakdowns/stats.h"

namespace contend::breakdowns {

struct QueueSeries {
    std::int32_t stream = -1;
    std::uint32_t track = kNone;        // the track of the stream's first operation
    std::vector<TimeNs> times;          // ascending; equal times keep their order
    std::vector<std::int32_t> lengths;  // after each change; below 0 only with clock skew
    TimeNs firstStart = 0;              // the stream's operations in scope: the first start
    TimeNs lastEnd = 0;                 // and the last end (the span its idle time is a share of)
};

// One series per stream with at least one operation linked to an enqueue call, streams
// ascending; empty when the trace links none.
std::vector<QueueSeries> queueLengthSeries(const Trace& trace, const Scope& scope, Ties ties = Ties::DecreaseFirst);

// The series of `stream`, or nullptr.
const QueueSeries* seriesOfStream(const std::vector<QueueSeries>& all, std::int32_t stream);

// The length in effect at t, after every change at t (0 before the first sample).
std::int32_t queueLengthAt(const QueueSeries& s, TimeNs t);

// The time-weighted median of the length in effect over [t0, t1): the smallest length the queue
// was at or under for half the interval or more. The length at t0 when t1 <= t0.
std::int32_t queueLengthMedianOver(const QueueSeries& s, TimeNs t0, TimeNs t1);

// Not computed when no operation is linked to an enqueue call.
BreakdownSection<StreamQueue> queueLength(const Trace& trace, const Scope& scope, Ties ties = Ties::DecreaseFirst);
// The same from series already computed (queueLengthSeries with the summary's ties); over a range
// (stats.h), the samples in it (a launch or a start in the range), the time at a full queue
// clipped to it, a row for each stream with a sample in it.
BreakdownSection<StreamQueue> queueLength(const Trace& trace, const std::vector<QueueSeries>& all,
                                          const TimeRange& range = {});

}  // namespace contend::breakdowns
