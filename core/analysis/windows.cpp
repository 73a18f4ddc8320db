#include "core/analysis/windows.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace contend {

bool paid(const BaselineResult& base, const OperatorSet& ops, std::uint32_t op) {
    const SignatureBaseline& b = base.signatures[ops.signatureOf[op]];
    if (b.rule == BaselineRule::Single) return false;
    const TimeNs e = base.excessNs[op];
    return e > 0 && base.score[op] >= 1.0f && static_cast<double>(e) >= kPaidFraction * static_cast<double>(b.baselineNs);
}

namespace {

// Resource two operators most likely shared when the trace has no counters, from their types.
Resource resourceFromTypes(const std::string& x, const std::string& y) {
    auto memory = [](const std::string& t) { return t == "memcpy" || t == "memset"; };
    auto compute = [](const std::string& t) { return t == "matmul" || t == "conv" || t == "attention"; };
    if (memory(x) || memory(y)) return Resource::Bandwidth;
    if (compute(x) && compute(y)) return Resource::Compute;
    return Resource::Unknown;
}

}  // namespace

std::vector<WindowCandidate> findWindowCandidates(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap,
                                                  const BaselineResult& base, const PressureResult& pressure,
                                                  const ResourceTimelines& timelines,
                                                  const std::vector<Resource>& causeOf,
                                                  const std::function<bool()>& keepGoing) {
    std::vector<WindowCandidate> out;
    const auto& slices = trace.slices();
    const bool anyCounters = timelines.any();
    std::uint32_t tick = 0;
    for (const OverlapPair& pr : overlap.pairs) {
        if ((++tick & 0xFFFF) == 0 && keepGoing && !keepGoing()) return out;
        // A collective's extra time is waiting for its peers, not contention with its neighbour.
        auto payer = [&](std::uint32_t op) {
            return paid(base, ops, op) && (causeOf.empty() || causeOf[op] != Resource::Sync);
        };
        const bool paidA = payer(pr.a), paidB = payer(pr.b);
        const Slice& sa = slices[ops.slices[pr.a]];
        const Slice& sb = slices[ops.slices[pr.b]];
        const float payerScore = std::max(paidA ? base.score[pr.a] : 0.0f, paidB ? base.score[pr.b] : 0.0f);
        if (!anyCounters) {
            if (!paidA && !paidB) continue;
            WindowCandidate c{pr.a, pr.b, Resource::Unknown, false, 0, pr.start, pr.end, payerScore};
            c.ratio = static_cast<float>(static_cast<double>(pr.end - pr.start) / static_cast<double>(std::min(sa.dur, sb.dur)));
            c.resource = resourceFromTypes(ops.signatures[ops.signatureOf[pr.a]].opType, ops.signatures[ops.signatureOf[pr.b]].opType);
            out.push_back(c);
            continue;
        }
        // The paying operator's cause, preferred when it is a resource this pair shares.
        Resource preferred = Resource::None;
        if (!causeOf.empty()) {
            const std::uint32_t payer = paidA && (!paidB || base.excessNs[pr.a] >= base.excessNs[pr.b]) ? pr.a : pr.b;
            preferred = causeOf[payer];
        }
        WindowCandidate best{pr.a, pr.b, Resource::Unknown, true, 0, pr.start, pr.end};
        bool bestPreferred = false;
        for (std::size_t p = 0; p < kPressureResources; ++p) {
            const ResourceTimeline& tl = timelines.pressure[p];
            if (tl.empty()) continue;
            const Resource r = kPressureResource[p];
            const float da = pressure.demand[ops.signatureOf[pr.a]][p];
            const float db = pressure.demand[ops.signatureOf[pr.b]][p];
            if (static_cast<double>(tl.medianSpacing()) > kCoarseSampling * static_cast<double>(std::min(sa.dur, sb.dur)))
                continue;   // sampled too coarsely to speak for these two
            // Under pressure: at or above its high threshold during the shared span...
            if (tl.highTime(pr.start, pr.end) <= 0) continue;
            if (r != Resource::Cache) {
                // Both use it, and together with whatever else ran they asked for more than
                // the resource has: a saturated counter alone may be one operator using it all.
                if (!(da >= kUseThreshold) || !(db >= kUseThreshold)) continue;
                if (loadDuring(ops, overlap, pressure, trace, pr.a, p, pr.start, pr.end) < 1.0 + kOverload) continue;
            } else {
                // The cache is more thrashed than either operator thrashes it on its own.
                const double own = std::max(ownCachePressure(pressure, ops.signatureOf[pr.a]),
                                            ownCachePressure(pressure, ops.signatureOf[pr.b]));
                if (tl.mean(pr.start, pr.end) < own + kCacheRise) continue;
            }
            // A user's high-utilisation period is its whole run (a trace has no per-op use over
            // time), so the periods overlap over the shared span.
            const auto ratio = static_cast<float>(static_cast<double>(pr.end - pr.start) /
                                                  static_cast<double>(std::min(sa.dur, sb.dur)));
            const bool isPreferred = r == preferred;
            if (best.ratio == 0 || (isPreferred && !bestPreferred) || (isPreferred == bestPreferred && ratio > best.ratio)) {
                best.resource = r;
                best.ratio = ratio;
                bestPreferred = isPreferred;
            }
        }
        if (best.ratio > 0) {
            out.push_back(best);
            continue;
        }
        // Lock: a payer whose cause is a lock, with an operator that was already running when
        // it began (one of those holds what it waits for). No counter measures a lock, so the
        // ratio is the plain one.
        auto waiting = [&](std::uint32_t op, const Slice& s) {
            return (op == pr.a ? paidA : paidB) && !causeOf.empty() && causeOf[op] == Resource::Lock && pr.start == s.start;
        };
        if (waiting(pr.a, sa) || waiting(pr.b, sb)) {
            WindowCandidate c{pr.a, pr.b, Resource::Lock, false, 0, pr.start, pr.end, payerScore};
            c.ratio = static_cast<float>(static_cast<double>(pr.end - pr.start) / static_cast<double>(std::min(sa.dur, sb.dur)));
            out.push_back(c);
        }
    }
    return out;
}

