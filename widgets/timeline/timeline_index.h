#pragma once
// Drawing index of a Trace, built once per trace (pure, no Qt). A track's slices are one vector
// sorted by start with nested slices interleaved; the timeline draws one lane per nesting depth,
// so the index keeps, per (track, depth) lane, the slices of that depth in start order plus the
// running maximum of their ends. Slices of one depth do not overlap, so both arrays are sorted
// and every lookup is a binary search: the visible part of a lane, and how far a run of tiny
// slices reaches (to fold it into one mark without walking it; after Tracy's folded zones).
// Memory: 24 bytes per slice.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/trace/trace.h"
#include "widgets/common/palette.h"

namespace contend::widgets {

struct Lane {
    std::uint32_t track = 0;
    std::uint8_t depth = 0;
    std::vector<std::uint32_t> slices;  // indices into Trace::slices(), by start
    std::vector<TimeNs> starts;         // starts[i] = start of slices[i] (kept here so the fold
                                        // loop never reads the 32-byte slices it skips over)
    std::vector<TimeNs> maxEnd;         // maxEnd[i] = max end of slices[0..i]
};

class TimelineIndex {
  public:
    TimelineIndex() = default;
    explicit TimelineIndex(const Trace& trace);

    std::size_t laneCount() const { return m_lanes.size(); }
    const Lane& lane(std::uint32_t id) const { return m_lanes[id]; }
    // Lane id of (track, depth), kNone if the track has no such depth.
    std::uint32_t laneId(std::uint32_t track, std::uint8_t depth) const;
    // Lanes of a track (one per depth 0..maxDepth); 0 for a track without slices.
    std::uint32_t lanesOf(std::uint32_t track) const;
    // Lane and position of a slice inside its lane.
    std::uint32_t laneOf(const Slice& s) const { return laneId(s.track, s.depth); }
    std::uint32_t positionOf(std::uint32_t slice) const { return m_position[slice]; }
    // Colour of a slice's name (normal and muted), cached per name.
    Argb color(const Slice& s, bool muted) const { return muted ? m_muted[s.name] : m_color[s.name]; }

    // Positions [first, last) of the lane's slices that may intersect [t0, t1): every slice
    // before `first` ends at or before t0, every slice from `last` on starts at or after t1.
    std::pair<std::uint32_t, std::uint32_t> visible(const Trace& trace, std::uint32_t laneId, TimeNs t0,
                                                    TimeNs t1) const;
    // First position at or after `from` whose running max end is >= t (a fold's reach).
    std::uint32_t firstEndingAtOrAfter(std::uint32_t laneId, std::uint32_t from, TimeNs t) const;

  private:
    std::vector<Lane> m_lanes;
    std::vector<std::uint32_t> m_firstLane;  // per track, kNone if no slices
    std::vector<std::uint32_t> m_laneCount;  // per track
    std::vector<std::uint32_t> m_position;   // per slice
    std::vector<Argb> m_color;               // per StringId
    std::vector<Argb> m_muted;
};

}  // namespace contend::widgets
