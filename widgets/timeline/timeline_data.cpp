#include "widgets/timeline/timeline_data.h"

#include <utility>

#include "core/analysis/breakdowns/scope.h"

namespace contend::widgets {

TimelineDataPtr makeTimelineData(TracePtr trace) {
    auto d = std::make_shared<TimelineData>();
    if (!trace) return d;
    d->index = TimelineIndex(*trace);
    d->counters.reserve(trace->counters().size());
    for (const CounterSeries& c : trace->counters()) d->counters.emplace_back(c);
    buildQueueTracks(*trace, *d);
    d->trace = std::move(trace);
    return d;
}

void buildQueueTracks(const Trace& trace, TimelineData& data) {
    data.queues.clear();
    data.queueOfTrack.assign(trace.tracks().size(), kNone);
    std::vector<breakdowns::QueueSeries> all = breakdowns::queueLengthSeries(trace, breakdowns::htaScope(trace));
    data.queues.reserve(all.size());
    for (breakdowns::QueueSeries& s : all) {
        // A stream whose operations lie on a track that already has one (two devices' stream 7
        // in one trace) is drawn once, under the first.
        if (s.track >= data.queueOfTrack.size() || data.queueOfTrack[s.track] != kNone) continue;
        std::vector<double> values(s.lengths.begin(), s.lengths.end());
        data.queueOfTrack[s.track] = static_cast<std::uint32_t>(data.queues.size());
        data.queues.push_back(QueueTrack{std::move(s), CounterLod(std::move(values))});
    }
}

const breakdowns::QueueSeries* TimelineData::queueOfSlice(std::uint32_t slice) const {
    if (!trace || slice >= trace->slices().size()) return nullptr;
    const std::int32_t stream = trace->infos()[slice].stream;
    for (const QueueTrack& q : queues)
        if (q.series.stream == stream) return &q.series;
    return nullptr;
}

}  // namespace contend::widgets
