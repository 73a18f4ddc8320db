#include "widgets/timeline/range_measure.h"

#include <algorithm>
#include <utility>

namespace contend::widgets {

RangeMeasure measureRange(const Trace& trace, const Report* report, TimeNs t0, TimeNs t1) {
    RangeMeasure m;
    if (t1 < t0) std::swap(t0, t1);
    m.t0 = t0;
    m.t1 = t1;
    const auto& sl = trace.slices();
    // Per track, the clipped intervals; their union is the busy time.
    std::vector<std::vector<std::pair<TimeNs, TimeNs>>> parts(trace.tracks().size());
    for (const Slice& s : sl) {
        if (s.dur <= 0 || s.track >= parts.size()) continue;
        const TimeNs a = std::max(s.start, t0), b = std::min(s.end(), t1);
        if (a < b) parts[s.track].emplace_back(a, b);
    }
    for (std::uint32_t t = 0; t < parts.size(); ++t) {
        auto& p = parts[t];
        if (p.empty()) continue;
        std::sort(p.begin(), p.end());
        TrackBusy busy;
        busy.track = t;
        busy.slices = static_cast<std::uint32_t>(p.size());
        TimeNs from = p.front().first, to = p.front().second;
        for (const auto& [a, b] : p) {
            if (a > to) {
                busy.busyNs += to - from;
                from = a;
            }
            to = std::max(to, b);
        }
        busy.busyNs += to - from;
        m.tracks.push_back(busy);
    }
    std::stable_sort(m.tracks.begin(), m.tracks.end(),
                     [](const TrackBusy& a, const TrackBusy& b) { return a.busyNs > b.busyNs; });
    if (!report) return m;
    const AnomalyList& list = report->anomalies;
    for (std::uint32_t i = 0; i < list.size(); ++i) {  // compact fields: nothing is materialised
        const std::uint32_t slice = list.slice(i);
        const TimeNs s = slice < sl.size() ? sl[slice].start : list.startNs(i);
        const TimeNs e = slice < sl.size() ? sl[slice].end() : list.startNs(i) + list.durNs(i);
        if (s < t1 && e > t0) m.anomalies.push_back(i);
    }
    for (std::uint32_t i = 0; i < report->windows.size(); ++i)
        if (report->windows[i].start < t1 && report->windows[i].end > t0) m.windows.push_back(i);
    for (std::uint32_t i = 0; i < report->clusters.size(); ++i)
        if (report->clusters[i].start < t1 && report->clusters[i].end > t0) m.clusters.push_back(i);
    return m;
}

}  // namespace contend::widgets
