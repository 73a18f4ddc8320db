#pragma once
// Everything the timeline precomputes once per trace (pure, no Qt): the lane index, the counter
// maxima and the queue length under each stream. Built off the GUI thread by the loader, then
// shared read-only.
#include <memory>
#include <vector>

#include "core/analysis/breakdowns/queue_length.h"
#include "core/trace/trace.h"
#include "widgets/timeline/counter_lod.h"
#include "widgets/timeline/timeline_index.h"

namespace contend::widgets {

// HTA's queue length of one stream (core/analysis/breakdowns/queue_length.h: launched, not yet
// started) drawn as a track under the stream's track, with its maxima for drawing.
struct QueueTrack {
    breakdowns::QueueSeries series;
    CounterLod lod;  // over series.lengths
};

struct TimelineData {
    TracePtr trace;
    TimelineIndex index;
    std::vector<CounterLod> counters;  // one per Trace::counters()
    // One per stream whose operations are linked to the calls that enqueued them (none when the
    // trace links no launch to a kernel), streams ascending.
    std::vector<QueueTrack> queues;
    std::vector<std::uint32_t> queueOfTrack;  // per track: index into queues, kNone without one
    // The queue series of a device slice's stream, or nullptr.
    const breakdowns::QueueSeries* queueOfSlice(std::uint32_t slice) const;
};

using TimelineDataPtr = std::shared_ptr<const TimelineData>;

TimelineDataPtr makeTimelineData(TracePtr trace);

// The queue tracks of `trace` (HTA's scope and series) and each track's queue; what
// makeTimelineData adds to the index.
void buildQueueTracks(const Trace& trace, TimelineData& data);

}  // namespace contend::widgets
