#include "core/analysis/findings/windows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "core/analysis/inputs/start_order.h"

namespace contend {

bool paid(const BaselineResult& base, const OperatorSet& ops, std::uint32_t op) {
    const SignatureBaseline& b = base.signatures[ops.signatureOf[op]];
    if (b.rule == BaselineRule::Single) return false;
    const TimeNs e = base.excessNs[op];
    return e > 0 && base.score[op] >= 1.0f &&
           static_cast<double>(e) >= kPaidFraction * static_cast<double>(b.baselineNs);
}

namespace {

// The other operator of the pair is the partner the payer's estimated cause rests on.
bool isCausePartner(const CauseInputs& in, const CauseResult& causes, std::uint32_t payer, std::uint32_t other) {
    const std::uint32_t f = causes.factor[payer];
    if (f == kNone) return false;
    const ExposureFactor& fac = in.exposure.factors[f];
    const std::uint32_t osig = in.ops.signatureOf[other];
    switch (fac.kind) {
    case FactorKind::Partner:
    case FactorKind::Serial: return osig == fac.id;
    case FactorKind::Character: return static_cast<std::uint32_t>(in.characters[osig].character) == fac.id;
    case FactorKind::Counter: return false;
    }
    return false;
}

bool windowResource(Resource r) { return r != Resource::Unknown && r != Resource::Sync && r != Resource::None; }

// The chaining buildWindows and windowRows share: a candidate qualifies when its ratio reaches the
// threshold and its payer's score exceeds the coefficient; it joins the open window of its
// resource while their spans touch, else opens a new one. `openWindow(c)` makes a window from
// its first candidate and returns its index, `endOf(w)` reads a window's end, `join(w, c)` adds
// the candidate to it (the opening one included).
template <class Open, class EndOf, class Join>
void chainCandidates(const std::vector<WindowCandidate>& candidates, double overlapRatio, double coefficient,
                     Open&& openWindow, EndOf&& endOf, Join&& join) {
    std::array<std::int64_t, kResourceCount> open;
    open.fill(-1);
    const float threshold = static_cast<float>(overlapRatio) - 1e-6f;
    for (const WindowCandidate& c : candidates) {
        if (c.ratio < threshold || !(static_cast<double>(c.payerScore) > coefficient)) continue;
        const auto ri = static_cast<std::size_t>(c.resource);
        std::int64_t w = open[ri];
        if (w < 0 || c.start >= endOf(static_cast<std::size_t>(w))) {
            w = static_cast<std::int64_t>(openWindow(c));
            open[ri] = w;
        }
        join(static_cast<std::size_t>(w), c);
    }
}

}  // namespace

// The sweep's state for a range of its order (CandidateSweep): the ops that paid, the order, and
// the parts, claimed from the front or the back under a lock (a few dozen claims).
struct CandidateSweep::Impl {
    const CauseInputs& in;
    const CauseResult& causes;
    bool keepAll;
    double lowest;
    std::vector<std::uint8_t> payer;  // per op: it paid, and not for a collective's wait
    std::vector<std::uint32_t> sorted;
    const std::vector<std::uint32_t>* order = nullptr;
    std::vector<std::uint32_t> cuts;  // part p is order[cuts[p], cuts[p + 1])
    std::mutex claims;
    std::size_t front = 0, back = 0;  // parts [front, back) are unclaimed
    std::vector<WindowCandidate> out;
    std::uint32_t made = 0;  // the front's candidates made, kept or not: the next id
    std::vector<WindowCandidate> backOut;
    // Per part swept from the back: its candidates in backOut and how many it made.
    std::vector<std::pair<std::size_t, std::size_t>> backRange;
    std::vector<std::uint32_t> backMade;
    Impl(const CauseInputs& i, const CauseResult& c, double lowestCoefficient)
        : in(i),
          causes(c),
          keepAll(!(lowestCoefficient > -std::numeric_limits<double>::infinity())),
          lowest(lowestCoefficient) {}
    void sweep(std::uint32_t from, std::uint32_t to, std::vector<WindowCandidate>& out, std::uint32_t& made);
    // The next unclaimed part from the front or the back into `part`, unless none is left or
    // `cancelled` (asked first) said stop.
    enum class Claim { Part, Done, Stopped };
    Claim claim(bool fromFront, const std::function<bool()>& cancelled, std::size_t& part);
};

CandidateSweep::CandidateSweep(const CauseInputs& in, const CauseResult& causes, double lowestCoefficient,
                               std::uint32_t partOps)
    : m(std::make_unique<Impl>(in, causes, lowestCoefficient)) {
    const OperatorSet& ops = in.ops;
    const auto n = static_cast<std::uint32_t>(ops.size());
    // A collective's extra time is waiting for its peers, not contention with its neighbour.
    m->payer.resize(n);
    for (std::uint32_t op = 0; op < n; ++op)
        m->payer[op] = paid(in.base, ops, op) && causes.cause[op] != Resource::Sync;
    // The sweep's order, kept by findOverlaps (sorted again only for a hand-made overlap).
    m->order = &in.overlap.order;
    if (in.overlap.order.size() != n) {
        m->sorted = startOrder(in.trace, ops);
        m->order = &m->sorted;
    }
    // Parts of equal size, each cut moved on past the ops that start with the one before it (the
    // pairs of ops that start together are ordered together).
    const auto& slices = in.trace.slices();
    const std::vector<std::uint32_t>& order = *m->order;
    auto startAt = [&](std::uint32_t k) { return slices[ops.slices[order[k]]].start; };
    const std::uint32_t parts = std::clamp<std::uint32_t>(n / std::max<std::uint32_t>(1, partOps), 1, 64);
    m->cuts.push_back(0);
    for (std::uint32_t p = 1; p < parts; ++p) {
        auto k = static_cast<std::uint32_t>(std::uint64_t{n} * p / parts);
        k = std::max(k, m->cuts.back());
        while (k > 0 && k < n && startAt(k) == startAt(k - 1)) ++k;
        if (k > m->cuts.back() && k < n) m->cuts.push_back(k);
    }
    m->cuts.push_back(n);
    m->back = m->cuts.size() - 1;
    m->backRange.resize(m->back);
    m->backMade.resize(m->back, 0);
    // At most one candidate a pair: room for all of them once (pages are touched only as the
    // candidates come), where growing by doubling copied the list 20 times and faulted about
    // twice its size in fresh pages (84 MB of candidates on 1M Kineto kernels).
    m->out.reserve(in.overlap.pairCount());
}

CandidateSweep::~CandidateSweep() = default;

CandidateSweep::Impl::Claim CandidateSweep::Impl::claim(bool fromFront, const std::function<bool()>& cancelled,
                                                        std::size_t& part) {
    if (cancelled && cancelled()) return Claim::Stopped;
    const std::lock_guard<std::mutex> lock(claims);
    if (front == back) return Claim::Done;
    part = fromFront ? front++ : --back;
    return Claim::Part;
}

bool CandidateSweep::sweepFront(const std::function<bool()>& cancelled) {
    std::size_t part = 0;
    Impl::Claim c;
    while ((c = m->claim(true, cancelled, part)) == Impl::Claim::Part)
        m->sweep(m->cuts[part], m->cuts[part + 1], m->out, m->made);
    return c == Impl::Claim::Done;
}

bool CandidateSweep::sweepBack(const std::function<bool()>& cancelled) {
    std::size_t part = 0;
    Impl::Claim c;
    while ((c = m->claim(false, cancelled, part)) == Impl::Claim::Part) {
        // Room for half the pairs (the back starts late: it sweeps less than half, mostly).
        if (m->backOut.capacity() == 0) m->backOut.reserve(m->in.overlap.pairCount() / 2);
        const std::size_t begin = m->backOut.size();
        m->sweep(m->cuts[part], m->cuts[part + 1], m->backOut, m->backMade[part]);
        m->backRange[part] = {begin, m->backOut.size()};
    }
    return c == Impl::Claim::Done;
}

bool CandidateSweep::take(std::vector<WindowCandidate>& into, const std::function<bool()>& cancelled) {
    // The parts swept from the back follow the front's, in order (each numbered from 0).
    std::uint32_t made = m->made;
    for (std::size_t part = m->front; part + 1 < m->cuts.size(); ++part) {
        if (cancelled && cancelled()) return false;
        const auto [b, e] = m->backRange[part];
        for (std::size_t i = b; i < e; ++i) {
            m->out.push_back(m->backOut[i]);
            m->out.back().id += made;
        }
        made += m->backMade[part];
    }
    m->backOut = {};
    into = std::move(m->out);
    return true;
}

std::vector<WindowCandidate> findWindowCandidates(const CauseInputs& in, const CauseResult& causes,
                                                  const std::function<bool()>& keepGoing, double lowestCoefficient) {
    CandidateSweep sweep(in, causes, lowestCoefficient);
    std::vector<WindowCandidate> out;
    const std::function<bool()> stop = [&] { return keepGoing && !keepGoing(); };
    if (sweep.sweepFront(stop)) sweep.take(out, stop);
    return out;
}

void CandidateSweep::Impl::sweep(std::uint32_t from, std::uint32_t to, std::vector<WindowCandidate>& out,
                                 std::uint32_t& made) {
    const Trace& trace = in.trace;
    const OperatorSet& ops = in.ops;
    const BaselineResult& base = in.base;
    const PressureResult& pressure = in.pressure;
    const ResourceTimelines& timelines = in.timelines;
    const auto& slices = trace.slices();
    const auto& causeOf = causes.cause;
    // Each pair once, where the sweep found it (overlap.h): at its later op, visiting the ops in
    // start order; the pairs begun at ops that start together are put in (a, b) order when their
    // segment closes. So the candidates come in the pairs' order with nothing to sort (sorting
    // 1.8M candidates after the walk was half of this stage on 1M Kineto kernels).
    const OverlapResult& ov = in.overlap;
    const std::vector<std::uint32_t>& order = *this->order;
    std::size_t segment = out.size();  // where the candidates of the current start begin
    TimeNs segmentStart = kTimeMin;
    auto closeSegment = [&] {
        const auto b = out.begin() + static_cast<std::ptrdiff_t>(segment);
        if (out.size() - segment > 1)
            std::sort(b, out.end(), [](const WindowCandidate& x, const WindowCandidate& y) {
                return x.a != y.a ? x.a < y.a : x.b < y.b;
            });
        // Numbered in the pairs' order, then the ones that can never qualify dropped.
        for (auto it = b; it != out.end(); ++it) it->id = made++;
        if (!keepAll)
            out.erase(
                std::remove_if(b, out.end(),
                               [&](const WindowCandidate& c) { return !(static_cast<double>(c.payerScore) > lowest); }),
                out.end());
        segment = out.size();
    };
    for (std::uint32_t k = from; k < to; ++k) {
        const std::uint32_t later = order[k];
        const Slice& sl = slices[ops.slices[later]];
        if (sl.start != segmentStart) {
            closeSegment();
            segmentStart = sl.start;
        }
        // The pairs begun here: partners that started earlier, or at the same time and come
        // first in the order. They lead the op's list (its pairs by start): past them, every
        // partner started later.
        for (std::uint32_t q = ov.pairBegin[later]; q < ov.pairBegin[later + 1]; ++q) {
            const std::uint32_t other = ov.partnerOf[q];
            const TimeNs otherStart = slices[ops.slices[other]].start;
            if (otherStart > sl.start) break;
            if (otherStart == sl.start && other > later) continue;
            OverlapPair pr{std::min(later, other), std::max(later, other), 0, 0};
            const bool paidA = payer[pr.a] != 0, paidB = payer[pr.b] != 0;
            if (!paidA && !paidB) continue;
            const Slice& sa = slices[ops.slices[pr.a]];
            const Slice& sb = slices[ops.slices[pr.b]];
            std::tie(pr.start, pr.end) = pairSpan(trace, ops, pr.a, pr.b);
            const std::uint32_t who = paidA && (!paidB || base.score[pr.a] >= base.score[pr.b]) ? pr.a : pr.b;
            const float payerScore = base.score[who];
            const auto ratio = static_cast<float>(static_cast<double>(pr.end - pr.start) /
                                                  static_cast<double>(std::max<TimeNs>(1, std::min(sa.dur, sb.dur))));
            // Measured: a resource whose counter resolves both was oversubscribed in the shared span.
            const Resource preferred = causeOf[who];
            WindowCandidate best{pr.a, pr.b, Resource::Unknown, true, 0, pr.start, pr.end, payerScore, 0};
            bool bestPreferred = false;
            for (std::size_t p = 0; p < kPressureResources; ++p) {
                const ResourceTimeline& tl = timelines.pressure[p];
                if (tl.empty()) continue;
                const Resource r = kPressureResource[p];
                const float da = pressure.demand[ops.signatureOf[pr.a]][p];
                const float db = pressure.demand[ops.signatureOf[pr.b]][p];
                if (static_cast<double>(tl.medianSpacing()) >
                    kCoarseSampling * static_cast<double>(std::min(sa.dur, sb.dur)))
                    continue;  // sampled too coarsely to speak for these two
                if (tl.highTime(pr.start, pr.end) <= 0) continue;
                if (r != Resource::Cache) {
                    if (!(da >= kUseThreshold) || !(db >= kUseThreshold)) continue;
                    if (loadDuring(ops, in.overlap, pressure, trace, pr.a, p, pr.start, pr.end) < 1.0 + kOverload)
                        continue;
                } else {
                    const double own = std::max(ownCachePressure(pressure, ops.signatureOf[pr.a]),
                                                ownCachePressure(pressure, ops.signatureOf[pr.b]));
                    if (tl.mean(pr.start, pr.end) < own + kCacheRise) continue;
                }
                const bool isPreferred = r == preferred;
                if (best.ratio == 0 || (isPreferred && !bestPreferred) ||
                    (isPreferred == bestPreferred && ratio > best.ratio)) {
                    best.resource = r;
                    best.ratio = ratio;
                    bestPreferred = isPreferred;
                }
            }
            if (best.ratio > 0) {
                out.push_back(best);
                continue;
            }
            // Estimated: the pair is the payer and the partner its estimated cause rests on.
            for (const std::uint32_t x : {pr.a, pr.b}) {
                if (!(x == pr.a ? paidA : paidB)) continue;
                const std::uint32_t other = x == pr.a ? pr.b : pr.a;
                if (causes.provenance[x] == Provenance::Unknown || !windowResource(causeOf[x])) continue;
                if (!isCausePartner(in, causes, x, other)) continue;
                out.push_back({pr.a, pr.b, causeOf[x], false, ratio, pr.start, pr.end, base.score[x], 0});
                break;
            }
        }
    }
    closeSegment();
}

std::vector<ContentionWindow> buildWindows(const std::vector<WindowCandidate>& candidates, double overlapRatio,
                                           double coefficient, const OperatorSet& ops, const BaselineResult& base,
                                           const std::vector<Resource>& causeOf, const ResourceTimelines& timelines,
                                           std::vector<std::pair<std::uint32_t, std::uint32_t>>* membership) {
    // Flat arrays throughout, read in window order (profiled at 1M operators and 767k
    // qualifying candidates: a vector per window and a pass in op order that wrote into the
    // windows at random were most of a slider step).
    std::vector<ContentionWindow> windows;
    // Per qualifying candidate's operator: (window, op, time in window), summed below.
    struct Entry {
        std::uint32_t window;
        std::uint32_t op;
        TimeNs span;
    };
    std::vector<Entry> entries;
    // Room for every candidate's two at once, and below for every member: pages are touched
    // only as they fill, where growing by doubling copied them and faulted in twice as many.
    entries.reserve(2 * candidates.size());
    chainCandidates(
        candidates, overlapRatio, coefficient,
        [&](const WindowCandidate& c) {
            ContentionWindow nw;
            // Its id: the candidate that opened it (stable while the thresholds move, see
            // windows.h).
            nw.id = c.id;
            nw.resource = c.resource;
            nw.start = c.start;
            nw.end = c.end;
            nw.fromCounters = c.fromCounters;
            nw.provenance = c.fromCounters ? Provenance::Measured : Provenance::Estimated;
            windows.push_back(nw);
            return windows.size() - 1;
        },
        [&](std::size_t w) { return windows[w].end; },
        [&](std::size_t w, const WindowCandidate& c) {
            ContentionWindow& win = windows[w];
            win.end = std::max(win.end, c.end);
            win.overlapRatio = std::max(win.overlapRatio, static_cast<double>(c.ratio));
            const TimeNs span = c.end - c.start;
            entries.push_back({static_cast<std::uint32_t>(w), c.a, span});
            entries.push_back({static_cast<std::uint32_t>(w), c.b, span});
        });
    // Windows were opened in start order per resource; number them in global start order (ties
    // in opening order, which is candidate order, so ids ascend with the position).
    std::vector<std::uint32_t> order(windows.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return windows[x].start < windows[y].start; });
    std::vector<std::uint32_t> positionOf(windows.size());
    for (std::size_t i = 0; i < order.size(); ++i) positionOf[order[i]] = static_cast<std::uint32_t>(i);

