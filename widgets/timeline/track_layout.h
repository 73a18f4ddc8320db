#pragma once
// Vertical layout of the timeline (pure, no Qt): the pinned tracks first under their own header,
// then group headers and one row per lane of each track in the user's order (TrackArrangement,
// track_arrangement.h; by default Trace::trackOrder(): device streams first), hidden and
// filtered-out tracks left out, host threads collapsible to their outermost lane, then one row
// per counter series (pinned counters in the pinned section, hidden ones left out and counted
// with the tracks not shown). A device stream with a queue length (TimelineData::queues) has a
// Queue row right under its lanes, pinned, hidden and moved with its track. Rows carry their y in content coordinates. The pinned rows, content y in
// [0, pinnedHeight()), stay at the top of the view; the rest scroll under them: viewY() maps
// content y to the view, rowAtView() the other way.
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/trace/trace.h"
#include "widgets/timeline/timeline_index.h"
#include "widgets/timeline/track_arrangement.h"

namespace contend::widgets {

enum class RowKind : std::uint8_t { Header, Lane, Counter, Queue };
enum class TrackGroup : std::uint8_t { Device, Host, Other, Counters, Pinned };

struct LayoutRow {
    RowKind kind = RowKind::Lane;
    TrackGroup group = TrackGroup::Device;
    std::uint32_t track = kNone;    // Lane and Queue rows
    std::uint8_t depth = 0;         // Lane rows
    std::uint32_t lane = kNone;     // Lane rows: TimelineIndex lane id
    std::uint32_t counter = kNone;  // Counter rows: index into Trace::counters(); Queue rows: into TimelineData::queues
    int y = 0;
    int h = 0;
    bool firstOfTrack = false;      // Lane rows: carries the track's label
    bool collapsed = false;         // Lane rows of a collapsed track / collapsed headers
    std::uint32_t hiddenLanes = 0;  // first lane of a collapsed track: lanes not shown
    std::uint32_t groupCount = 0;   // Header rows: tracks or counters in the group
    bool pinned = false;            // in the pinned section (stays at the top of the view)
};

struct LayoutOptions {
    int laneHeight = 18;
    int counterHeight = 40;
    int headerHeight = 20;
    int queueHeight = 26;
    int trackGap = 3;                       // pixels between tracks
    std::set<std::uint32_t> expandedHosts;  // host tracks shown with all their lanes
    std::set<TrackGroup> collapsedGroups;   // groups shown as their header only
    // Per track: its queue length's index in TimelineData::queues (kNone or absent: none).
    std::vector<std::uint32_t> queueOfTrack;
    // Pinned, hidden, moved and filtered tracks; a default (empty) one or one of another trace
    // shows every track in the trace's order.
    TrackArrangement arrangement;
};

class TrackLayout {
  public:
    TrackLayout() = default;
    TrackLayout(const Trace& trace, const TimelineIndex& index, const LayoutOptions& options);

    const std::vector<LayoutRow>& rows() const { return m_rows; }
    int height() const { return m_height; }
    // Content height of the pinned section (its header and rows), 0 when nothing is pinned.
    int pinnedHeight() const { return m_pinnedHeight; }
    // View y of content y at vertical scroll `scrollY`: pinned rows do not scroll.
    double viewY(int contentY, double scrollY) const {
        return contentY < m_pinnedHeight ? contentY : contentY - scrollY;
    }
    // Index of the row under view y at `scrollY`, or -1.
    int rowAtView(double viewY, double scrollY) const;
    // Tracks with slices that are hidden or filtered out, and hidden counters.
    std::uint32_t notShownTracks() const { return m_notShown; }
    // Tracks with slices that are shown (pinned ones included).
    std::uint32_t shownTracks() const { return m_shown; }
    // Index of the row under content y, or -1.
    int rowAt(int y) const;
    // Rows [first, last) that intersect content [y0, y1).
    std::pair<std::size_t, std::size_t> rowsIn(int y0, int y1) const;
    // Content y range [top, bottom) of a track's rows, {-1, -1} when it is not shown.
    std::pair<int, int> trackSpan(std::uint32_t track) const;
    // Row index of (track, depth) or, when that lane is folded away, of the track's first row.
    int rowOf(std::uint32_t track, std::uint8_t depth) const;
    // Row index of a counter series, -1 when it is hidden or its group collapsed.
    int rowOfCounter(std::uint32_t counter) const;

  private:
    std::vector<LayoutRow> m_rows;
    std::vector<std::pair<int, int>> m_trackSpan;  // per track
    std::vector<int> m_trackFirstRow;              // per track, -1 if hidden
    int m_height = 0;
    int m_pinnedHeight = 0;
    std::uint32_t m_notShown = 0;
    std::uint32_t m_shown = 0;
};

std::string groupTitle(TrackGroup g);

}  // namespace contend::widgets
