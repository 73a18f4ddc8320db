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

TimeNs medianOf(std::vector<TimeNs> v) {
    if (v.empty()) return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const TimeNs hi = v[mid];
    if (v.size() % 2 == 1) return hi;
    const TimeNs lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return lo + (hi - lo) / 2;
}

PairedHistogram makePairedHistogram(std::vector<TimeNs> beside, std::vector<TimeNs> apart, std::size_t bins) {
    PairedHistogram h;
    std::vector<TimeNs> pooled(beside);
    pooled.insert(pooled.end(), apart.begin(), apart.end());
    const DurationHistogram shared = makeHistogram(std::move(pooled), bins);
    auto fill = [&](DurationHistogram& side, const std::vector<TimeNs>& d) {
        side.lo = shared.lo;
        side.width = shared.width;
        side.counts.assign(shared.counts.size(), 0);
        if (side.counts.empty()) return;
        const TimeNs edge = side.binStart(side.counts.size());
        for (const TimeNs v : d) {
            ++side.counts[side.binOf(v)];
            if (v >= edge) ++side.overflow;
            side.max = std::max(side.max, v);
        }
    };
    fill(h.beside, beside);
    fill(h.apart, apart);
    h.medianBeside = medianOf(std::move(beside));
    h.medianApart = medianOf(std::move(apart));
    return h;
}

}  // namespace contend::widgets
