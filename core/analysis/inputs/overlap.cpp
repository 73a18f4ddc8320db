#include "core/analysis/inputs/overlap.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <unordered_map>

#include "core/analysis/inputs/start_order.h"

namespace contend {

std::vector<std::uint32_t> deviceGroups(const Trace& trace, const OperatorSet& ops) {
    // The device of a track: its operators' device index (Kineto args.device, Nsight deviceId)
    // when they give one, else its process (Ascend's "Ascend Hardware", a host process).
    std::vector<std::string> key(trace.tracks().size());
    for (std::size_t t = 0; t < key.size(); ++t) key[t] = "p:" + trace.tracks()[t].pid;
    std::vector<char> seen(key.size(), 0);
    for (std::uint32_t sl : ops.slices) {
        const std::uint32_t t = trace.slices()[sl].track;
        if (seen[t]) continue;
        seen[t] = 1;
        const std::int32_t dev = trace.infos()[sl].device;
        if (dev >= 0) key[t] = "d:" + std::to_string(dev);
    }
    std::unordered_map<std::string, std::uint32_t> ids;
    std::vector<std::uint32_t> out(key.size());
    for (std::size_t t = 0; t < key.size(); ++t)
        out[t] = ids.emplace(key[t], static_cast<std::uint32_t>(ids.size())).first->second;
    return out;
}

OverlapResult findOverlaps(const Trace& trace, const OperatorSet& ops, const std::function<bool()>& keepGoing) {
    OverlapResult r;
    std::uint32_t tick = 0;
    auto stop = [&] { return (++tick & 0xFFFF) == 0 && keepGoing && !keepGoing(); };
    const auto n = static_cast<std::uint32_t>(ops.size());
    const auto& slices = trace.slices();
    auto sliceOf = [&](std::uint32_t op) -> const Slice& { return slices[ops.slices[op]]; };

    r.order = startOrder(trace, ops);
    const std::vector<std::uint32_t>& order = r.order;

    // Active ops per track: ops that have started and may not have ended. On a track, slices
    // nest (host call stacks, a stream's single queue), so the innermost - the one that ends
    // first - is at the back: expired ones come off the back. A stack can be as deep as the
    // trace (200k nested host calls), so nothing here may walk a whole stack per operator:
    // expired entries left under a live one (overlapping slices on one track, only in broken
    // traces) are compacted away once the stack has doubled since its last compaction.
    const std::size_t trackCount = trace.tracks().size();
    const std::vector<std::uint32_t> deviceOf = deviceGroups(trace, ops);
    // Each entry is (end, op): the walks below test ends without reading the op's slice.
    struct Active {
        TimeNs end;
        std::uint32_t op;
    };
    std::vector<std::vector<Active>> activeOf(trackCount);
    std::vector<std::size_t> compactAt(trackCount, 16);
    std::vector<std::uint32_t> busy;  // tracks with a non-empty stack
    // The pairs as the sweep finds them, (a, b) with a < b: a pair starts where its later op
    // starts, and ops are visited by start, so they come in start order; only the pairs of ops
    // that start together (a segment) are put in (a, b) order, each segment when it closes.
    struct Ops {
        std::uint32_t a, b;
    };
    std::vector<Ops> pairs;
    std::size_t segment = 0;  // where the current segment of equal starts begins
    TimeNs segmentStart = kTimeMin;
    auto closeSegment = [&] {
        if (pairs.size() - segment > 1)
            std::sort(pairs.begin() + static_cast<std::ptrdiff_t>(segment), pairs.end(),
                      [](const Ops& x, const Ops& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
        segment = pairs.size();
    };
    // Per op: its pairs counted (CSR sizes) and the union of their spans merged as they come
    // (each op's pairs come in start order; within a segment the order does not change a
    // union): the running span's end in curEnd; overlappedNs holds the closed spans' sum less
    // the running span's start (its end is added when it closes), so no array of starts (8 bytes
    // an operator of fresh pages: 80 MB at 10M).
    r.pairBegin.assign(n + 1, 0);
    r.overlappedNs.assign(n, 0);
    std::vector<TimeNs> curEnd(n, kTimeMin);
    auto merge = [&](std::uint32_t op, TimeNs start, TimeNs end) {
        TimeNs& ce = curEnd[op];
        if (start >= ce) {
            if (ce != kTimeMin) r.overlappedNs[op] += ce;
            r.overlappedNs[op] -= start;
            ce = end;
        } else {
            ce = std::max(ce, end);
        }
    };
    // The pairs' room: after the first sixteenth of the ops, what they made, scaled to all of
    // them (an eighth more), so the list is not grown by doubling from there (each growth copied
    // it and faulted fresh pages in). Only room: pages are touched as the pairs come.
    const std::size_t probe = n >= (1u << 16) ? n / 16 : 0;
    std::size_t visited = 0;
    for (std::uint32_t op : order) {
        if (stop()) return r;
        if (++visited == probe) pairs.reserve(pairs.size() * 18 + 1024);
        const Slice& s = sliceOf(op);
        if (s.start != segmentStart) {
            closeSegment();
            segmentStart = s.start;
        }
        std::size_t considered = 0;
        bool full = false;  // this op reached kMaxPartners
        for (std::size_t k = 0; k < busy.size();) {
            auto& stack = activeOf[busy[k]];
            while (!stack.empty() && stack.back().end <= s.start) stack.pop_back();
            if (stack.size() >= compactAt[busy[k]]) {
                std::erase_if(stack, [&](const Active& o) { return o.end <= s.start; });
                compactAt[busy[k]] = std::max<std::size_t>(16, 2 * stack.size());
            }
            if (stack.empty()) {
                busy[k] = busy.back();
                busy.pop_back();
                continue;
            }
            ++k;
            if (busy[k - 1] == s.track || full) continue;              // nested host slices, not concurrency
            if (deviceOf[busy[k - 1]] != deviceOf[s.track]) continue;  // another device shares nothing
            std::size_t walked = 0;
            const TimeNs sEnd = s.end();
            for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
                const TimeNs end = std::min(it->end, sEnd);
                if (++walked > 4 * kMaxPartners || (end > s.start && ++considered > kMaxPartners)) {
                    r.capped = full = true;
                    break;
                }
                if (end <= s.start) continue;  // an expired entry below a live one
                pairs.push_back({std::min(op, it->op), std::max(op, it->op)});
                ++r.pairBegin[op + 1];
                ++r.pairBegin[it->op + 1];
                merge(op, s.start, end);
                merge(it->op, s.start, end);
            }
        }
        auto& own = activeOf[s.track];
        if (own.empty()) busy.push_back(s.track);
        own.push_back({s.end(), op});
    }
    closeSegment();
    if (keepGoing && !keepGoing()) return r;
    for (std::uint32_t op = 0; op < n; ++op)
        if (curEnd[op] != kTimeMin) r.overlappedNs[op] += curEnd[op];
    curEnd = {};

    // Per-op partner lists, in the pairs' order: filled from the last pair back, each list from
    // its end, with pairBegin[op + 1] (the end of op's list) as op's cursor; it ends at op's
    // begin, so the offsets are then shifted one place (no copy of them as cursors).
    for (std::uint32_t i = 0; i < n; ++i) r.pairBegin[i + 1] += r.pairBegin[i];
    const std::uint32_t total = r.pairBegin[n];
    r.partnerOf.resize(total);
    for (auto it = pairs.rbegin(); it != pairs.rend(); ++it) {
        r.partnerOf[--r.pairBegin[it->b + 1]] = it->a;
        r.partnerOf[--r.pairBegin[it->a + 1]] = it->b;
    }
    std::copy(r.pairBegin.begin() + 1, r.pairBegin.end(), r.pairBegin.begin());
    r.pairBegin[n] = total;
    return r;
}

std::vector<OverlapPair> listPairs(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap) {
    std::vector<OverlapPair> out;
    out.reserve(overlap.pairCount());
    const auto n = static_cast<std::uint32_t>(overlap.pairBegin.empty() ? 0 : overlap.pairBegin.size() - 1);
    for (std::uint32_t a = 0; a < n; ++a)
        for (std::uint32_t k = overlap.pairBegin[a]; k < overlap.pairBegin[a + 1]; ++k) {
            const std::uint32_t b = overlap.partnerOf[k];
            if (b < a) continue;
            const auto [start, end] = pairSpan(trace, ops, a, b);
            out.push_back({a, b, start, end});
        }
    std::sort(out.begin(), out.end(), [](const OverlapPair& x, const OverlapPair& y) {
        return std::tie(x.start, x.a, x.b) < std::tie(y.start, y.a, y.b);
    });
    return out;
}

}  // namespace contend
