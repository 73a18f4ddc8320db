// Contention patterns worked on two threads (findPatterns' splitFrom): every pass split in two
// parts gives what one thread gives, pattern by pattern and run by run, on a simulated network
// and on a trace where a kind of partner is left part of its runs.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "analysis_sim.h"
#include "analysis_test_trace.h"
#include "core/analysis/engine.h"
#include "core/analysis/findings/patterns.h"

using namespace contend;
using contend::test::KinetoTrace;

namespace {
// Everything findPatterns says, pattern by pattern and run by run.
void checkSamePatterns(const PatternResult& a, const PatternResult& b) {
    CHECK(a.patternOfOp == b.patternOfOp);
    REQUIRE(a.patterns.size() == b.patterns.size());
    for (std::size_t i = 0; i < a.patterns.size(); ++i) {
        const ContentionPattern &x = a.patterns[i], &y = b.patterns[i];
        INFO("pattern " << i << ": " << x.victim << " beside " << x.partner);
        CHECK(x.id == y.id);
        CHECK(x.signature == y.signature);
        CHECK(x.partner == y.partner);
        CHECK(x.factor == y.factor);
        CHECK(x.runsBeside == y.runsBeside);
        CHECK(x.runsApart == y.runsApart);
        CHECK(x.slowdown == y.slowdown);  // to the last bit
        CHECK(x.slowdownLow == y.slowdownLow);
        CHECK(x.slowdownHigh == y.slowdownHigh);
        CHECK(x.pValue == y.pValue);
        CHECK(x.costNs == y.costNs);
        CHECK(x.countedCostNs == y.countedCostNs);
        CHECK(x.cause == y.cause);
        CHECK(x.provenance == y.provenance);
        CHECK(x.evidence == y.evidence);
        CHECK(x.concurrency == y.concurrency);
        CHECK(x.lostShare == y.lostShare);
        CHECK(x.apartSlices.view() == y.apartSlices.view());
        REQUIRE(x.runs.size() == y.runs.size());
        for (std::size_t k = 0; k < x.runs.size(); ++k) {
            const PatternRun &r = x.runs[k], &s = y.runs[k];
            CHECK((r.slice == s.slice && r.startNs == s.startNs && r.durNs == s.durNs && r.excessNs == s.excessNs &&
                   r.counted == s.counted && r.track == s.track));
        }
    }
}
}  // namespace

TEST_CASE("patterns: worked on two threads they are the ones of one thread", "[patterns][parallel]") {
    // A simulated network (many signatures and factors) and the trace above where a kind of
    // partner is left part of its runs (the counted runs' own estimate).
    KinetoTrace k;
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> jitter(-0.1, 0.1);
    for (int i = 0; i < 600; ++i) {
        const int side = i % 3;
        k.kernel("vectorized_elementwise_kernel_add", 7, 200.0 * i, 40.0 * (1 + jitter(rng)) * (side == 1 ? 1.4 : 1.0));
        if (side > 0)
            k.kernel(side == 1 ? "vectorized_elementwise_kernel_copy" : "vectorized_elementwise_kernel_mul", 8,
                     200.0 * i, 40);
    }
    const std::vector<TracePtr> traces = {contend::test::simulated(sim::Scenario::Mixed, false, 2).trace, k.load()};
    for (const TracePtr& trace : traces) {
        auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
        REQUIRE(p);
        // The engine's inputs, rebuilt from what it shows.
        const CauseInputs judging{p->trace(),    p->operators(),  p->baselines(),
                                  p->overlaps(), p->pressure(),   p->analysisTimelines(),
                                  p->exposure(), p->characters(), nullptr};
        const std::vector<FactorPhysics> physics = judgeSerialisation(judging);
        std::vector<std::uint8_t> serialised(physics.size());
        for (std::size_t f = 0; f < physics.size(); ++f) serialised[f] = physics[f].serialised ? 1 : 0;
        const CauseInputs in{p->trace(),    p->operators(),  p->baselines(),
                             p->overlaps(), p->pressure(),   p->analysisTimelines(),
                             p->exposure(), p->characters(), &serialised};
        const PatternResult one = findPatterns(in, p->causes(), physics, std::numeric_limits<std::uint64_t>::max());
        REQUIRE_FALSE(one.patterns.empty());
        checkSamePatterns(one, p->patterns());                                // the inputs are the engine's
        const PatternResult two = findPatterns(in, p->causes(), physics, 1);  // every pass in two parts
        checkSamePatterns(one, two);
    }
}
