#include "core/trace/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contend {

std::string Track::label() const {
    std::string p = processName.empty() ? "pid " + pid : processName;
    std::string t = threadName.empty() ? "tid " + tid : threadName;
    while (!t.empty() && t.back() == ' ') t.pop_back();  // Kineto writes "stream 7 "
    return p + " / " + t;
}

std::string CounterSeries::label() const {
    std::string s = name;
    if (!id.empty()) s += " [" + id + "]";
    if (!key.empty() && key != name) s += " " + key;
    return s;
}

double CounterSeries::valueAt(TimeNs t) const {
    auto it = std::upper_bound(times.begin(), times.end(), t);
    if (it == times.begin()) return std::numeric_limits<double>::quiet_NaN();
    return values[static_cast<std::size_t>(it - times.begin()) - 1];
}

std::pair<std::uint32_t, std::uint32_t> Trace::visibleRange(std::uint32_t track, TimeNs t0, TimeNs t1) const {
    if (track >= m_tracks.size() || t1 < t0) return {0, 0};
    const Track& tr = m_tracks[track];
    auto first = m_slices.begin() + tr.sliceBegin;
    auto last = m_slices.begin() + tr.sliceEnd;
    if (first == last) return {tr.sliceBegin, tr.sliceBegin};
    // A slice intersects [t0, t1) when start < t1 and end > t0 (instants: start in [t0, t1)).
    // Every such slice starts at or after t0 - maxDur, so search from there.
    TimeNs lo = t0 - tr.maxDur;
    if (lo > t0) lo = kTimeMin;  // overflow guard
    auto b = std::lower_bound(first, last, lo, [](const Slice& s, TimeNs v) { return s.start < v; });
    auto e = std::lower_bound(b, last, t1, [](const Slice& s, TimeNs v) { return s.start < v; });
    // The range may begin with a few slices that ended before t0 (only slices that started
    // within maxDur of t0 are considered); callers check end() > t0 when drawing.
    return {static_cast<std::uint32_t>(b - m_slices.begin()), static_cast<std::uint32_t>(e - m_slices.begin())};
}

std::size_t Trace::deviceSliceCount() const {
    return static_cast<std::size_t>(
        std::count_if(m_slices.begin(), m_slices.end(), [](const Slice& s) { return s.is(kSliceDevice); }));
}

float Trace::metric(std::uint32_t slice, std::string_view key) const {
    const SliceInfo& info = m_infos[slice];
    for (std::uint32_t k = 0; k < info.metricsCount; ++k) {
        const Metric& m = m_metrics[info.metricsBegin + k];
        if (m_strings.view(m.key) == key) return m.value;
    }
    return std::numeric_limits<float>::quiet_NaN();
}

const char* trackKindName(TrackKind k) {
    switch (k) {
    case TrackKind::DeviceStream: return "device";
    case TrackKind::HostThread: return "host";
    default: return "other";
    }
}

}  // namespace contend
