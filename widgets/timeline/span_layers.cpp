#include "widgets/timeline/span_layers.h"

#include <algorithm>

#include <queue>

namespace contend::widgets {

SpanLayers::SpanLayers(std::vector<Span> spans) : m_size(spans.size()) {
    // Spans mostly come in start order (a report's windows and clusters do): sorted only if not.
    const auto byStart = [](const Span& a, const Span& b) {
        return a.start != b.start ? a.start < b.start : a.end < b.end;
    };
    if (!std::is_sorted(spans.begin(), spans.end(), byStart)) std::stable_sort(spans.begin(), spans.end(), byStart);
    // First-fit by the earliest free layer: a min-heap of (last end, layer) gives the fewest
    // layers an interval set allows (its largest overlap).
    using Free = std::pair<TimeNs, std::uint32_t>;
    std::priority_queue<Free, std::vector<Free>, std::greater<>> free;
    for (const Span& s0 : spans) {
        Span s = s0;
        s.end = std::max(s.end, s.start);
        std::uint32_t l;
        if (!free.empty() && free.top().first <= s.start) {  // touching is not overlapping
            l = free.top().second;
            free.pop();
        } else {
            l = static_cast<std::uint32_t>(m_layers.size());
            m_layers.emplace_back();
            m_layers.back().weightSum.push_back(0);
            m_layers.back().classSum.push_back({});
        }
        SpanLayer& layer = m_layers[l];
        layer.starts.push_back(s.start);
        layer.ends.push_back(s.end);
        layer.ids.push_back(s.id);
        layer.weightSum.push_back(layer.weightSum.back() + s.weight);
        auto counts = layer.classSum.back();
        const auto c = static_cast<std::size_t>(s.cls);
        if (c < kResourceCount) ++counts[c];
        layer.classSum.push_back(counts);
        free.emplace(s.end, l);
    }
}

std::pair<std::uint32_t, std::uint32_t> SpanLayers::visible(const SpanLayer& layer, TimeNs t0, TimeNs t1) {
    const auto first = std::upper_bound(layer.ends.begin(), layer.ends.end(), t0) - layer.ends.begin();
    const auto last = std::lower_bound(layer.starts.begin(), layer.starts.end(), t1) - layer.starts.begin();
    return {static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(std::max(first, last))};
}

Resource SpanLayers::dominant(const SpanLayer& layer, std::uint32_t begin, std::uint32_t end) {
    std::size_t best = static_cast<std::size_t>(Resource::Unknown);
    std::uint32_t bestCount = 0;
    for (std::size_t c = 0; c < kResourceCount; ++c) {
        const std::uint32_t n = layer.classSum[end][c] - layer.classSum[begin][c];
        if (n > bestCount) best = c, bestCount = n;
    }
    return static_cast<Resource>(best);
}

void SpanLayers::fold(const SpanLayer& layer, const TimeAxis& ax, double minPx, double maxFoldPx,
                      std::vector<SpanRun>& out, std::uint64_t& walked) {
    auto [i, e] = visible(layer, ax.t0, ax.t1);
    const TimeNs* starts = layer.starts.data();
    const TimeNs* ends = layer.ends.data();
    while (i < e) {
        ++walked;
        const double x0 = ax.toPx(starts[i]);
        const double x1 = ax.toPx(ends[i]);
        if (x1 - x0 >= minPx) {
            out.push_back({i, i + 1, x0, x1});
            ++i;
            continue;
        }
        // Everything ending within minPx of the run's reach joins, found by binary search on the
        // ends; then the next span joins if it is narrow and close. Each step reaches at most
        // about 2 * minPx further, so a run costs O(width / minPx) searches, never its spans.
        TimeNs reach = ends[i];
        std::uint32_t j = i + 1;
        for (;;) {
            const TimeNs next = ax.toTime(ax.toPx(reach) + minPx);
            const auto k = static_cast<std::uint32_t>(std::lower_bound(ends + j, ends + e, next) - ends);
            if (k > j) {
                reach = std::max(reach, ends[k - 1]);
                j = k;
            }
            if (j >= e) break;
            ++walked;
            const double nx0 = ax.toPx(starts[j]);
            const double nx1 = ax.toPx(ends[j]);
            if (nx1 - nx0 >= minPx || nx0 - ax.toPx(reach) > minPx) break;
            if (ax.toPx(reach) - x0 >= maxFoldPx) break;
            reach = std::max(reach, ends[j]);
            ++j;
        }
        out.push_back({i, j, x0, ax.toPx(reach)});
        i = j;
    }
}

}  // namespace contend::widgets
