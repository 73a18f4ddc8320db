#include "widgets/timeline/timeline_data.h"

#include <utility>

namespace contend::widgets {

TimelineDataPtr makeTimelineData(TracePtr trace) {
    auto d = std::make_shared<TimelineData>();
    if (!trace) return d;
    d->index = TimelineIndex(*trace);
    d->counters.reserve(trace->counters().size());
    for (const CounterSeries& c : trace->counters()) d->counters.emplace_back(c);
    d->trace = std::move(trace);
    return d;
}

}  // namespace contend::widgets
