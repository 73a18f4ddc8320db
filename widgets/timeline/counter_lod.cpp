#include "widgets/timeline/counter_lod.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace contend::widgets {

CounterLod::CounterLod(const CounterSeries& series) : CounterLod(series.values) {}

CounterLod::CounterLod(std::vector<double> values) {
    m_levels.push_back(std::move(values));
    for (double& v : m_levels[0])
        if (!std::isfinite(v)) v = 0;  // a NaN would poison every maximum above it
    if (!m_levels[0].empty()) {
        auto [lo, hi] = std::minmax_element(m_levels[0].begin(), m_levels[0].end());
        m_min = *lo;
        m_max = *hi;
    }
    while (m_levels.back().size() > kFan) {
        const auto& prev = m_levels.back();
        std::vector<double> next((prev.size() + kFan - 1) / kFan, -std::numeric_limits<double>::infinity());
        for (std::size_t i = 0; i < prev.size(); ++i) next[i / kFan] = std::max(next[i / kFan], prev[i]);
        m_levels.push_back(std::move(next));
    }
}

double CounterLod::maxOf(std::size_t a, std::size_t b) const {
    double r = -std::numeric_limits<double>::infinity();
    if (m_levels.empty()) return r;
    b = std::min(b, m_levels[0].size());
    for (std::size_t level = 0; level < m_levels.size() && a < b; ++level) {
        const auto& v = m_levels[level];
        const bool top = level + 1 == m_levels.size();
        // Partial blocks at both ends at this level, whole blocks one level up.
        while (a < b && (top || a % kFan != 0)) r = std::max(r, v[a++]);
        while (a < b && b % kFan != 0) r = std::max(r, v[--b]);
        a /= kFan;
        b /= kFan;
    }
    return r;
}

namespace {
// First index in [from, n) whose time is > t (Strict) or >= t. Probes `guess` ahead first (where
// the answer usually is), then gallops forward or binary-searches back from there.
template <bool Strict>
std::size_t find(const std::vector<TimeNs>& v, std::size_t from, TimeNs t, std::size_t guess) {
    auto before = [t](TimeNs x) { return Strict ? x <= t : x < t; };
    const std::size_t n = v.size();
    std::size_t lo = std::min(from, n), hi = n;
    const std::size_t probe = std::min(n, lo + guess);
    if (probe < n && !before(v[probe])) {
        // The answer is in [lo, probe]: gallop back from the probe, it is usually close.
        hi = probe;
        std::size_t step = 1;
        while (hi > lo + step && !before(v[hi - step])) {
            hi -= step;
            step *= 2;
        }
        lo = hi > lo + step ? hi - step : lo;
    } else {
        lo = probe;  // gallop forward from the probe
        std::size_t step = std::max<std::size_t>(guess, 1);
        hi = lo;
        while (hi < n && before(v[hi])) {
            lo = hi + 1;
            hi = std::min(n, hi + step);
            step *= 2;
        }
    }
    auto first = v.begin() + static_cast<std::ptrdiff_t>(lo);
    auto last = v.begin() + static_cast<std::ptrdiff_t>(hi);
    auto it = Strict ? std::upper_bound(first, last, t) : std::lower_bound(first, last, t);
    return static_cast<std::size_t>(it - v.begin());
}
}  // namespace

double CounterLod::maxOver(const CounterSeries& s, TimeNs t0, TimeNs t1) const {
    Cursor c;
    return maxOver(s, t0, t1, c);
}

double CounterLod::maxOver(const std::vector<TimeNs>& t, TimeNs t0, TimeNs t1, Cursor& c) const {
    if (c.pos > t.size() || (c.pos > 0 && t[c.pos - 1] > t0)) c = Cursor{};  // not valid for t0
    const std::size_t a = find<true>(t, c.pos, t0, 0);                       // first sample after t0
    const std::size_t b = find<false>(t, a, t1, c.step);                     // first sample at or after t1
    c.pos = b;
    c.step = std::max<std::size_t>(b - a, 1);
    if (a == 0 && b == 0) return std::numeric_limits<double>::quiet_NaN();  // before the first sample
    double r = a > 0 ? m_levels[0][a - 1] : -std::numeric_limits<double>::infinity();
    return std::max(r, maxOf(a, b));
}

}  // namespace contend::widgets
