// The what-if cache (WhatIfCache, whatif.h): across a slider's re-thresholds of one prepared
// analysis, every gain, the resources', the critical paths and the budget's "not computed" are
// those of a what-if run from scratch, while replays whose changes did not move are looked up;
// and the replays on two threads (WhatIfSettings::splitFromNodes) give a serial run's.
#include <catch2/catch.hpp>
#include <limits>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "core/analysis/whatif/whatif.h"

using namespace contend;

namespace {

// Everything predictGains writes, compared field by field (every slice's slack is not among it:
// it is the prepared analysis' SliceView, the same for every report).
void checkSameWhatIf(const Report& a, const Report& b) {
    REQUIRE(a.anomalies.size() == b.anomalies.size());
    REQUIRE(a.windows.size() == b.windows.size());
    REQUIRE(a.clusters.size() == b.clusters.size());
    for (std::size_t i = 0; i < a.anomalies.size(); ++i) {
        INFO("anomaly " << i);
        CHECK(a.anomalies[i].gainNs == b.anomalies[i].gainNs);
        CHECK(a.anomalies[i].slackNs == b.anomalies[i].slackNs);
    }
    for (std::size_t i = 0; i < a.windows.size(); ++i) {
        INFO("window " << i);
        CHECK(a.windows[i].gainNs == b.windows[i].gainNs);
    }
    for (std::size_t i = 0; i < a.clusters.size(); ++i) CHECK(a.clusters[i].gainNs == b.clusters[i].gainNs);
    const WhatIfSummary &x = a.whatIf, &y = b.whatIf;
    CHECK(x.computed == y.computed);
    CHECK(x.totalNs == y.totalNs);
    CHECK(x.allGainNs == y.allGainNs);
    CHECK(x.replayed == y.replayed);
    CHECK(x.offPath == y.offPath);
    CHECK(x.skipped == y.skipped);
    CHECK(x.criticalTrack == y.criticalTrack);
    REQUIRE(x.resources.size() == y.resources.size());
    for (std::size_t i = 0; i < x.resources.size(); ++i) {
        CHECK(x.resources[i].resource == y.resources[i].resource);
        CHECK(x.resources[i].gainNs == y.resources[i].gainNs);
    }
    REQUIRE(a.iterations.size() == b.iterations.size());
    for (std::size_t i = 0; i < a.iterations.size(); ++i)
        CHECK(a.iterations[i].criticalPathNs == b.iterations[i].criticalPathNs);
}

}  // namespace

TEST_CASE("what-if cache: re-thresholds with the cache give the gains of a what-if from scratch",
          "[analysis][whatif][cache]") {
    const auto& run = contend::test::simulated(sim::Scenario::Mixed, false, 2);
    auto p = prepareAnalysis(run.trace, AnalysisSettings{}).value();
    REQUIRE(p);
    WhatIfCache cache(p->dependencyGraphPtr());
    // A slider drag: down, back, an overlap-only change, the far ends, and back to the start.
    const std::pair<double, double> steps[] = {{3.0, 0.7}, {2.5, 0.7}, {2.0, 0.7},  {3.0, 0.7},
                                               {3.0, 0.5}, {0.5, 0.3}, {20.0, 0.9}, {3.0, 0.7}};
    std::size_t lastHits = 0, lastMisses = 0;
    bool anyGain = false;
    for (const auto& [k, ratio] : steps) {
        INFO("coefficient " << k << " overlap " << ratio);
        Report fresh = buildReport(*p, k, ratio);
        REQUIRE_FALSE(predictGains(*p, fresh));  // nullopt: done
        Report cached = buildReport(*p, k, ratio);
        WhatIfSettings s;
        s.cache = &cache;
        REQUIRE_FALSE(predictGains(*p, cached, s));  // nullopt: done
        checkSameWhatIf(fresh, cached);
        for (const ContentionWindow& w : fresh.windows) anyGain = anyGain || w.gainNs > 0;
        // Some replays ran, and (after the first) some were looked up.
        CHECK(cache.hits() + cache.misses() > lastHits + lastMisses);
        lastHits = cache.hits();
        lastMisses = cache.misses();
    }
    CHECK(anyGain);  // the mixed scenario has windows on the critical path
    // The same thresholds again: every replay is a lookup.
    const std::size_t misses = cache.misses();
    Report again = buildReport(*p, 2.0, 0.7);
    WhatIfSettings s;
    s.cache = &cache;
    REQUIRE_FALSE(predictGains(*p, again, s));  // nullopt: done
    CHECK(cache.misses() == misses);
    CHECK(cache.hits() > lastHits);
}

