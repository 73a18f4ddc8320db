#include "core/analysis/findings/pattern_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/analysis/scoring/exposure.h"

namespace contend {

namespace {

// Every `step`-th element, evenly over v, so that at most cap remain.
std::vector<TimeNs> thin(const std::vector<TimeNs>& v, std::size_t cap) {
    if (v.size() <= cap) return v;
    std::vector<TimeNs> out;
    out.reserve(cap);
    for (std::size_t i = 0; i < cap; ++i) out.push_back(v[i * v.size() / cap]);
    return out;
}

}  // namespace

std::vector<double> fdrAdjust(const std::vector<double>& p) {
    const std::size_t m = p.size();
    std::vector<std::size_t> order(m);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    std::vector<double> out(m, 1.0);
    double running = 1.0;
    for (std::size_t i = m; i-- > 0;) {
        const double adj = std::min(1.0, static_cast<double>(m) / static_cast<double>(i + 1) * p[order[i]]);
        running = std::min(running, adj);
        out[order[i]] = running;
    }
    return out;
}

RatioEstimate hodgesLehmannRatio(const std::vector<TimeNs>& beside, const std::vector<TimeNs>& apart, std::size_t cap,
                                 bool test) {
    RatioEstimate e;
    if (beside.empty() || apart.empty()) return e;
    if (test) e.p = mannWhitneyGreater(beside, apart);
    const std::vector<TimeNs> b = thin(beside, cap), a = thin(apart, cap);
    std::vector<double> la(a.size());
    for (std::size_t j = 0; j < a.size(); ++j) la[j] = std::log(static_cast<double>(std::max<TimeNs>(1, a[j])));
    std::vector<double> d;
    d.reserve(b.size() * a.size());
    for (TimeNs x : b) {
        const double lx = std::log(static_cast<double>(std::max<TimeNs>(1, x)));
        for (double ly : la) d.push_back(lx - ly);
    }
    const double n1 = static_cast<double>(b.size()), n2 = static_cast<double>(a.size());
    const double n = static_cast<double>(d.size());
    const double c = std::floor(n1 * n2 / 2.0 - 1.96 * std::sqrt(n1 * n2 * (n1 + n2 + 1) / 12.0));
    const std::size_t lo = static_cast<std::size_t>(std::clamp(c, 0.0, n - 1));
    const std::size_t hi = static_cast<std::size_t>(std::clamp(n - 1 - c, 0.0, n - 1));
    // The median, then the bounds' order statistics, in place (no copy of the n1 x n2
    // differences): the median's nth_element leaves d[0, m) the m smallest and d(m, n) the
    // largest, and lo <= m <= hi (c < n / 2), so each bound is selected within its side: the
    // same values as over the whole, with half the work.
    const std::size_t m = d.size() / 2;
    const auto at = [&](std::size_t k) { return d.begin() + static_cast<std::ptrdiff_t>(k); };
    std::nth_element(d.begin(), at(m), d.end());
    const double dm = d[m];
    const double mid = d.size() % 2 == 1 ? dm : (*std::max_element(d.begin(), at(m)) + dm) / 2;
    double dlo = dm, dhi = dm;
    if (lo <= m && hi >= m) {
        if (lo < m) {
            std::nth_element(d.begin(), at(lo), at(m));
            dlo = d[lo];
        }
        if (hi > m) {
            std::nth_element(at(m + 1), at(hi), d.end());
            dhi = d[hi];
        }
    } else {
        std::nth_element(d.begin(), at(lo), d.end());
        dlo = d[lo];
        std::nth_element(d.begin(), at(hi), d.end());
        dhi = d[hi];
    }
    e.ratio = std::exp(mid);
    e.low = std::exp(std::min(dlo, mid));
    e.high = std::exp(std::max(dhi, mid));
    return e;
}

}  // namespace contend
