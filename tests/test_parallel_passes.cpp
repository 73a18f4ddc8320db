// Passes the analysis shares between the two cores, and the sorts that replaced indirect
// std::sorts, against what one thread and the plain comparator give: the window candidates'
// sweep taken from both ends, the serialisation judged per signature on either core, the ops by
// score and the dependency graph's nodes by end.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "analysis_test_trace.h"
#include "core/analysis/engine.h"
#include "core/analysis/findings/patterns.h"
#include "core/analysis/findings/windows.h"
#include "core/common/parallel.h"
#include "core/sim/run_simulation.h"
#include "test_support.h"

using namespace contend;

namespace {

// Simulated traces as made and with their starts and durations put on a grid (many ops on
// different streams start together: the ties a part's cut must not split; many end together),
// analysed; made once for the test cases.
const std::vector<std::shared_ptr<const PreparedAnalysis>>& griddedAnalyses() {
    static const std::vector<std::shared_ptr<const PreparedAnalysis>> made = [] {
        std::vector<std::shared_ptr<const PreparedAnalysis>> out;
        const std::filesystem::path dir =
            std::filesystem::temp_directory_path() / ("contend-parallel-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        for (const sim::Scenario scenario : {sim::Scenario::Mixed, sim::Scenario::Cache})
            for (const sim::CounterMode counters : {sim::CounterMode::Full, sim::CounterMode::None}) {
                sim::SimulationRequest req;
                req.scenario = scenario;
                req.seed = 2;
                req.counters = counters;
                req.iterations = 30;
                req.tracePath = (dir / "t.json").string();
                req.truthPath = (dir / "t.truth.json").string();
                REQUIRE(sim::runSimulation(req).ok());
                const nlohmann::json doc = nlohmann::json::parse(test::slurp(req.tracePath));
                for (const double grid : {0.0, 10.0, 100.0}) {  // us
                    nlohmann::json gridded = doc;
                    if (grid > 0)
                        for (auto& e : gridded["traceEvents"])
                            if (e.value("ph", "") == "X" && e.contains("ts")) {
                                e["ts"] = std::floor(e["ts"].get<double>() / grid) * grid;
                                if (e.contains("dur"))  // ends on the grid too: ties by end
                                    e["dur"] = std::max(grid, std::round(e["dur"].get<double>() / grid) * grid);
                            }
                    LoadResult lr = test::loadString(gridded.dump());
                    REQUIRE(lr);
                    auto p = prepareAnalysis(lr.value(), AnalysisSettings{});
                    REQUIRE(p);
                    out.push_back(p.value());
                }
            }
        std::filesystem::remove_all(dir);
        // Two streams whose kernels start together at every step, inside kernels of two others
        // that started together before them: the adds (stream 7) slowed beside the scales
        // (stream 9), the copies (stream 8) beside the muls (stream 6). Thousands of candidates,
        // tied by start, and a tie's pairs in another order than their ops': the tracks (and
        // so the ops) come mul, add, copy, scale, and the copy's pair with the mul, (mul, copy),
        // comes before the add's with the scale, (add, scale).
        test::KinetoTrace k;
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> jitter(-0.1, 0.1);
        std::bernoulli_distribution beside(0.6);  // unevenly: the parts' cuts fall anywhere in a step
        for (int i = 0; i < 3000; ++i) {
            const bool scale = beside(rng), mul = i == 0 || beside(rng);
            if (mul) k.kernel("vectorized_elementwise_kernel_mul", 6, 100.0 * i - 30, 60.0 * (1 + jitter(rng)));
            k.kernel("vectorized_elementwise_kernel_add", 7, 100.0 * i, 40.0 * (1 + jitter(rng)) * (scale ? 1.5 : 1.0));
            k.kernel("vectorized_elementwise_kernel_copy", 8, 100.0 * i, 40.0 * (1 + jitter(rng)) * (mul ? 1.5 : 1.0));
            if (scale) k.kernel("elementwise_kernel_scale", 9, 100.0 * i - 30, 60.0 * (1 + jitter(rng)));
        }
        auto p = prepareAnalysis(k.load(), AnalysisSettings{});
        REQUIRE(p);
        out.push_back(p.value());
        return out;
    }();
    return made;
}

CauseInputs inputsOf(const PreparedAnalysis& p, const std::vector<std::uint8_t>* serialised = nullptr) {
    return {p.trace(),    p.operators(),  p.baselines(), p.overlaps(), p.pressure(), p.analysisTimelines(),
            p.exposure(), p.characters(), serialised};
}

std::vector<WindowCandidate> taken(CandidateSweep& sweep) {
    std::vector<WindowCandidate> out;
    REQUIRE(sweep.take(out));
    return out;
}

void checkSameCandidates(const std::vector<WindowCandidate>& a, const std::vector<WindowCandidate>& b) {
    REQUIRE(a.size() == b.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const WindowCandidate &x = a[i], &y = b[i];
        if (std::tie(x.a, x.b, x.resource, x.fromCounters, x.ratio, x.start, x.end, x.payerScore, x.id) !=
            std::tie(y.a, y.b, y.resource, y.fromCounters, y.ratio, y.start, y.end, y.payerScore, y.id))
            ++differ;
    }
    CHECK(differ == 0);
}

}  // namespace

TEST_CASE("window candidates swept from both ends are the one sweep's", "[analysis][windows][parallel]") {
    std::size_t candidates = 0;
    for (const auto& p : griddedAnalyses()) {
        const CauseInputs in = inputsOf(*p);
        // The engine's own (default settings keep every candidate).
        checkSameCandidates(findWindowCandidates(in, p->causes()), p->windowCandidates());
        for (const double lowest : {-std::numeric_limits<double>::infinity(), 0.5, 3.0}) {
            INFO("lowest coefficient " << lowest);
            const std::vector<WindowCandidate> one = findWindowCandidates(in, p->causes(), {}, lowest);
            candidates += one.size();
            auto never = [] { return false; };
            // Parts of 16 ops: dozens of them (at most 64), most cut inside runs of equal starts.
            {
                CandidateSweep front(in, p->causes(), lowest, 16);
                REQUIRE(front.sweepFront(never));
                REQUIRE(front.sweepBack(never));  // nothing left
                checkSameCandidates(taken(front), one);
            }
            {
                CandidateSweep back(in, p->causes(), lowest, 16);
                REQUIRE(back.sweepBack(never));  // every part from the back
                REQUIRE(back.sweepFront(never));
                checkSameCandidates(taken(back), one);
            }
            {
                CandidateSweep both(in, p->causes(), lowest, 16);
                bool f = false, b = false;
                runBeside([&] { b = both.sweepBack(never); }, [&] { f = both.sweepFront(never); });
                REQUIRE((f && b));
                checkSameCandidates(taken(both), one);
            }
            {
                // One part only: the plain sweep.
                CandidateSweep whole(in, p->causes(), lowest, std::numeric_limits<std::uint32_t>::max());
                REQUIRE(whole.sweepBack(never));
                checkSameCandidates(taken(whole), one);
            }
        }
    }
    CHECK(candidates > 1000);
}

TEST_CASE("a cancelled candidate sweep stops", "[analysis][windows][parallel]") {
    const auto& p = griddedAnalyses().front();
    const CauseInputs in = inputsOf(*p);
    int asked = 0;
    CandidateSweep sweep(in, p->causes(), -std::numeric_limits<double>::infinity(), 16);
    CHECK_FALSE(sweep.sweepFront([&] { return ++asked == 3; }));  // stopped before the third part
    CHECK(asked == 3);
    CHECK_FALSE(sweep.sweepBack([] { return true; }));
    // The first core is asked as often however the parts fall between the cores (once a part
    // and once more): a cancel at its n-th ask stops the analysis the same way each time.
    auto asks = [&](int how) {
        int n = 0;
        auto count = [&] { return ++n < 0; };  // never stops
        auto never = [] { return false; };
        CandidateSweep s(in, p->causes(), -std::numeric_limits<double>::infinity(), 16);
        if (how == 0) REQUIRE(s.sweepFront(count));
        if (how == 1) REQUIRE((s.sweepBack(never) && s.sweepFront(count)));
        if (how == 2) runBeside([&] { s.sweepBack(never); }, [&] { s.sweepFront(count); });
        std::vector<WindowCandidate> out;
        REQUIRE(s.take(out, count));
        return n;
    };
    const int front = asks(0);
    CHECK(front > 10);
    CHECK(asks(1) == front);
    for (int round = 0; round < 8; ++round) CHECK(asks(2) == front);
    CandidateSweep late(in, p->causes(), -std::numeric_limits<double>::infinity(), 16);
    REQUIRE(late.sweepBack([] { return false; }));
    std::vector<WindowCandidate> out;
    CHECK_FALSE(late.take(out, [] { return true; }));  // joining the back's parts asks too
}

TEST_CASE("serialisation judged per signature on either core is the one thread's", "[patterns][parallel]") {
    std::size_t judged = 0;
    for (const auto& p : griddedAnalyses()) {
        const CauseInputs in = inputsOf(*p);
        const std::vector<FactorPhysics> one = judgeSerialisation(in, std::numeric_limits<std::uint64_t>::max());
        for (const std::uint64_t splitFrom : {std::uint64_t{1}, std::uint64_t{1} << 14}) {
            const std::vector<FactorPhysics> two = judgeSerialisation(in, splitFrom);
            REQUIRE(two.size() == one.size());
            for (std::size_t f = 0; f < one.size(); ++f) {
                INFO("factor " << f << " split from " << splitFrom);
                CHECK(two[f].runs == one[f].runs);
                CHECK(two[f].concurrency == one[f].concurrency);
                CHECK(two[f].lostShare == one[f].lostShare);  // to the last bit
                CHECK(two[f].lostShareLow == one[f].lostShareLow);
                CHECK(two[f].fairBound == one[f].fairBound);
                CHECK(two[f].serialised == one[f].serialised);
                judged += one[f].runs > 0;
            }
        }
    }
    CHECK(judged > 20);
}

TEST_CASE("ops by score: the positive ones by score, ties in op order, then the rest", "[analysis][scoring]") {
    std::mt19937 rng(11);
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{3000}, std::size_t{100000}}) {
        BaselineResult base;
        base.score.resize(n);
        base.excessNs.resize(n);
        // Few distinct scores (ties), zeros, negatives, NaN, infinity; excess of either sign.
        std::uniform_int_distribution<int> pick(0, 60);
        for (std::size_t i = 0; i < n; ++i) {
            const int v = pick(rng);
            base.score[i] = v == 0   ? 0.0f
                            : v == 1 ? -1.5f
                            : v == 2 ? std::numeric_limits<float>::quiet_NaN()
                            : v == 3 ? std::numeric_limits<float>::infinity()
                                     : static_cast<float>(v % 40) * 0.37f + (v > 45 ? 1e-7f : 0.0f);
            base.excessNs[i] = pick(rng) < 6 ? -static_cast<TimeNs>(i) : static_cast<TimeNs>(i % 97);
        }
        std::vector<std::uint32_t> want(n);
        std::iota(want.begin(), want.end(), 0u);
        const auto& score = base.score;
        const auto positive = std::stable_partition(
            want.begin(), want.end(), [&](std::uint32_t op) { return score[op] > 0.0f && base.excessNs[op] > 0; });
        std::sort(want.begin(), positive,
                  [&](std::uint32_t a, std::uint32_t b) { return score[a] != score[b] ? score[a] > score[b] : a < b; });
        std::size_t count = 12345;
        const std::vector<std::uint32_t> got = opsByScore(base, count);
        INFO("n " << n);
        CHECK(count == static_cast<std::size_t>(positive - want.begin()));
        CHECK(got == want);
    }
}

TEST_CASE("the dependency graph's nodes by end: latest first, ties in node order", "[whatif][depgraph]") {
    std::size_t ties = 0;
    for (const auto& p : griddedAnalyses()) {
        const DependencyGraph& g = p->dependencyGraph();
        REQUIRE(g.byEnd.size() == g.size());
        std::vector<std::uint32_t> sorted = g.byEnd;
        std::sort(sorted.begin(), sorted.end());
        std::vector<std::uint32_t> all(g.size());
        std::iota(all.begin(), all.end(), 0u);
        CHECK(sorted == all);  // each node once
        std::size_t misordered = 0;
        for (std::size_t k = 1; k < g.byEnd.size(); ++k) {
            const std::uint32_t a = g.byEnd[k - 1], b = g.byEnd[k];
            if (!(g.end[a] > g.end[b] || (g.end[a] == g.end[b] && a < b))) ++misordered;
            ties += g.end[a] == g.end[b];
        }
        CHECK(misordered == 0);
    }
    CHECK(ties > 10);
}
