#pragma once
// Findings drawn over a track (contention windows, clusters) indexed by time once per report, so
// a frame finds and folds the visible ones without walking the rest (pure, no Qt).
//
// Findings on one track may overlap (windows of different resources), which a running max of
// ends cannot skip past: a window that spans the whole trace would make every frame walk all
// that nest inside it. So they are dealt first-fit into layers of disjoint spans, ascending in
// start and in end, the way slices live in lanes; a layer's visible range is two binary searches
// and a run narrower than a pixel folds by binary search on its ends, like a lane's slices
// (draw_list.cpp). A layer also keeps, per position, running sums of a per-span weight and of
// each span's class (its resource), so a folded run knows what it hides in O(classes).
#include <array>
#include <cstdint>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/trace/types.h"
#include "widgets/timeline/time_axis.h"

namespace contend::widgets {

struct Span {
    TimeNs start = 0;
    TimeNs end = 0;            // >= start; zero-width spans are allowed
    std::uint32_t id = 0;      // the caller's index (into Report::windows, ::clusters)
    std::uint32_t weight = 0;  // summed over a run (a cluster's operators)
    Resource cls = Resource::Unknown;
};

struct SpanLayer {
    std::vector<TimeNs> starts;  // ascending
    std::vector<TimeNs> ends;    // ascending; ends[i] <= starts[i + 1]
    std::vector<std::uint32_t> ids;
    std::vector<std::uint64_t> weightSum;                             // n + 1 running sums
    std::vector<std::array<std::uint32_t, kResourceCount>> classSum;  // n + 1 running counts
    std::size_t size() const { return starts.size(); }
};

// A run of a layer's spans [begin, end) drawn as one mark from x0 to x1 (axis pixels, unclipped).
struct SpanRun {
    std::uint32_t begin = 0, end = 0;
    double x0 = 0, x1 = 0;
    std::uint32_t count() const { return end - begin; }
};

class SpanLayers {
  public:
    SpanLayers() = default;
    explicit SpanLayers(std::vector<Span> spans);

    const std::vector<SpanLayer>& layers() const { return m_layers; }
    std::size_t size() const { return m_size; }

    // Positions [first, last) of `layer` that intersect [t0, t1): start < t1 and end > t0, as
    // for slices (TimelineIndex::visible): a span ending exactly at t0 and a zero-width span at
    // t0 lie just off the left edge.
    static std::pair<std::uint32_t, std::uint32_t> visible(const SpanLayer& layer, TimeNs t0, TimeNs t1);
    // The class with the most spans among [begin, end) (the first such, in Resource order).
    static Resource dominant(const SpanLayer& layer, std::uint32_t begin, std::uint32_t end);
    static std::uint64_t weight(const SpanLayer& layer, std::uint32_t begin, std::uint32_t end) {
        return layer.weightSum[end] - layer.weightSum[begin];
    }

    // Visible spans of `layer` as runs, in order: a span at least minPx wide is a run of its own;
    // narrower neighbours closer than minPx fold into one run, cut at about maxFoldPx. `walked`
    // counts the spans looked at one by one (folded spans are skipped by binary search).
    static void fold(const SpanLayer& layer, const TimeAxis& axis, double minPx, double maxFoldPx,
                     std::vector<SpanRun>& out, std::uint64_t& walked);

  private:
    std::vector<SpanLayer> m_layers;
    std::size_t m_size = 0;
};

}  // namespace contend::widgets
