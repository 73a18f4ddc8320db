#include "widgets/timeline/report_overlay.h"

#include <algorithm>

namespace contend::widgets {

ReportOverlay::ReportOverlay(const Trace& trace, const TimelineIndex& index, const Report& report,
                             const SliceView& view)
    : m_coefficient(report.settings.coefficient) {
    const auto& slices = trace.slices();
    m_anomalyOf.assign(slices.size(), kNone);
    m_lanes.resize(index.laneCount());
    // Collect per lane, then sort by position (anomalies come sorted by score).
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> perLane(index.laneCount());
    for (std::uint32_t a = 0; a < report.anomalies.size(); ++a) {
        const std::uint32_t s = report.anomalies.slice(a);  // compact: nothing is materialised
        if (s >= slices.size()) continue;
        m_anomalyOf[s] = a;
        const std::uint32_t lane = index.laneOf(slices[s]);
        if (lane == kNone) continue;
        perLane[lane].emplace_back(index.positionOf(s), a);
    }
    for (std::size_t l = 0; l < perLane.size(); ++l) {
        auto& v = perLane[l];
        if (v.empty()) continue;
        std::sort(v.begin(), v.end());
        LaneFlags& f = m_lanes[l];
        std::vector<float> scores;
        scores.reserve(v.size());
        for (auto [pos, a] : v) {
            f.positions.push_back(pos);
            f.anomalies.push_back(a);
            scores.push_back(static_cast<float>(report.anomalies.score(a)));
        }
        f.scores = RangeMax(std::move(scores));
    }
    const std::size_t tracks = trace.tracks().size();
    std::vector<std::vector<Span>> windowSpans(tracks), clusterSpans(tracks);
    m_windows.reserve(report.windows.size());
    for (std::uint32_t w = 0; w < report.windows.size(); ++w) {
        const ContentionWindow& cw = report.windows[w];
        WindowSpan span{w, cw.start, cw.end, cw.resource, {}};
        for (const WindowOp& op : cw.ops)
            if (op.slice < slices.size()) span.tracks.push_back(slices[op.slice].track);
        std::sort(span.tracks.begin(), span.tracks.end());
        span.tracks.erase(std::unique(span.tracks.begin(), span.tracks.end()), span.tracks.end());
        for (std::uint32_t t : span.tracks)
            if (t < tracks) windowSpans[t].push_back({cw.start, cw.end, w, 1, cw.resource});
        m_windows.push_back(std::move(span));
    }
    for (std::uint32_t c = 0; c < report.clusters.size(); ++c) {
        const Cluster& cl = report.clusters[c];
        if (cl.track < tracks) clusterSpans[cl.track].push_back({cl.start, cl.end, c, cl.ops, Resource::Sync});
    }
    m_windowsOn.reserve(tracks);
    m_clustersOn.reserve(tracks);
    for (std::size_t t = 0; t < tracks; ++t) {
        m_windowsOn.emplace_back(std::move(windowSpans[t]));
        m_clustersOn.emplace_back(std::move(clusterSpans[t]));
    }
    // The critical path: slices with zero slack, per track in time order, touching or
    // overlapping ones (back-to-back kernels on a stream, a host call and its children) merged.
    // Only for a report whose what-if ran (the slack is the trace's, the path is the report's claim).
    if (report.whatIf.computed && view.hasSlack() && view.slices() == slices.size()) {
        std::vector<std::vector<std::uint32_t>> onPath(tracks);
        for (std::uint32_t s = 0; s < slices.size(); ++s)
            if (view.slackOf(s) == 0 && slices[s].track < tracks) onPath[slices[s].track].push_back(s);
        m_criticalOn.reserve(tracks);
        for (std::size_t t = 0; t < tracks; ++t) {
            std::vector<std::uint32_t>& v = onPath[t];
            m_criticalSlices += v.size();
            std::sort(v.begin(), v.end(),
                      [&slices](std::uint32_t a, std::uint32_t b) { return slices[a].start < slices[b].start; });
            std::vector<Span> spans;
            for (std::uint32_t s : v) {
                const Slice& sl = slices[s];
                if (!spans.empty() && sl.start <= spans.back().end) {
                    spans.back().end = std::max(spans.back().end, sl.end());
                    ++spans.back().weight;
                } else {
                    spans.push_back({sl.start, sl.end(), s, 1, Resource::Unknown});
                }
            }
            m_criticalOn.emplace_back(std::move(spans));
        }
    }
}

std::uint32_t ReportOverlay::maxAnomaly(std::uint32_t lane, std::uint32_t begin, std::uint32_t end) const {
    if (lane >= m_lanes.size()) return kNone;
    const LaneFlags& f = m_lanes[lane];
    if (f.positions.empty()) return kNone;
    const auto b = std::lower_bound(f.positions.begin(), f.positions.end(), begin) - f.positions.begin();
    const auto e = std::lower_bound(f.positions.begin(), f.positions.end(), end) - f.positions.begin();
    const std::int64_t k = f.scores.argmax(static_cast<std::size_t>(b), static_cast<std::size_t>(e));
    return k < 0 ? kNone : f.anomalies[static_cast<std::size_t>(k)];
}

std::uint32_t ReportOverlay::anomalyCount(std::uint32_t lane, std::uint32_t begin, std::uint32_t end) const {
    if (lane >= m_lanes.size() || begin >= end) return 0;
    const auto& p = m_lanes[lane].positions;
    const auto b = std::lower_bound(p.begin(), p.end(), begin);
    return static_cast<std::uint32_t>(std::lower_bound(b, p.end(), end) - b);
}

}  // namespace contend::widgets
