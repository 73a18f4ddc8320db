#include "core/analysis/findings/pattern_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "core/analysis/scoring/exposure.h"

namespace contend {

namespace {

constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;

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

namespace {

// Doubles as unsigned keys in the same order (negative ones reversed, -0 just below +0), so a
// bisection over the keys visits every double between two values.
std::uint64_t orderKey(double v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return (bits & kSignBit) != 0 ? ~bits : bits | kSignBit;
}
double fromOrderKey(std::uint64_t key) {
    const std::uint64_t bits = (key & kSignBit) != 0 ? key & ~kSignBit : ~key;
    double v = 0;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

// The k-th smallest (from 0) of x - y over every x in `xs` and y in `ys` (both ascending), the
// difference computed as written, so the value is the one a selection over all n1 x n2 of them
// would find. In a sorted matrix: for each x the differences at most v are those from the
// first y with x - y <= v on, and that y only moves right as x grows, so counting them is one
// walk over both (O(n1 + n2)); a bisection over the doubles between the smallest and the
// largest difference (at most 64 counts) ends on the least value with more than k at or below
// it, which is the k-th difference itself. Selecting among the four million differences of two
// samples of 2000 took 40-60 ms per pattern candidate (most of "pairing windows" on 1M
// contended kernels); this takes well under a millisecond and no memory.
double kthDifference(const std::vector<double>& xs, const std::vector<double>& ys, std::size_t k) {
    auto atMost = [&](double v) {
        std::size_t n = 0, j = 0;
        for (const double x : xs) {
            while (j < ys.size() && x - ys[j] > v) ++j;
            n += ys.size() - j;
        }
        return n;
    };
    std::uint64_t lo = orderKey(xs.front() - ys.back()) - 1;  // below every difference: none at or below
    std::uint64_t hi = orderKey(xs.back() - ys.front());      // the largest: all at or below
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (atMost(fromOrderKey(mid)) > k)
            hi = mid;
        else
            lo = mid;
    }
    return fromOrderKey(hi);
}

}  // namespace

RatioEstimate hodgesLehmannRatio(const std::vector<TimeNs>& beside, const std::vector<TimeNs>& apart, std::size_t cap,
                                 bool test) {
    RatioEstimate e;
    if (beside.empty() || apart.empty()) return e;
    if (test) e.p = mannWhitneyGreater(beside, apart);
    const std::vector<TimeNs> b = thin(beside, cap), a = thin(apart, cap);
    auto logs = [](const std::vector<TimeNs>& v) {
        std::vector<double> out(v.size());
        for (std::size_t j = 0; j < v.size(); ++j) out[j] = std::log(static_cast<double>(std::max<TimeNs>(1, v[j])));
        std::sort(out.begin(), out.end());
        return out;
    };
    const std::vector<double> lb = logs(b), la = logs(a);
    // The pairwise log-ratios' median and the order statistics C and n1 n2 - C + 1 (from 0: c and
    // n - 1 - c) of the Mann-Whitney interval, each selected exactly (kthDifference).
    const double n1 = static_cast<double>(b.size()), n2 = static_cast<double>(a.size());
    const std::size_t count = b.size() * a.size();
    const auto n = static_cast<double>(count);
    const double c = std::floor(n1 * n2 / 2.0 - 1.96 * std::sqrt(n1 * n2 * (n1 + n2 + 1) / 12.0));
    const auto lo = static_cast<std::size_t>(std::clamp(c, 0.0, n - 1));
    const auto hi = static_cast<std::size_t>(std::clamp(n - 1 - c, 0.0, n - 1));
    const std::size_t m = count / 2;
    const double dm = kthDifference(lb, la, m);
    const double mid = count % 2 == 1 ? dm : (kthDifference(lb, la, m - 1) + dm) / 2;
    const double dlo = lo == m ? dm : kthDifference(lb, la, lo);
    const double dhi = hi == m ? dm : kthDifference(lb, la, hi);
    e.ratio = std::exp(mid);
    e.low = std::exp(std::min(dlo, mid));
    e.high = std::exp(std::max(dhi, mid));
    return e;
}

}  // namespace contend