TEST_CASE("what-if cache: the budget's not computed is the same, and a cache of another analysis is not used",
          "[analysis][whatif][cache]") {
    const auto& run = contend::test::simulated(sim::Scenario::Mixed, false, 2);
    auto p = prepareAnalysis(run.trace, AnalysisSettings{}).value();
    REQUIRE(p);
    WhatIfCache cache(p->dependencyGraphPtr());
    WhatIfSettings tight;
    tight.budgetNodes = p->dependencyGraph().size() / 2;  // runs out part way
    WhatIfSettings tightCached = tight;
    tightCached.cache = &cache;
    for (double k : {3.0, 2.0, 3.0}) {
        Report fresh = buildReport(*p, k, 0.5);
        REQUIRE_FALSE(predictGains(*p, fresh, tight));  // nullopt: done
        Report cached = buildReport(*p, k, 0.5);
        REQUIRE_FALSE(predictGains(*p, cached, tightCached));  // nullopt: done
        checkSameWhatIf(fresh, cached);
        CHECK(fresh.whatIf.skipped > 0);
    }

    // A cache made for another preparation of the same trace is ignored (its graph is not this one).
    auto other = prepareAnalysis(run.trace, AnalysisSettings{}).value();
    REQUIRE(other);
    const std::size_t before = cache.hits() + cache.misses();
    Report r = buildReport(*other, 3.0, 0.7);
    WhatIfSettings s;
    s.cache = &cache;
    REQUIRE_FALSE(predictGains(*other, r, s));  // nullopt: done
    CHECK(cache.hits() + cache.misses() == before);
    Report fresh = buildReport(*other, 3.0, 0.7);
    REQUIRE_FALSE(predictGains(*other, fresh));  // nullopt: done
    checkSameWhatIf(fresh, r);
}

TEST_CASE("what-if on two threads: the gains, the budget's not computed and the counts are a serial run's",
          "[analysis][whatif][parallel]") {
    const auto& run = contend::test::simulated(sim::Scenario::Mixed, false, 2);
    auto p = prepareAnalysis(run.trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const std::size_t nodes = p->dependencyGraph().size();
    // The default budget, budgets that run out part way (some right after the resources), none.
    for (std::size_t budget : {std::size_t{0}, nodes / 2, nodes / 5, nodes / 50 + 1, std::size_t{1}}) {
        for (double k : {3.0, 1.0}) {
            INFO("budget " << budget << " coefficient " << k);
            WhatIfSettings serial;
            serial.budgetNodes = budget;
            serial.splitFromNodes = std::numeric_limits<std::size_t>::max();
            WhatIfSettings split = serial;
            split.splitFromNodes = 0;  // forced, small as the graph is
            Report one = buildReport(*p, k, 0.5);
            REQUIRE_FALSE(predictGains(*p, one, serial));  // nullopt: done
            Report two = buildReport(*p, k, 0.5);
            REQUIRE_FALSE(predictGains(*p, two, split));  // nullopt: done
            checkSameWhatIf(one, two);
            CHECK(one.whatIf.replayed + one.whatIf.skipped > 1);
            if (budget == 1) CHECK(one.whatIf.replayed == 0);
        }
    }
    // A cancel is seen on two threads too.
    WhatIfSettings no;
    no.splitFromNodes = 0;
    no.keepGoing = [] { return false; };
    Report stopped = buildReport(*p, 3.0, 0.5);
    const std::optional<Failure> stop = predictGains(*p, stopped, no);
    REQUIRE(stop);
    CHECK(stop->isCancelled());
}

TEST_CASE("what-if: resource replays made while the windows are built give a what-if with its windows built first",
          "[analysis][whatif][parallel]") {
    // A report's windows are built on their first full read; the what-if builds them on the
    // second core and meanwhile runs the resource replays on the first, as many as it can before
    // they are built (a number that depends on the machine; set here to none, one, two or all).
    // The gains, the budget's not computed and the counts must not: against the same report
    // whose windows were built before.
    std::size_t resourceReplays = 0;
    for (const sim::Scenario scenario : {sim::Scenario::Mixed, sim::Scenario::Bandwidth, sim::Scenario::Lock}) {
        const auto& run = contend::test::simulated(scenario, false, 2);
        auto p = prepareAnalysis(run.trace, AnalysisSettings{}).value();
        REQUIRE(p);
        const std::size_t nodes = p->dependencyGraph().size();
        WhatIfCache cache(p->dependencyGraphPtr());
        for (std::size_t budget : {std::size_t{0}, nodes / 5, nodes / 50 + 1, std::size_t{1}}) {
            for (double k : {3.0, 1.0}) {
                for (const bool cached : {false, true})
                    for (const std::size_t early : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{99}}) {
                        INFO(sim::scenarioName(scenario) << ", budget " << budget << ", coefficient " << k << ", cache "
                                                         << cached << ", resource replays beside " << early);
                        WhatIfSettings s;
                        s.budgetNodes = budget;
                        s.cache = cached ? &cache : nullptr;
                        s.resourceReplaysBeside = early;
                        s.resourceReplaysUntilWindows = false;
                        Report beside = buildReport(*p, k, 0.5);
                        REQUIRE(beside.windows.lazy());
                        REQUIRE_FALSE(beside.windows.built());
                        REQUIRE_FALSE(predictGains(*p, beside, s));  // nullopt: done
                        Report first = buildReport(*p, k, 0.5);
                        first.windows.edit();  // built (and owned) before the what-if
                        REQUIRE(first.windows.built());
                        REQUIRE_FALSE(predictGains(*p, first, s));  // nullopt: done
                        checkSameWhatIf(beside, first);
                        resourceReplays += beside.whatIf.resources.size();
                    }
            }
        }
    }
    CHECK(resourceReplays > 8);  // the resources' replays were there to make beside
}
