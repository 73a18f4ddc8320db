#pragma once
// Vertical layout of the timeline (pure, no Qt): group headers, one row per lane of each track
// in Trace::trackOrder() (device streams first), host threads collapsible to their outermost
// lane, then one row per counter series. Rows carry their y in content coordinates (before the
// vertical scroll).
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/trace/trace.h"
#include "widgets/timeline/timeline_index.h"

namespace contend::widgets {

enum class RowKind : std::uint8_t { Header, Lane, Counter };
enum class TrackGroup : std::uint8_t { Device, Host, Other, Counters };

struct LayoutRow {
    RowKind kind = RowKind::Lane;
    TrackGroup group = TrackGroup::Device;
    std::uint32_t track = kNone;    // Lane rows
    std::uint8_t depth = 0;         // Lane rows
    std::uint32_t lane = kNone;     // Lane rows: TimelineIndex lane id
    std::uint32_t counter = kNone;  // Counter rows: index into Trace::counters()
    int y = 0;
    int h = 0;
    bool firstOfTrack = false;      // Lane rows: carries the track's label
    bool collapsed = false;         // Lane rows of a collapsed track / collapsed headers
    std::uint32_t hiddenLanes = 0;  // first lane of a collapsed track: lanes not shown
    std::uint32_t groupCount = 0;   // Header rows: tracks or counters in the group
};

struct LayoutOptions {
    int laneHeight = 18;
    int counterHeight = 40;
    int headerHeight = 20;
    int trackGap = 3;                       // pixels between tracks
    std::set<std::uint32_t> expandedHosts;  // host tracks shown with all their lanes
    std::set<TrackGroup> collapsedGroups;   // groups shown as their header only
};

class TrackLayout {
  public:
    TrackLayout() = default;
    TrackLayout(const Trace& trace, const TimelineIndex& index, const LayoutOptions& options);

    const std::vector<LayoutRow>& rows() const { return m_rows; }
    int height() const { return m_height; }
    // Index of the row under content y, or -1.
    int rowAt(int y) const;
    // Rows [first, last) that intersect content [y0, y1).
    std::pair<std::size_t, std::size_t> rowsIn(int y0, int y1) const;
    // Content y range [top, bottom) of a track's rows, {-1, -1} when it is not shown.
    std::pair<int, int> trackSpan(std::uint32_t track) const;
    // Row index of (track, depth) or, when that lane is folded away, of the track's first row.
    int rowOf(std::uint32_t track, std::uint8_t depth) const;

  private:
    std::vector<LayoutRow> m_rows;
    std::vector<std::pair<int, int>> m_trackSpan;  // per track
    std::vector<int> m_trackFirstRow;              // per track, -1 if hidden
    int m_height = 0;
};

std::string groupTitle(TrackGroup g);

}  // namespace contend::widgets