    // Entries by position (a counting sort, stable), then by op within each window. They are
    // in that order already when no two resources' windows interleave (one resource: a window
    // closes before the next opens), and are then taken as they are: at coefficient 0.5 on 1M
    // Kineto kernels, all "compute", the sorted copy was 58 MB of fresh pages.
    std::vector<std::uint32_t> firstOf(windows.size() + 1, 0);
    bool grouped = true;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::uint32_t pos = positionOf[entries[i].window];
        ++firstOf[pos + 1];
        if (i > 0 && pos < positionOf[entries[i - 1].window]) grouped = false;
    }
    for (std::size_t i = 1; i < firstOf.size(); ++i) firstOf[i] += firstOf[i - 1];
    std::vector<Entry> byWindow;
    if (grouped) {
        byWindow = std::move(entries);
    } else {
        byWindow.resize(entries.size());
        std::vector<std::uint32_t> next(firstOf.begin(), firstOf.end() - 1);
        for (const Entry& e : entries) byWindow[next[positionOf[e.window]]++] = e;
    }
    entries.clear();
    entries.shrink_to_fit();

    // Each op's time per window (its pairs' spans summed), and its time over all its windows.
    std::vector<std::uint32_t> memberOp;  // in window order, by op within a window
    std::vector<TimeNs> memberTime;
    memberOp.reserve(byWindow.size());
    memberTime.reserve(byWindow.size());
    std::vector<TimeNs> totalOf(ops.size(), 0);
    std::vector<ContentionWindow> sorted;
    sorted.reserve(windows.size());
    std::vector<std::uint32_t> memberFirst(windows.size() + 1, 0);
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
        ContentionWindow win = std::move(windows[order[pos]]);
        const auto b = byWindow.begin() + firstOf[pos], e = byWindow.begin() + firstOf[pos + 1];
        std::sort(b, e, [](const Entry& x, const Entry& y) { return x.op < y.op; });
        memberFirst[pos] = static_cast<std::uint32_t>(memberOp.size());
        std::size_t distinct = 0;  // its operators, for one allocation of win.ops
        for (auto it = b; it != e; ++it) distinct += it == b || it->op != (it - 1)->op ? 1 : 0;
        win.ops.reserve(distinct);
        for (auto it = b; it != e;) {
            const std::uint32_t op = it->op;
            TimeNs t = 0;
            for (; it != e && it->op == op; ++it) t += it->span;
            memberOp.push_back(op);
            memberTime.push_back(t);
            totalOf[op] += t;
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
    memberFirst[order.size()] = static_cast<std::uint32_t>(memberOp.size());
    // Each op's excess split over its windows in proportion to its time in each, written in
    // window order.
    if (membership) {
        membership->clear();
        membership->reserve(memberOp.size());
    }
    for (std::size_t pos = 0; pos < sorted.size(); ++pos) {
        ContentionWindow& win = sorted[pos];
        for (std::uint32_t m = memberFirst[pos], j = 0; m < memberFirst[pos + 1]; ++m, ++j) {
            const std::uint32_t op = memberOp[m];
            // A collective's extra time is its peers': none of it is this window's.
            const bool collective = !causeOf.empty() && causeOf[op] == Resource::Sync;
            const TimeNs excess = collective ? 0 : std::max<TimeNs>(0, base.excessNs[op]);
            const TimeNs total = totalOf[op];
            win.ops[j].extraWaitNs =
                total > 0
                    ? static_cast<TimeNs>(std::llround(static_cast<double>(excess) *
                                                       static_cast<double>(memberTime[m]) / static_cast<double>(total)))
                    : 0;
            if (membership) membership->push_back({op, win.id});
        }
    }
    return sorted;
}

