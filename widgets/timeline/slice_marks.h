#pragma once
// A set of marked slices on the timeline (pure, no Qt): a contention pattern's runs beside its
// partner, drawn so they stay visible at any zoom. Built once per selection: the slices are
// dealt to their drawing lanes (timeline_index.h) as spans, so a frame finds a lane's visible
// marks by binary search and folds those narrower than a pixel or two into one counted marker
// above the lane, never walking the marks it hides (span_layers.h). Thousands of marks cost a
// frame what its width in pixels does.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/trace/trace.h"
#include "widgets/timeline/span_layers.h"
#include "widgets/timeline/timeline_index.h"

namespace contend::widgets {

class SliceMarks {
  public:
    SliceMarks() = default;
    // `slices`: indices into trace.slices() (out-of-range ones are dropped, duplicates kept
    // once); `label`: what they are, in words ("412 runs of X beside Y"); `keep`: the slice
    // selected with them (the marks stay while it is the selection; kNone: while none is).
    SliceMarks(const Trace& trace, const TimelineIndex& index, std::vector<std::uint32_t> slices, std::string label,
               std::uint32_t keep = kNone);

    std::size_t size() const { return m_slices.size(); }
    bool empty() const { return m_slices.empty(); }
    // The marked slices, ascending.
    const std::vector<std::uint32_t>& slices() const { return m_slices; }
    bool contains(std::uint32_t slice) const;
    const std::string& label() const { return m_label; }
    std::uint32_t keep() const { return m_keep; }
    // The marks in drawing lane `lane` (TimelineIndex's id), null when none (ids are slices).
    const SpanLayers* inLane(std::uint32_t lane) const;

  private:
    std::vector<std::uint32_t> m_slices;
    std::string m_label;
    std::uint32_t m_keep = kNone;
    std::unordered_map<std::uint32_t, SpanLayers> m_lanes;
};

}  // namespace contend::widgets
