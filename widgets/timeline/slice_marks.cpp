#include "widgets/timeline/slice_marks.h"

#include <algorithm>

namespace contend::widgets {

SliceMarks::SliceMarks(const Trace& trace, const TimelineIndex& index, std::vector<std::uint32_t> slices,
                       std::string label, std::uint32_t keep)
    : m_label(std::move(label)), m_keep(keep) {
    const auto& all = trace.slices();
    slices.erase(std::remove_if(slices.begin(), slices.end(), [&](std::uint32_t s) { return s >= all.size(); }),
                 slices.end());
    std::sort(slices.begin(), slices.end());
    slices.erase(std::unique(slices.begin(), slices.end()), slices.end());
    m_slices = std::move(slices);
    std::unordered_map<std::uint32_t, std::vector<Span>> byLane;
    for (const std::uint32_t s : m_slices) {
        const Slice& sl = all[s];
        const std::uint32_t lane = index.laneOf(sl);
        if (lane == kNone) continue;
        Span sp;
        sp.start = sl.start;
        sp.end = sl.end();
        sp.id = s;
        sp.weight = 1;
        byLane[lane].push_back(sp);
    }
    for (auto& [lane, spans] : byLane) m_lanes.emplace(lane, SpanLayers(std::move(spans)));
}

bool SliceMarks::contains(std::uint32_t slice) const {
    return std::binary_search(m_slices.begin(), m_slices.end(), slice);
}

const SpanLayers* SliceMarks::inLane(std::uint32_t lane) const {
    const auto it = m_lanes.find(lane);
    return it == m_lanes.end() ? nullptr : &it->second;
}

}  // namespace contend::widgets
