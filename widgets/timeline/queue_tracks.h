#pragma once
// HTA's queue length under each stream (core/analysis/breakdowns/queue_length.h, launched and not
// yet started) as the timeline draws it: each stream's step series with its maxima, and the track
// it is drawn under. Pure, no Qt. The app builds it after the timeline is first shown, from the
// series the analysis already computed (PreparedAnalysis::queueSeries), so the first timeline
// never waits for HTA's scope; then shared read-only.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/analysis/breakdowns/queue_length.h"
#include "core/trace/trace.h"
#include "widgets/timeline/counter_lod.h"

namespace contend::widgets {

using QueueSeriesList = std::shared_ptr<const std::vector<breakdowns::QueueSeries>>;

struct QueueTrack {
    const breakdowns::QueueSeries* series = nullptr;  // into QueueTracks::all
    CounterLod lod;                                   // over series->lengths
};

struct QueueTracks {
    QueueSeriesList all;  // what the tracks point into
    // One per stream whose operations are linked to the calls that enqueued them (none when the
    // trace links no launch to a kernel), streams ascending.
    std::vector<QueueTrack> tracks;
    std::vector<std::uint32_t> ofTrack;  // per trace track: index into tracks, kNone without one
    // The queue series of a device slice's stream, or nullptr.
    const breakdowns::QueueSeries* ofSlice(const Trace& trace, std::uint32_t slice) const;
};

using QueueTracksPtr = std::shared_ptr<const QueueTracks>;

// From series already computed for `trace` (queueLengthSeries; null or empty: no tracks).
QueueTracksPtr makeQueueTracks(const Trace& trace, QueueSeriesList series);
// Computing HTA's scope and series here (a trace without its analysis; tests).
QueueTracksPtr makeQueueTracks(const Trace& trace);

}  // namespace contend::widgets
