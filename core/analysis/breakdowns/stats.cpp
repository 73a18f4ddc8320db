#include "core/analysis/breakdowns/stats.h"

#include <algorithm>
#include <cmath>

namespace contend::breakdowns {

double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

double mean(const std::vector<double>& v) {
    if (v.empty()) return 0;
    double sum = 0;
    for (double x : v) sum += x;
    return sum / static_cast<double>(v.size());
}

Intervals mergedIntervals(const Trace& trace, const std::vector<std::uint32_t>& ops) {
    Intervals out;
    const std::vector<Slice>& slices = trace.slices();
    for (std::uint32_t i : ops) {
        const Slice& s = slices[i];
        if (!out.empty() && s.start <= out.back().second)
            out.back().second = std::max(out.back().second, s.end());
        else
            out.emplace_back(s.start, s.end());
    }
    return out;
}

std::string inRange(std::string why, const TimeRange& range) {
    if (!range.whole()) why += " in the range";
    return why;
}

Intervals clipped(const Intervals& a, const TimeRange& range) {
    if (range.whole()) return a;
    Intervals out;
    for (const auto& [s, e] : a)
        if (range.runs(s, e)) out.emplace_back(std::max(s, range.begin), std::min(e, range.end));
    return out;
}

TimeNs totalLength(const Intervals& a) {
    TimeNs sum = 0;
    for (const auto& [s, e] : a) sum += e - s;
    return sum;
}

TimeNs intersectionLength(const Intervals& a, const Intervals& b) {
    TimeNs sum = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const TimeNs lo = std::max(a[i].first, b[j].first);
        const TimeNs hi = std::min(a[i].second, b[j].second);
        if (hi > lo) sum += hi - lo;
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    return sum;
}

}  // namespace contend::breakdowns
