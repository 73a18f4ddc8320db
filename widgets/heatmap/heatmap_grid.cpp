#include "widgets/heatmap/heatmap_grid.h"

#include <algorithm>
#include <cmath>

#include "widgets/common/text.h"

namespace contend::widgets {

TimeNs HeatmapGrid::binStart(int bin) const {
    if (bins <= 0) return t0;
    const double w = static_cast<double>(t1 - t0) / bins;
    return t0 + static_cast<TimeNs>(std::llround(w * bin));
}

int HeatmapGrid::binOf(TimeNs t) const {
    if (bins <= 0 || t < t0 || t >= t1) return -1;
    const int b = static_cast<int>(static_cast<double>(t - t0) / static_cast<double>(t1 - t0) * bins);
    return std::clamp(b, 0, bins - 1);
}

namespace {

// Adds `amount` spread evenly over [a, b) into the bins of one row.
void spread(HeatmapGrid& g, int row, TimeNs a, TimeNs b, double amount) {
    if (b <= a) b = a + 1;
    const TimeNs lo = std::max(a, g.t0), hi = std::min(b, g.t1);
    if (hi <= lo) return;
    const double perNs = amount / static_cast<double>(b - a);
    const int first = g.binOf(lo);
    const int last = g.binOf(hi - 1);
    for (int k = first; k <= last && k >= 0; ++k) {
        const TimeNs s = std::max(lo, g.binStart(k)), e = std::min(hi, g.binEnd(k));
        if (e > s)
            g.values[static_cast<std::size_t>(row) * static_cast<std::size_t>(g.bins) + static_cast<std::size_t>(k)] +=
                perNs * static_cast<double>(e - s);
    }
}

}  // namespace

HeatmapGrid buildHeatmap(const Trace& trace, const Report& report, TimeNs t0, TimeNs t1, int bins, HeatmapRows rows,
                         HeatmapMetric metric, const PressureSource& pressure, const std::vector<Resource>& alsoRows) {
    HeatmapGrid g;
    g.t0 = t0;
    g.t1 = std::max(t1, t0 + 1);
    g.bins = std::max(1, bins);
    g.rows = rows;
    g.metric = rows == HeatmapRows::Resources ? metric : HeatmapMetric::ExtraWait;
    const auto& slices = trace.slices();
    std::vector<int> rowOf;  // by Resource or by track
    if (rows == HeatmapRows::Resources) {
        std::vector<Resource> res = {Resource::Bandwidth, Resource::Compute, Resource::Cache, Resource::Issue,
                                     Resource::Sync};
        for (Resource extra : {Resource::Lock, Resource::Queue, Resource::Unknown}) {
            bool any = false;
            for (std::size_t k = 0; k < report.anomalies.size() && !any; ++k) any = report.anomalies.cause(k) == extra;
            const bool flagged = any || std::find(alsoRows.begin(), alsoRows.end(), extra) != alsoRows.end();
            if (flagged && g.metric == HeatmapMetric::ExtraWait) res.push_back(extra);
        }
        rowOf.assign(kResourceCount, -1);
        for (Resource r : res) {
            rowOf[static_cast<std::size_t>(r)] = static_cast<int>(g.labels.size());
            g.labels.push_back(resourceLabel(r).toStdString());
            g.rowResource.push_back(r);
        }
    } else {
        // Streams: device tracks in display order, plus any other track holding a flagged op.
        std::vector<char> flaggedTrack(trace.tracks().size(), 0);
        for (std::size_t k = 0; k < report.anomalies.size(); ++k)
            if (report.anomalies.slice(k) < slices.size()) flaggedTrack[slices[report.anomalies.slice(k)].track] = 1;
        rowOf.assign(trace.tracks().size(), -1);
        for (std::uint32_t t : trace.trackOrder()) {
            if (trace.tracks()[t].kind != TrackKind::DeviceStream && !flaggedTrack[t]) continue;
            rowOf[t] = static_cast<int>(g.labels.size());
            g.labels.push_back(trace.tracks()[t].label());
            g.rowTrack.push_back(t);
        }
    }
    g.values.assign(g.labels.size() * static_cast<std::size_t>(g.bins), 0.0);

    if (g.metric == HeatmapMetric::Pressure && pressure) {
        for (int r = 0; r < g.rowCount(); ++r)
            for (int k = 0; k < g.bins; ++k) {
                const double v = pressure(g.rowResource[static_cast<std::size_t>(r)], g.binStart(k), g.binEnd(k));
                g.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(g.bins) + static_cast<std::size_t>(k)] =
                    std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : 0.0;
            }
    } else {
        const AnomalyList& list = report.anomalies;  // compact fields: nothing is materialised
        for (std::size_t k = 0; k < list.size(); ++k) {
            const std::uint32_t slice = list.slice(k);
            const TimeNs excess = list.excessNs(k);
            if (slice >= slices.size() || excess <= 0) continue;
            const Slice& s = slices[slice];
            if (s.end() <= g.t0 || s.start >= g.t1) continue;
            const std::size_t key = rows == HeatmapRows::Resources ? static_cast<std::size_t>(list.cause(k)) : s.track;
            const int row = key < rowOf.size() ? rowOf[key] : -1;
            if (row < 0) continue;
            spread(g, row, s.start, s.end(), static_cast<double>(excess));
        }
        // Clusters: the gaps between their operators (barriers, launch overhead) are sync wait
        // in the report's summary, so they count in the sync row (or on their stream).
        for (const Cluster& cl : report.clusters) {
            if (cl.waitNs <= 0 || cl.end <= g.t0 || cl.start >= g.t1) continue;
            const std::size_t key =
                rows == HeatmapRows::Resources ? static_cast<std::size_t>(Resource::Sync) : cl.track;
            const int row = key < rowOf.size() ? rowOf[key] : -1;
            if (row >= 0) spread(g, row, cl.start, cl.end, static_cast<double>(cl.waitNs));
        }
        // Per unit of time: divide each cell by its bin's width.
        for (int k = 0; k < g.bins; ++k) {
            const double w = static_cast<double>(std::max<TimeNs>(g.binEnd(k) - g.binStart(k), 1));
            for (int r = 0; r < g.rowCount(); ++r)
                g.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(g.bins) +
                         static_cast<std::size_t>(k)] /= w;
        }
    }
    for (double v : g.values) g.maxValue = std::max(g.maxValue, v);
    return g;
}

