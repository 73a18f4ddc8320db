// Several captures analysed together (core/trace/pool.h, contend-cli analyze RUN RUN...).
#include <catch2/catch.hpp>
#include <set>

#include "analysis_sim.h"
#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/trace/pool.h"

using namespace contend;
using contend::test::SimOptions;
using contend::test::simulated;

namespace {

SimOptions shortCapture(std::uint64_t seed) {
    SimOptions o;
    o.scenario = sim::Scenario::Mixed;
    o.seed = seed;
    o.iterations = 2;
    o.counters = sim::CounterMode::None;
    return o;
}

}  // namespace

TEST_CASE("pooled captures keep every event, never overlap each other, and number their steps apart", "[pool]") {
    const TracePtr a = simulated(shortCapture(21)).trace;
    const TracePtr b = simulated(shortCapture(22)).trace;
    const TracePtr p = poolCaptures({a, b});
    REQUIRE(p);
    CHECK(p->slices().size() == a->slices().size() + b->slices().size());
    CHECK(p->tracks().size() == a->tracks().size());  // the same streams and threads
    CHECK(p->span() >= a->span() + b->span() + kPoolGapNs);
    // The second capture starts after the first ends: no slice of one overlaps the other's.
    const TimeNs firstEnd = p->begin() + a->span();
    std::size_t before = 0, after = 0;
    for (const Slice& s : p->slices()) {
        CHECK((s.end() <= firstEnd || s.start >= firstEnd + kPoolGapNs));
        (s.start < firstEnd ? before : after)++;
    }
    CHECK(before == a->slices().size());
    CHECK(after == b->slices().size());
    // Four distinct steps.
    std::set<std::string> steps;
    for (const Slice& s : p->slices())
        if (s.is(kSliceStep)) steps.insert(std::string(p->str(s.name)));
    CHECK(steps.size() == 4);
    // Kernels still link to their own launches.
    std::size_t linked = 0, kernels = 0;
    for (std::uint32_t i = 0; i < p->slices().size(); ++i) {
        if (!p->slices()[i].is(kSliceDevice)) continue;
        ++kernels;
        const std::uint32_t l = p->infos()[i].launch;
        if (l == kNone) continue;
        ++linked;
        CHECK(p->slices()[l].start <= p->slices()[i].start);
        CHECK(p->slices()[i].start - p->slices()[l].start < kPoolGapNs);
    }
    CHECK(linked == kernels);
    CHECK(poolCaptures({a}) == a);
}

TEST_CASE("two-step captures cannot judge once-per-step operators, pooled they can", "[pool][analysis]") {
    std::vector<TracePtr> runs;
    for (std::uint64_t seed : {31, 32, 33}) runs.push_back(simulated(shortCapture(seed)).trace);
    const Report alone = contend::test::analyzeOk(runs[0], AnalysisSettings{});
    const Report pooled = contend::test::analyzeOk(poolCaptures(runs), AnalysisSettings{});
    auto note = [](const Report& r, const char* kind) {
        for (const ReportNote& n : r.notes)
            if (n.kind == kind) return true;
        return false;
    };
    CHECK(note(alone, "few-steps"));
    CHECK_FALSE(note(pooled, "few-steps"));
    std::size_t judgedAlone = 0, judgedPooled = 0;
    for (const SignatureStats& s : alone.operators)
        judgedAlone += s.baselineRule != "few" && s.baselineRule != "single";
    for (const SignatureStats& s : pooled.operators)
        judgedPooled += s.baselineRule != "few" && s.baselineRule != "single";
    CHECK(judgedPooled > judgedAlone);
    CHECK(pooled.operators.size() == alone.operators.size());  // the same signatures, pooled
    CHECK(pooled.iterations.size() == 6);
}
