// The patterns' cost index (findings/pattern_costs.h): a slider step's summary reads only the
// runs on the short side of each pattern's flagged line; its sums must be those of a walk over
// every run, on either side of the line, and the report's the same as a summary without it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "core/analysis/findings/pattern_costs.h"
#include "core/analysis/findings/summary.h"

using namespace contend;

TEST_CASE("pattern costs: the index's sums equal a walk over every run, either side read", "[patterns][summary]") {
    const TracePtr trace = test::simulated(sim::Scenario::Mixed, false, 4).trace;
    const auto tracks = static_cast<std::uint32_t>(trace->tracks().size());
    const auto slices = static_cast<std::uint32_t>(trace->slices().size());
    REQUIRE(tracks > 1);
    std::size_t readFlagged = 0, readUnflagged = 0;
    for (const unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
        std::mt19937 rng(seed);
        auto below = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
        // Iterations with gaps between them: a run in a gap belongs to none.
        std::vector<IterationStats> iterations(1 + below(6));
        TimeNs at = 1000;
        for (IterationStats& it : iterations) {
            it.start = at;
            it.end = at + 10000;
            at = it.end + 2000 * below(3);
        }
        std::vector<ContentionPattern> patterns(1 + below(8));
        for (ContentionPattern& pat : patterns) {
            std::vector<PatternRun> runs(below(400));
            for (PatternRun& run : runs) {
                run.slice = below(slices);
                run.row = below(10) == 0 ? kNone : below(1000);
                run.startNs = below(static_cast<std::uint32_t>(at + 5000));
                run.excessNs = static_cast<TimeNs>(below(5000)) - 500;  // some not a cost
                run.counted = below(4) != 0;
                run.track = below(5) == 0 ? kNone : below(tracks);
            }
            pat.runs = std::move(runs);
        }
        const PatternCostIndex index = indexPatternCosts(patterns, iterations, *trace);
        REQUIRE(index.patterns() == patterns.size());
        for (const std::uint32_t line : {0u, 1u, 100u, 500u, 900u, 1000u, kNone}) {
            INFO("seed " << seed << " flagged rows " << line);
            for (ContentionPattern& pat : patterns) pat.flaggedRows = line == 500 ? below(1000) : line;
            // The walk summarise made before the index.
            std::vector<TimeNs> wantPattern(patterns.size(), 0), wantIteration(iterations.size(), 0),
                wantTrack(tracks, 0);
            std::size_t flagged = 0, unflagged = 0;
            for (std::size_t p = 0; p < patterns.size(); ++p)
                for (const PatternRun& run : patterns[p].runs.view()) {
                    if (!run.counted || run.excessNs <= 0) continue;
                    if (patterns[p].flagged(run)) {
                        ++flagged;
                        continue;
                    }
                    ++unflagged;
                    wantPattern[p] += run.excessNs;
                    for (std::size_t i = 0; i < iterations.size(); ++i)
                        if (run.startNs >= iterations[i].start && run.startNs < iterations[i].end)
                            wantIteration[i] += run.excessNs;
                    const std::uint32_t track = run.track != kNone ? run.track : trace->slices()[run.slice].track;
                    wantTrack[track] += run.excessNs;
                }
            std::vector<TimeNs> gotPattern, gotIteration(iterations.size(), 0), gotTrack(tracks, 0);
            const std::size_t read = unflaggedPatternCosts(index, patterns, gotPattern, gotIteration, gotTrack);
            CHECK(read == std::min(flagged, unflagged));
            (flagged < unflagged ? readFlagged : readUnflagged) += 1;
            CHECK(gotPattern == wantPattern);
            CHECK(gotIteration == wantIteration);
            CHECK(gotTrack == wantTrack);
        }
    }
    // Both sides were read.
    CHECK(readFlagged > 0);
    CHECK(readUnflagged > 0);
}

TEST_CASE("pattern costs: reports summarised through the index equal the walk over every run",
          "[patterns][summary][engine]") {
    std::size_t indexed = 0, withPatternCost = 0;
    for (auto scenario : {sim::Scenario::Mixed, sim::Scenario::Bandwidth, sim::Scenario::Lock, sim::Scenario::Null})
        for (auto counters : {sim::CounterMode::Full, sim::CounterMode::None})
            for (std::uint64_t seed : {1u, 3u}) {
                const TracePtr trace =
                    test::simulated({.scenario = scenario, .seed = seed, .counters = counters}).trace;
                auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
                REQUIRE(p);
                for (const ContentionPattern& pat : p->patterns().patterns) indexed += pat.runs.size();
                for (double k : {0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 50.0}) {
                    INFO("scenario " << static_cast<int>(scenario) << " counters " << static_cast<int>(counters)
                                     << " seed " << seed << " coefficient " << k);
                    const Report r = buildReport(*p, k, 0.7);
                    Report walked = r;
                    std::vector<std::uint32_t> iterationOfAnomaly;
                    for (const Anomaly& a : r.anomalies)
                        iterationOfAnomaly.push_back(p->iterationOfOp()[p->operators().opOfSlice[a.slice]]);
                    summarise(walked, *trace, iterationOfAnomaly);
                    withPatternCost += r.summary.patternWaitNs > 0 ? 1 : 0;
                    CHECK(r.summary.extraWaitNs == walked.summary.extraWaitNs);
                    CHECK(r.summary.patternWaitNs == walked.summary.patternWaitNs);
                    CHECK(r.summary.explainedWaitNs == walked.summary.explainedWaitNs);
                    CHECK(r.summary.extraWaitByResource == walked.summary.extraWaitByResource);
                    CHECK(r.summary.bottleneck == walked.summary.bottleneck);
                    REQUIRE(r.patterns.size() == walked.patterns.size());
                    for (std::size_t i = 0; i < r.patterns.size(); ++i)
                        CHECK(r.patterns[i].unflaggedCostNs == walked.patterns[i].unflaggedCostNs);
                    REQUIRE(r.iterations.size() == walked.iterations.size());
                    for (std::size_t i = 0; i < r.iterations.size(); ++i)
                        CHECK(r.iterations[i].extraWaitNs == walked.iterations[i].extraWaitNs);
                    REQUIRE(r.threads.size() == walked.threads.size());
                    for (std::size_t i = 0; i < r.threads.size(); ++i)
                        CHECK(r.threads[i].extraWaitNs == walked.threads[i].extraWaitNs);
                    for (std::size_t i = 0; i < r.operators.size(); ++i) {
                        CHECK(r.operators[i].extraWaitNs == walked.operators[i].extraWaitNs);
                        CHECK(r.operators[i].dominantCause == walked.operators[i].dominantCause);
                    }
                }
            }
    // Patterns were found and their unflagged cost was in some of the totals.
    CHECK(indexed > 0);
    CHECK(withPatternCost > 0);
}