bool sameHeatmapFindings(const Report& a, const Report& b) {
    if (&a == &b) return true;
    const AnomalyList& x = a.anomalies;
    const AnomalyList& y = b.anomalies;
    if (x.size() != y.size() || a.clusters.size() != b.clusters.size()) return false;
    for (std::size_t k = 0; k < x.size(); ++k)
        if (x.slice(k) != y.slice(k) || x.excessNs(k) != y.excessNs(k) || x.cause(k) != y.cause(k)) return false;
    for (std::size_t k = 0; k < a.clusters.size(); ++k) {
        const Cluster& p = a.clusters[k];
        const Cluster& q = b.clusters[k];
        if (p.start != q.start || p.end != q.end || p.waitNs != q.waitNs || p.track != q.track) return false;
    }
    return true;
}

std::vector<std::uint32_t> anomaliesAt(const Trace& trace, const Report& report, const HeatmapGrid& g, int row,
                                       int bin) {
    std::vector<std::uint32_t> out;
    if (row < 0 || row >= g.rowCount() || bin < 0 || bin >= g.bins) return out;
    const TimeNs a = g.binStart(bin), b = g.binEnd(bin);
    const auto& sl = trace.slices();
    const AnomalyList& list = report.anomalies;
    for (std::uint32_t i = 0; i < list.size(); ++i) {  // compact fields: nothing is materialised
        const std::uint32_t slice = list.slice(i);
        if (slice >= sl.size()) continue;
        const Slice& s = sl[slice];
        if (s.end() <= a || s.start >= b) continue;
        const bool match = g.rows == HeatmapRows::Resources
                               ? list.cause(i) == g.rowResource[static_cast<std::size_t>(row)]
                               : s.track == g.rowTrack[static_cast<std::size_t>(row)];
        if (match) out.push_back(i);
    }
    std::stable_sort(out.begin(), out.end(), [&](std::uint32_t x, std::uint32_t y) {
        return report.anomalies.score(x) > report.anomalies.score(y);
    });
    return out;
}

std::uint32_t windowAt(const Trace& trace, const Report& report, const HeatmapGrid& g, int row, int bin) {
    if (row < 0 || row >= g.rowCount() || bin < 0 || bin >= g.bins) return kNone;
    const TimeNs a = g.binStart(bin), b = g.binEnd(bin);
    std::uint32_t best = kNone;
    TimeNs bestLen = -1;
    for (std::uint32_t w = 0; w < report.windows.size(); ++w) {
        const ContentionWindow& cw = report.windows[w];
        if (cw.end <= a || cw.start >= b) continue;
        bool match = false;
        if (g.rows == HeatmapRows::Resources) {
            match = cw.resource == g.rowResource[static_cast<std::size_t>(row)];
        } else {
            const std::uint32_t track = g.rowTrack[static_cast<std::size_t>(row)];
            for (const WindowOp& op : cw.ops)
                if (op.slice < trace.slices().size() && trace.slices()[op.slice].track == track) match = true;
        }
        if (match && cw.end - cw.start > bestLen) {
            best = w;
            bestLen = cw.end - cw.start;
        }
    }
    return best;
}

}  // namespace contend::widgets