std::vector<WindowRow> windowRows(const std::vector<WindowCandidate>& candidates, double overlapRatio,
                                  double coefficient, WindowTracks* tracks, const OperatorSet* ops,
                                  const Trace* trace) {
    // buildWindows's chaining, keeping only what it decides per window.
    std::vector<WindowRow> rows;
    const bool withTracks = tracks && ops && trace;
    // A window's tracks: a bit each when the trace has at most 64 (one OR per operator), else
    // (window as opened, track) pairs sorted by a counting sort below.
    const bool masks = withTracks && trace->tracks().size() <= 64;
    std::vector<std::uint64_t> maskOf;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> joined;
    auto trackOf = [&](std::uint32_t op) {
        const std::uint32_t s = op < ops->slices.size() ? ops->slices[op] : kNone;
        return s < trace->slices().size() ? trace->slices()[s].track : kNone;
    };
    chainCandidates(
        candidates, overlapRatio, coefficient,
        [&](const WindowCandidate& c) {
            WindowRow nw;
            nw.id = c.id;
            nw.resource = c.resource;
            nw.fromCounters = c.fromCounters;
            nw.start = c.start;
            nw.end = c.end;
            rows.push_back(nw);
            if (masks) maskOf.push_back(0);
            return rows.size() - 1;
        },
        [&](std::size_t w) { return rows[w].end; },
        [&](std::size_t w, const WindowCandidate& c) {
            WindowRow& row = rows[w];
            row.end = std::max(row.end, c.end);
            row.overlapRatio = std::max(row.overlapRatio, c.ratio);
            if (withTracks)
                for (std::uint32_t op : {c.a, c.b}) {
                    const std::uint32_t t = trackOf(op);
                    if (t == kNone) continue;
                    if (masks)
                        maskOf[w] |= std::uint64_t{1} << t;
                    else
                        joined.emplace_back(static_cast<std::uint32_t>(w), t);
                }
        });
    // Opened in start order per resource: in global start order, ties in opening order.
    std::vector<std::uint32_t> order(rows.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return rows[x].start < rows[y].start; });
    std::vector<WindowRow> sorted;
    sorted.reserve(rows.size());
    for (std::uint32_t i : order) sorted.push_back(rows[i]);
    if (!withTracks) return sorted;
    tracks->first.assign(1, 0);
    tracks->first.reserve(rows.size() + 1);
    tracks->ids.clear();
    if (masks) {
        for (std::uint32_t i : order) {
            for (std::uint64_t m = maskOf[i]; m != 0; m &= m - 1)
                tracks->ids.push_back(static_cast<std::uint32_t>(std::countr_zero(m)));
            tracks->first.push_back(static_cast<std::uint32_t>(tracks->ids.size()));
        }
        return sorted;
    }
    std::vector<std::uint32_t> positionOf(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) positionOf[order[i]] = static_cast<std::uint32_t>(i);
    // The tracks by position (a counting sort), each window's sorted and made unique.
    std::vector<std::uint32_t> first(rows.size() + 1, 0);
    for (const auto& [w, t] : joined) ++first[positionOf[w] + 1];
    for (std::size_t i = 1; i < first.size(); ++i) first[i] += first[i - 1];
    std::vector<std::uint32_t> ids(joined.size());
    {
        std::vector<std::uint32_t> next(first.begin(), first.end() - 1);
        for (const auto& [w, t] : joined) ids[next[positionOf[w]]++] = t;
    }
    for (std::size_t pos = 0; pos < rows.size(); ++pos) {
        const auto b = ids.begin() + first[pos], e = ids.begin() + first[pos + 1];
        std::sort(b, e);
        tracks->ids.insert(tracks->ids.end(), b, std::unique(b, e));
        tracks->first.push_back(static_cast<std::uint32_t>(tracks->ids.size()));
    }
    return sorted;
}