std::vector<ContentionWindow> buildWindows(const std::vector<WindowCandidate>& candidates, double overlapRatio,
                                           double coefficient,
                                           const OperatorSet& ops, const BaselineResult& base,
                                           const ResourceTimelines& timelines,
                                           std::vector<std::pair<std::uint32_t, std::uint32_t>>* membership) {
    std::vector<ContentionWindow> windows;
    // Per window: (op, time in window) pairs, summed below.
    std::vector<std::vector<std::pair<std::uint32_t, TimeNs>>> timeIn;
    // Open window per resource (index into windows), chained while spans touch.
    std::array<std::int64_t, kResourceCount> open;
    open.fill(-1);
    const float threshold = static_cast<float>(overlapRatio) - 1e-6f;
    for (const WindowCandidate& c : candidates) {
        if (c.ratio < threshold || !(static_cast<double>(c.payerScore) > coefficient)) continue;
        const auto ri = static_cast<std::size_t>(c.resource);
        std::int64_t w = open[ri];
        if (w < 0 || c.start >= windows[static_cast<std::size_t>(w)].end) {
            ContentionWindow nw;
            nw.resource = c.resource;
            nw.start = c.start;
            nw.end = c.end;
            nw.fromCounters = c.fromCounters;
            windows.push_back(nw);
            timeIn.emplace_back();
            w = static_cast<std::int64_t>(windows.size()) - 1;
            open[ri] = w;
        }
        ContentionWindow& win = windows[static_cast<std::size_t>(w)];
        win.end = std::max(win.end, c.end);
        win.overlapRatio = std::max(win.overlapRatio, static_cast<double>(c.ratio));
        const TimeNs span = c.end - c.start;
        timeIn[static_cast<std::size_t>(w)].push_back({c.a, span});
        timeIn[static_cast<std::size_t>(w)].push_back({c.b, span});
    }
    // Windows were opened in start order per resource; number them in global start order.
    std::vector<std::size_t> order(windows.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return windows[x].start < windows[y].start; });

    // Each op's time per window (capped at its duration), then its share of its excess.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> member;   // (op, new id)
    std::vector<TimeNs> memberTime;
    std::vector<ContentionWindow> sorted;
    sorted.reserve(windows.size());
    for (std::size_t id = 0; id < order.size(); ++id) {
        const std::size_t w = order[id];
        ContentionWindow win = std::move(windows[w]);
        win.id = static_cast<std::uint32_t>(id);
        auto& list = timeIn[w];
        std::sort(list.begin(), list.end());
        for (std::size_t k = 0; k < list.size();) {
            const std::uint32_t op = list[k].first;
            TimeNs t = 0;
            for (; k < list.size() && list[k].first == op; ++k) t += list[k].second;
            member.push_back({op, win.id});
            memberTime.push_back(t);
            WindowOp wop;
            wop.slice = ops.slices[op];
            win.ops.push_back(wop);
        }
        const ResourceTimeline* tl = pressureIndex(win.resource) >= 0 ? &timelines.of(win.resource) : nullptr;
        if (win.fromCounters && tl && !tl->empty()) {
            const double pk = tl->peak(win.start, win.end);
            win.peakUtilization = std::isfinite(pk) ? pk : 0.0;
        }
        sorted.push_back(std::move(win));
    }
    // Sort memberships by op to split each op's excess over its windows.
    std::vector<std::size_t> idx(member.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) { return member[x] < member[y]; });
    if (membership) {
        membership->clear();
        membership->reserve(idx.size());
    }
    for (std::size_t k = 0; k < idx.size();) {
        const std::uint32_t op = member[idx[k]].first;
        std::size_t e = k;
        TimeNs total = 0;
        for (; e < idx.size() && member[idx[e]].first == op; ++e) total += memberTime[idx[e]];
        const TimeNs excess = std::max<TimeNs>(0, base.excessNs[op]);
        for (std::size_t j = k; j < e; ++j) {
            const auto [o, wid] = member[idx[j]];
            ContentionWindow& win = sorted[wid];
            const TimeNs share = total > 0 ? static_cast<TimeNs>(std::llround(static_cast<double>(excess) *
                                                                              static_cast<double>(memberTime[idx[j]]) /
                                                                              static_cast<double>(total)))
                                           : 0;
            // win.ops is in op order, and op order is slice order.
            auto it = std::lower_bound(win.ops.begin(), win.ops.end(), ops.slices[o],
                                       [](const WindowOp& x, std::uint32_t sl) { return x.slice < sl; });
            if (it != win.ops.end() && it->slice == ops.slices[o]) it->extraWaitNs = share;
            if (membership) membership->push_back({o, wid});
        }
        k = e;
    }
    return sorted;
}

}  // namespace contend
