#pragma once
// What a device operation's stream was doing around it, for Details: the stream's idle share
// (HTA's idle breakdown from the report, over the span of the stream's operations) and its queue
// length (HTA's, from the same series the timeline draws: queue_tracks.h) at the
// operation's launch, at its start and, time-weighted, the median while it ran.
#include <cstdint>
#include <optional>

#include <QString>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"
#include "widgets/timeline/queue_tracks.h"

namespace contend::widgets {

struct StreamContext {
    std::int32_t stream = -1;
    double idleShare = -1;  // idle / the stream's span, 0..1; -1 without the report's idle breakdown
    TimeNs hostWaitNs = 0, kernelWaitNs = 0, otherNs = 0;
    std::int32_t atLaunch = -1;  // -1: no launch call linked to it
    std::int32_t atStart = 0;    // after every change at its start (its own start taken away)
    std::int32_t medianWhileRunning = 0;
};

// Empty when the slice's stream has no queue series (a host slice, a trace without launches
// linked to its kernels). `report` may be null.
std::optional<StreamContext> streamContext(const Trace& trace, const QueueTracks& queues, const Report* report,
                                           std::uint32_t slice);

// "stream 7, idle 16.2% of its span (host wait 1.2 ms, kernel wait 30 us, other 2 ms)" and
// "12 at its launch, 3 at its start, median 5 while it ran".
QString streamIdleText(const StreamContext& c);
QString queueContextText(const StreamContext& c);

}  // namespace contend::widgets