std::string windowEvidence(const CauseInputs& in, const CauseResult& causes, const ContentionWindow& w) {
    // The operator that paid the most in it, among those whose cause rests on a partner (the
    // one that made the window), else among all.
    const WindowOp* payer = nullptr;
    for (int pass = 0; pass < 2 && !payer; ++pass) {
        for (const WindowOp& o : w.ops) {
            const std::uint32_t x = in.ops.opOfSlice[o.slice];
            if (pass == 0 && (x == kNone || causes.factor[x] == kNone || o.extraWaitNs <= 0)) continue;
            if (!payer || o.extraWaitNs > payer->extraWaitNs) payer = &o;
        }
    }
    if (!payer) return {};
    const std::uint32_t op = in.ops.opOfSlice[payer->slice];
    if (w.fromCounters) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "measured: %s counter at its high mark (peak %.0f%%) while the operators in it asked for "
                      "more than there is",
                      resourceName(w.resource), 100.0 * w.peakUtilization);
        return buf;
    }
    if (op == kNone || causes.factor[op] == kNone)
        return std::string(provenanceName(w.provenance)) + ": " + resourceName(w.resource);
    std::string cause = describeCause(in, causes, op);
    // The window itself is paired by the overlap test, not by a counter's high mark; when its
    // operator's cause is measured (its own samples or its pattern's), say which is which so an
    // estimated window never reads as measured.
    if (w.provenance == Provenance::Estimated && cause.rfind("measured", 0) == 0)
        return "estimated window (paired by the overlap test); its operator's cause is " + cause;
    return cause;
}

void nameWindowOps(const Trace& trace, std::vector<ContentionWindow>& windows) {
    const auto& slices = trace.slices();
    std::unordered_map<StringId, SharedText> names;
    std::vector<std::pair<SharedText, SharedText>> ids(trace.tracks().size());
    std::vector<std::uint8_t> idsMade(trace.tracks().size(), 0);
    for (ContentionWindow& w : windows) {
        for (WindowOp& wop : w.ops) {
            const Slice& s = slices[wop.slice];
            auto [name, added] = names.try_emplace(s.name);
            if (added) name->second = SharedText(trace.str(s.name));
            wop.name = name->second;
            if (!idsMade[s.track]) {
                const Track& tr = trace.tracks()[s.track];
                ids[s.track] = {SharedText(tr.pid), SharedText(tr.tid)};
                idsMade[s.track] = 1;
            }
            wop.pid = ids[s.track].first;
            wop.tid = ids[s.track].second;
            wop.startNs = s.start;
            wop.durNs = s.dur;
        }
    }
}

}  // namespace contend
