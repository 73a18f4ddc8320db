#include "core/analysis/overlap.h"

#include <algorithm>
#include <numeric>

namespace contend {

OverlapResult findOverlaps(const Trace& trace, const OperatorSet& ops) {
    OverlapResult r;
    const auto n = static_cast<std::uint32_t>(ops.size());
    const auto& slices = trace.slices();
    auto sliceOf = [&](std::uint32_t op) -> const Slice& { return slices[ops.slices[op]]; };

    // Ops are sorted per track; merge them into one global start order.
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
        const Slice& a = sliceOf(x);
        const Slice& b = sliceOf(y);
        return a.start != b.start ? a.start < b.start : x < y;
    });

    // Active set: ops that have started and not yet ended. Small (about one per stream), so a
    // vector with swap-removal beats a tree.
    std::vector<std::uint32_t> active;
    for (std::uint32_t op : order) {
        const Slice& s = sliceOf(op);
        for (std::size_t k = 0; k < active.size();) {
            if (sliceOf(active[k]).end() <= s.start) {
                active[k] = active.back();
                active.pop_back();
            } else {
                ++k;
            }
        }
        std::size_t considered = 0;
        for (std::uint32_t other : active) {
            const Slice& o = sliceOf(other);
            if (o.track == s.track) continue;  // nested host slices, not concurrency
            if (++considered > kMaxPartners) {
                r.capped = true;
                break;
            }
            const TimeNs end = std::min(o.end(), s.end());
            if (end <= s.start) continue;
            r.pairs.push_back({std::min(op, other), std::max(op, other), s.start, end});
        }
        active.push_back(op);
    }
    std::sort(r.pairs.begin(), r.pairs.end(), [](const OverlapPair& x, const OverlapPair& y) {
        if (x.start != y.start) return x.start < y.start;
        if (x.a != y.a) return x.a < y.a;
        return x.b < y.b;
    });

    // Per-op pair lists, then the union of each op's shared spans.
    r.pairBegin.assign(n + 1, 0);
    for (const auto& p : r.pairs) {
        r.pairBegin[p.a + 1]++;
        r.pairBegin[p.b + 1]++;
    }
    for (std::uint32_t i = 0; i < n; ++i) r.pairBegin[i + 1] += r.pairBegin[i];
    r.pairsOf.resize(r.pairBegin[n]);
    std::vector<std::uint32_t> fill(r.pairBegin.begin(), r.pairBegin.end() - 1);
    for (std::uint32_t k = 0; k < r.pairs.size(); ++k) {
        r.pairsOf[fill[r.pairs[k].a]++] = k;
        r.pairsOf[fill[r.pairs[k].b]++] = k;
    }
    r.overlappedNs.assign(n, 0);
    for (std::uint32_t op = 0; op < n; ++op) {
        // Pairs are sorted by start, so this op's list is too: one pass merges the spans.
        TimeNs total = 0, curStart = 0, curEnd = kTimeMin;
        for (std::uint32_t k = r.pairBegin[op]; k < r.pairBegin[op + 1]; ++k) {
            const OverlapPair& p = r.pairs[r.pairsOf[k]];
            if (p.start >= curEnd) {
                if (curEnd != kTimeMin) total += curEnd - curStart;
                curStart = p.start;
                curEnd = p.end;
            } else {
                curEnd = std::max(curEnd, p.end);
            }
        }
        if (curEnd != kTimeMin) total += curEnd - curStart;
        r.overlappedNs[op] = total;
    }
    return r;
}

}  // namespace contend
