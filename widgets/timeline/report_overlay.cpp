#include "widgets/timeline/report_overlay.h"

#include <algorithm>

#include "core/common/parallel.h"

namespace contend::widgets {

namespace {

// Above this many flagged slices a share of the trace's, the per-lane positions come from one
// walk over the lanes in order (sequential reads, no sort) rather than a sort of the anomalies.
constexpr std::size_t kWalkLanesShare = 16;
// Below this many findings the two halves of the build are not worth a thread.
constexpr std::size_t kSplitFindings = 20000;

}  // namespace

ReportOverlay::ReportOverlay(const Trace& trace, const TimelineIndex& index, const Report& report,
                             const SliceView& view)
    : m_coefficient(report.settings.coefficient) {
    const std::size_t spans = report.windows.size() + report.clusters.size();
    if (twoCores() && report.anomalies.size() >= kSplitFindings && spans >= kSplitFindings)
        runBeside([&] { indexSpans(trace, report); }, [&] { indexAnomalies(trace, index, report); });
    else {
        indexAnomalies(trace, index, report);
        indexSpans(trace, report);
    }
    // Only for a report whose what-if ran (the slack is the trace's, the path is the report's claim).
    if (report.whatIf.computed && view.hasSlack() && view.slices() == trace.slices().size())
        indexCriticalPath(trace, view);
}

void ReportOverlay::indexAnomalies(const Trace& trace, const TimelineIndex& index, const Report& report) {
    const auto& slices = trace.slices();
    const AnomalyList& list = report.anomalies;  // compact: nothing is materialised
    m_anomalyOf.assign(slices.size(), kNone);
    // The scores read once in list order into a compact array: a lane's anomalies come in
    // position order, and gathering each score from its row (tens of bytes apart, in score
    // order) was a cache miss per anomaly.
    std::vector<float> scoreOf(list.size());
    for (std::uint32_t a = 0; a < list.size(); ++a) {
        scoreOf[a] = static_cast<float>(list.score(a));
        if (list.slice(a) < slices.size()) m_anomalyOf[list.slice(a)] = a;
    }
    m_lanes.resize(index.laneCount());
    auto finish = [&](LaneFlags& f) {
        std::vector<float> scores;
        scores.reserve(f.anomalies.size());
        for (std::uint32_t a : f.anomalies) scores.push_back(scoreOf[a]);
        f.scores = RangeMax(std::move(scores));
    };
    if (list.size() * kWalkLanesShare >= slices.size()) {
        // Many flagged: each lane's slices in position order, those flagged picked out.
        for (std::uint32_t l = 0; l < index.laneCount(); ++l) {
            const std::vector<std::uint32_t>& order = index.lane(l).slices;
            LaneFlags& f = m_lanes[l];
            for (std::uint32_t p = 0; p < order.size(); ++p) {
                const std::uint32_t a = m_anomalyOf[order[p]];
                if (a == kNone) continue;
                f.positions.push_back(p);
                f.anomalies.push_back(a);
            }
            if (!f.positions.empty()) finish(f);
        }
        return;
    }
    // Few flagged: collected per lane, then sorted by position (anomalies come sorted by score).
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> perLane(index.laneCount());
    for (std::uint32_t a = 0; a < list.size(); ++a) {
        const std::uint32_t s = list.slice(a);
        if (s >= slices.size()) continue;
        const std::uint32_t lane = index.laneOf(slices[s]);
        if (lane == kNone) continue;
        perLane[lane].emplace_back(index.positionOf(s), a);
    }
    for (std::size_t l = 0; l < perLane.size(); ++l) {
        auto& v = perLane[l];
        if (v.empty()) continue;
        std::sort(v.begin(), v.end());
        LaneFlags& f = m_lanes[l];
        f.positions.reserve(v.size());
        f.anomalies.reserve(v.size());
        for (auto [pos, a] : v) {
            f.positions.push_back(pos);
            f.anomalies.push_back(a);
        }
        finish(f);
    }
}

void ReportOverlay::indexSpans(const Trace& trace, const Report& report) {
    const auto& slices = trace.slices();
    const std::size_t tracks = trace.tracks().size();
    std::vector<std::vector<Span>> windowSpans(tracks), clusterSpans(tracks);
    const WindowList& list = report.windows;
    m_windows.reserve(list.size());
    // A report built from a prepared analysis knows each window's tracks without building the
    // windows (their operators, names and shares: most of a slider step at 1M operators); one
    // read from a file has them built and lists their operators.
    const bool compact = list.compactTracks();
    if (compact) {
        // Each track's spans counted first: one allocation per track instead of growing them.
        std::vector<std::size_t> perTrack(tracks, 0);
        std::size_t ids = 0;
        for (std::uint32_t w = 0; w < list.size(); ++w)
            for (const std::uint32_t t : list.tracks(w)) {
                ++ids;
                if (t < tracks) ++perTrack[t];
            }
        for (std::size_t t = 0; t < tracks; ++t) windowSpans[t].reserve(perTrack[t]);
        m_windowTracks.reserve(ids);
    }
    std::vector<std::uint32_t> own;  // one window's tracks, reused
    for (std::uint32_t w = 0; w < list.size(); ++w) {
        own.clear();
        if (compact) {
            const std::span<const std::uint32_t> t = list.tracks(w);
            own.assign(t.begin(), t.end());
        } else {
            for (const WindowOp& op : list[w].ops)
                if (op.slice < slices.size()) own.push_back(slices[op.slice].track);
            std::sort(own.begin(), own.end());
            own.erase(std::unique(own.begin(), own.end()), own.end());
        }
        const TimeNs start = list.start(w), end = list.end(w);
        const Resource resource = list.resource(w);
        WindowSpan span{w, start, end, resource, static_cast<std::uint32_t>(m_windowTracks.size()), 0};
        m_windowTracks.insert(m_windowTracks.end(), own.begin(), own.end());
        span.tracksEnd = static_cast<std::uint32_t>(m_windowTracks.size());
        for (std::uint32_t t : own)
            if (t < tracks) windowSpans[t].push_back({start, end, w, 1, resource});
        m_windows.push_back(span);
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
}

// The critical path: slices with zero slack, per track in time order, touching or overlapping
// ones (back-to-back kernels on a stream, a host call and its children) merged.
void ReportOverlay::indexCriticalPath(const Trace& trace, const SliceView& view) {
    const auto& slices = trace.slices();
    const std::size_t tracks = trace.tracks().size();
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
