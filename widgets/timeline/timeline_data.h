#pragma once
// Everything the timeline precomputes once per trace before it is first shown (pure, no Qt): the
// lane index and the counter maxima. Built off the GUI thread by the loader, then shared
// read-only. The queue length under each stream comes later (queue_tracks.h).
#include <memory>
#include <vector>

#include "core/trace/trace.h"
#include "widgets/timeline/counter_lod.h"
#include "widgets/timeline/timeline_index.h"

namespace contend::widgets {

struct TimelineData {
    TracePtr trace;
    TimelineIndex index;
    std::vector<CounterLod> counters;  // one per Trace::counters()
};

using TimelineDataPtr = std::shared_ptr<const TimelineData>;

TimelineDataPtr makeTimelineData(TracePtr trace);

}  // namespace contend::widgets
