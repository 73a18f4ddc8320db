// Contention windows: two memory-heavy operators overlapping on different streams while DRAM
// bandwidth is saturated, the overlap-ratio threshold, and the sweep line against brute force.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <tuple>

#include "analysis_test_trace.h"
#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/analysis/inputs/overlap.h"
#include "core/io/json/chrome_json_reader.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_builder.h"
#include "random_trace.h"

using namespace contend;
using contend::test::KinetoTrace;

namespace {

// Six solo runs of each memory-bound kernel (70% of DRAM bandwidth each, so their own demand
// is known), then one step where B starts 20 us into A: they share 80 us of A's 100 us
// (ratio 0.8) and together ask for 140% of the bandwidth, so the counter is pinned at 100%, and
// B pays for it: `bSlowed` us instead of 100.
KinetoTrace twoMemoryHeavyOps(double demandPercent = 70, double bSlowed = 130) {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 6; ++i) {
        k.bandwidth(t, demandPercent).kernel("copy_a", 7, t, 100).bandwidth(t + 100, 0);
        t += 200;
        k.bandwidth(t, demandPercent).kernel("copy_b", 13, t, 100).bandwidth(t + 100, 0);
        t += 200;
    }
    const double together = std::min(100.0, 2 * demandPercent);
    k.kernel("copy_a", 7, t, 100).kernel("copy_b", 13, t + 20, bSlowed);
    k.bandwidth(t, demandPercent)
        .bandwidth(t + 20, together)
        .bandwidth(t + 100, demandPercent)
        .bandwidth(t + 20 + bSlowed, 0);
    return k;
}

}  // namespace

TEST_CASE("two memory-heavy operators at overlap ratio 0.8: a window at 0.7, none at 0.9", "[analysis][windows]") {
    const TracePtr trace = twoMemoryHeavyOps().load();
    auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const Report at07 = buildReport(*p, 3.0, 0.7);
    REQUIRE(at07.windows.size() == 1);
    const ContentionWindow& w = at07.windows[0];
    CHECK(w.resource == Resource::Bandwidth);
    CHECK(w.fromCounters);
    CHECK(w.provenance == Provenance::Measured);
    CHECK(w.evidence.rfind("measured: bandwidth", 0) == 0);
    CHECK(w.overlapRatio == Approx(0.8));
    CHECK(w.start == 2400 * 1000 + 20 * 1000);
    CHECK(w.end == 2400 * 1000 + 100 * 1000);
    CHECK(w.peakUtilization == Approx(1.0));
    REQUIRE(w.ops.size() == 2);
    CHECK(w.ops[0].name == "copy_a");
    CHECK(w.ops[1].name == "copy_b");
    CHECK(w.ops[1].startNs == 2420 * 1000);
    CHECK(buildReport(*p, 3.0, 0.9).windows.empty());
    CHECK(buildReport(*p, 3.0, 0.8).windows.size() == 1);  // "reaches" the threshold
}

TEST_CASE("two operators oversubscribing bandwidth with neither slowed are not a window", "[analysis][windows]") {
    // The counter is pinned and they ask for 140%, but both took their usual 100 us: a window
    // needs an operator measurably slower than its baseline.
    const Report r = contend::test::analyzeOk(twoMemoryHeavyOps(70, 100).load(), AnalysisSettings{});
    CHECK(r.windows.empty());
    CHECK(r.anomalies.empty());
}

TEST_CASE("two operators that fit together are not a window, however high the counter", "[analysis][windows]") {
    // 45% each: 90% together is busy (above the 85% high mark) but nothing had to wait.
    const Report r = contend::test::analyzeOk(twoMemoryHeavyOps(45).load(), AnalysisSettings{});
    CHECK(r.windows.empty());
}

