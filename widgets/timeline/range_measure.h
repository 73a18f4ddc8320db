#pragma once
// Measuring a time range (Shift+drag on the timeline, or a drag on its ruler): how long it is,
// how busy each track was inside it (the union of its slices clipped to the range, so nested
// host calls are not counted twice) and which findings fall inside it. Pure; one pass over the
// slices, which is fine for a measure made on a mouse release.
#include <vector>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"

namespace contend::widgets {

struct TrackBusy {
    std::uint32_t track = 0;
    TimeNs busyNs = 0;         // covered by at least one slice of the track, inside the range
    std::uint32_t slices = 0;  // slices that overlap the range
};

struct RangeMeasure {
    TimeNs t0 = 0;
    TimeNs t1 = 0;
    std::vector<TrackBusy> tracks;         // tracks with a slice in the range, busiest first
    std::vector<std::uint32_t> anomalies;  // indices into Report::anomalies whose operator overlaps the range
    std::vector<std::uint32_t> windows;    // indices into Report::windows that overlap it
    std::vector<std::uint32_t> clusters;   // indices into Report::clusters that overlap it
    TimeNs duration() const { return t1 - t0; }
};

// [t0, t1) in absolute ns (swapped if given backwards); `report` may be null.
RangeMeasure measureRange(const Trace& trace, const Report* report, TimeNs t0, TimeNs t1);

}  // namespace contend::widgets
