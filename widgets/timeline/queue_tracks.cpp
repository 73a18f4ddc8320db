#include "widgets/timeline/queue_tracks.h"

#include <utility>

#include "core/analysis/breakdowns/scope.h"

namespace contend::widgets {

QueueTracksPtr makeQueueTracks(const Trace& trace, QueueSeriesList series) {
    auto q = std::make_shared<QueueTracks>();
    q->ofTrack.assign(trace.tracks().size(), kNone);
    if (!series) return q;
    q->all = std::move(series);
    q->tracks.reserve(q->all->size());
    for (const breakdowns::QueueSeries& s : *q->all) {
        // A stream whose operations lie on a track that already has one (two devices' stream 7
        // in one trace) is drawn once, under the first.
        if (s.track >= q->ofTrack.size() || q->ofTrack[s.track] != kNone) continue;
        std::vector<double> values(s.lengths.begin(), s.lengths.end());
        q->ofTrack[s.track] = static_cast<std::uint32_t>(q->tracks.size());
        q->tracks.push_back(QueueTrack{&s, CounterLod(std::move(values))});
    }
    return q;
}

QueueTracksPtr makeQueueTracks(const Trace& trace) {
    return makeQueueTracks(trace, std::make_shared<const std::vector<breakdowns::QueueSeries>>(
                                      breakdowns::queueLengthSeries(trace, breakdowns::htaScope(trace))));
}

const breakdowns::QueueSeries* QueueTracks::ofSlice(const Trace& trace, std::uint32_t slice) const {
    if (slice >= trace.slices().size()) return nullptr;
    const std::int32_t stream = trace.infos()[slice].stream;
    for (const QueueTrack& q : tracks)
        if (q.series->stream == stream) return q.series;
    return nullptr;
}

}  // namespace contend::widgets
