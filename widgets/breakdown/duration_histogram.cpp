#include "widgets/breakdown/duration_histogram.h"

#include <algorithm>

namespace contend::widgets {

std::size_t DurationHistogram::binOf(TimeNs d) const {
    if (counts.empty() || d <= lo) return 0;
    const auto b = static_cast<std::size_t>((d - lo) / std::max<TimeNs>(width, 1));
    return std::min(b, counts.size() - 1);
}

DurationHistogram makeHistogram(std::vector<TimeNs> d, std::size_t bins) {
    DurationHistogram h;
    if (d.empty() || bins == 0) return h;
    std::sort(d.begin(), d.end());
    h.lo = d.front();
    h.max = d.back();
    // With few samples every one is shown; with many, the top 1% may sit in the last bin.
    const TimeNs p99 = d.size() >= 100 ? d[(d.size() - 1) * 99 / 100] : d.back();
    const TimeNs hi = std::max(p99, h.lo + 1);
    // Wide enough that `bins` bins cover [lo, p99] with p99 inside the last one.
    h.width = (hi - h.lo) / static_cast<TimeNs>(bins) + 1;
    // Fewer bins than asked when the range is narrower than one ns per bin.
    const std::size_t n =
        static_cast<std::size_t>(std::min<TimeNs>(static_cast<TimeNs>(bins), (hi - h.lo) / h.width + 1));
    h.counts.assign(std::max<std::size_t>(n, 1), 0);
    const TimeNs edge = h.binStart(h.counts.size());
    for (TimeNs v : d) {
        ++h.counts[h.binOf(v)];
        if (v >= edge) ++h.overflow;
    }
    return h;
}

}  // namespace contend::widgets
