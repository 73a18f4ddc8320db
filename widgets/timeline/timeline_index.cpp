#include "widgets/timeline/timeline_index.h"

#include <algorithm>

namespace contend::widgets {

TimelineIndex::TimelineIndex(const Trace& trace) {
    const auto& tracks = trace.tracks();
    const auto& slices = trace.slices();
    m_firstLane.assign(tracks.size(), kNone);
    m_laneCount.assign(tracks.size(), 0);
    m_position.assign(slices.size(), 0);
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        const Track& tr = tracks[t];
        if (tr.size() == 0) continue;
        const std::uint32_t first = static_cast<std::uint32_t>(m_lanes.size());
        m_firstLane[t] = first;
        m_laneCount[t] = tr.maxDepth + 1u;
        for (std::uint32_t d = 0; d <= tr.maxDepth; ++d) {
            Lane lane;
            lane.track = t;
            lane.depth = static_cast<std::uint8_t>(d);
            m_lanes.push_back(std::move(lane));
        }
        for (std::uint32_t i = tr.sliceBegin; i < tr.sliceEnd; ++i) {
            Lane& lane = m_lanes[first + slices[i].depth];
            m_position[i] = static_cast<std::uint32_t>(lane.slices.size());
            const TimeNs end = slices[i].end();
            lane.maxEnd.push_back(lane.maxEnd.empty() ? end : std::max(lane.maxEnd.back(), end));
            lane.slices.push_back(i);
            lane.starts.push_back(slices[i].start);
        }
    }
    const std::size_t names = trace.strings().size();
    m_color.assign(names, kFoldColor);
    m_muted.assign(names, kFoldColor);
    std::vector<char> seen(names, 0);
    for (const Slice& s : slices) {
        if (seen[s.name]) continue;
        seen[s.name] = 1;
        m_color[s.name] = nameColor(trace.str(s.name));
        m_muted[s.name] = mutedNameColor(trace.str(s.name));
    }
}

std::uint32_t TimelineIndex::laneId(std::uint32_t track, std::uint8_t depth) const {
    if (track >= m_firstLane.size() || depth >= m_laneCount[track]) return kNone;
    return m_firstLane[track] + depth;
}

std::uint32_t TimelineIndex::lanesOf(std::uint32_t track) const {
    return track < m_laneCount.size() ? m_laneCount[track] : 0;
}

std::pair<std::uint32_t, std::uint32_t> TimelineIndex::visible(const Trace& trace, std::uint32_t laneId, TimeNs t0,
                                                               TimeNs t1) const {
    const Lane& lane = m_lanes[laneId];
    if (lane.slices.empty() || t1 < t0) return {0, 0};
    // Slices ending at or before t0 are outside [t0, t1) (an instant exactly at t0 counts as
    // before the view: it is one nanosecond off the left edge).
    const auto first =
        static_cast<std::uint32_t>(std::upper_bound(lane.maxEnd.begin(), lane.maxEnd.end(), t0) - lane.maxEnd.begin());
    (void)trace;
    const auto last = static_cast<std::uint32_t>(std::lower_bound(lane.starts.begin() + first, lane.starts.end(), t1) -
                                                 lane.starts.begin());
    return {first, std::max(first, last)};
}

std::uint32_t TimelineIndex::firstEndingAtOrAfter(std::uint32_t laneId, std::uint32_t from, TimeNs t) const {
    const auto& m = m_lanes[laneId].maxEnd;
    const std::size_t n = m.size();
    std::size_t lo = std::min<std::size_t>(from, n);
    // Galloping search: the answer is usually a few pixels' worth of slices ahead, so probe
    // 1, 2, 4, ... ahead first and binary-search only the last stride (cache friendly).
    std::size_t step = 1;
    std::size_t hi = lo;
    while (hi < n && m[hi] < t) {
        lo = hi + 1;
        hi = std::min(n, hi + step);
        step *= 2;
    }
    return static_cast<std::uint32_t>(
        std::lower_bound(m.begin() + static_cast<std::ptrdiff_t>(lo), m.begin() + static_cast<std::ptrdiff_t>(hi), t) -
        m.begin());
}

}  // namespace contend::widgets