TEST_CASE("the extra wait of a slowed operator is split over the windows it was in", "[analysis][windows]") {
    // copy_a is 100 us alone and 160 us in the last step, where copy_b (150 us alone, 190 us
    // there) overlaps all of it.
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 6; ++i) {
        k.bandwidth(t, 70).kernel("copy_a", 7, t, 100).bandwidth(t + 100, 0);
        t += 200;
        k.bandwidth(t, 70).kernel("copy_b", 13, t, 150).bandwidth(t + 150, 0);
        t += 200;
    }
    k.kernel("copy_a", 7, t, 160).kernel("copy_b", 13, t, 190);
    k.bandwidth(t, 100).bandwidth(t + 190, 0);
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.windows.size() == 1);
    REQUIRE(r.anomalies.size() == 2);
    TimeNs paid = 0;
    for (const auto& op : r.windows[0].ops) {
        if (op.name == "copy_a") paid = op.extraWaitNs;
    }
    CHECK(paid == 60000);  // all of its excess: it was in one window
    for (const auto& a : r.anomalies) {
        CHECK(a.cause == Resource::Bandwidth);
        CHECK(a.windows == std::vector<std::uint32_t>{0});
    }
    CHECK(r.summary.bottleneck == Resource::Bandwidth);
    CHECK(r.summary.bottleneckShare == Approx(1.0));
}

TEST_CASE("the sweep line finds exactly the overlapping pairs a brute-force check finds",
          "[analysis][windows][overlap]") {
    std::mt19937_64 rng(12345);
    for (int round = 0; round < 30; ++round) {
        // Few tracks (the ops' start order is merged from their per-track runs) and, from round
        // 20, well over 64 (sorted instead: overlap.cpp, startOrder).
        const bool many = round >= 20;
        const int tracks = many ? 100 + static_cast<int>(rng() % 60) : 1 + static_cast<int>(rng() % 5);
        const int n = many ? 400 + static_cast<int>(rng() % 200) : 50 + static_cast<int>(rng() % 200);
        const TracePtr trace = test::randomKernelTrace(rng, tracks, n);
        const OperatorSet ops = selectOperators(*trace);
        const OverlapResult fast = findOverlaps(*trace, ops);
        std::set<std::tuple<std::uint32_t, std::uint32_t, TimeNs, TimeNs>> expected, got;
        std::vector<TimeNs> union_(ops.size(), 0);
        const auto& sl = trace->slices();
        for (std::uint32_t x = 0; x < ops.size(); ++x) {
            std::vector<std::pair<TimeNs, TimeNs>> spans;
            for (std::uint32_t y = 0; y < ops.size(); ++y) {
                const Slice& a = sl[ops.slices[x]];
                const Slice& c = sl[ops.slices[y]];
                if (x == y || a.track == c.track) continue;
                const TimeNs s = std::max(a.start, c.start), e = std::min(a.end(), c.end());
                if (e <= s) continue;
                spans.push_back({s, e});
                if (x < y) expected.insert({x, y, s, e});
            }
            std::sort(spans.begin(), spans.end());
            TimeNs total = 0, cs = 0, ce = kTimeMin;
            for (auto [s, e] : spans) {
                if (s >= ce) {
                    if (ce != kTimeMin) total += ce - cs;
                    cs = s;
                    ce = e;
                } else {
                    ce = std::max(ce, e);
                }
            }
            if (ce != kTimeMin) total += ce - cs;
            union_[x] = total;
        }
        const std::vector<OverlapPair> pairs = listPairs(*trace, ops, fast);
        for (const auto& p : pairs) got.insert({p.a, p.b, p.start, p.end});
        REQUIRE(got == expected);
        CHECK(pairs.size() == expected.size());
        CHECK(fast.pairCount() == expected.size());
        // Each op's list in the pairs' order (start, then a, then b): the candidates rely on it.
        for (std::uint32_t op = 0; op < ops.size(); ++op) {
            std::vector<std::tuple<TimeNs, std::uint32_t, std::uint32_t>> keys;
            for (std::uint32_t k = fast.pairBegin[op]; k < fast.pairBegin[op + 1]; ++k) {
                const std::uint32_t o = fast.partnerOf[k];
                keys.emplace_back(pairSpan(*trace, ops, op, o).first, std::min(op, o), std::max(op, o));
            }
            CHECK(std::is_sorted(keys.begin(), keys.end()));
        }
        CHECK(fast.overlappedNs == union_);
    }
}
