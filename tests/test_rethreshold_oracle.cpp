// Re-thresholding against oracles that do not share its code: the anomalies at a coefficient
// are the lowest coefficient's anomalies filtered by score, and the windows at a ratio are the
// qualifying candidates chained per resource by a plain interval merge written here.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <tuple>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "test_support.h"

using namespace contend;

namespace {

struct OracleWindow {
    Resource resource;
    TimeNs start, end;
    std::set<std::uint32_t> slices;
    bool operator<(const OracleWindow& o) const {
        return std::tie(start, resource, end, slices) < std::tie(o.start, o.resource, o.end, o.slices);
    }
    bool operator==(const OracleWindow& o) const {
        return resource == o.resource && start == o.start && end == o.end && slices == o.slices;
    }
};

// Candidates that pass both thresholds, merged per resource while their spans overlap.
std::vector<OracleWindow> oracleWindows(const PreparedAnalysis& p, double coefficient, double ratio) {
    std::map<Resource, std::vector<const WindowCandidate*>> byResource;
    for (const WindowCandidate& c : p.windowCandidates())
        if (c.ratio >= static_cast<float>(ratio) - 1e-6f && static_cast<double>(c.payerScore) > coefficient)
            byResource[c.resource].push_back(&c);
    std::vector<OracleWindow> out;
    for (auto& [res, list] : byResource) {
        std::stable_sort(list.begin(), list.end(), [](auto* x, auto* y) { return x->start < y->start; });
        for (const WindowCandidate* c : list) {
            if (out.empty() || out.back().resource != res || c->start >= out.back().end)
                out.push_back({res, c->start, c->end, {}});
            OracleWindow& w = out.back();
            w.end = std::max(w.end, c->end);
            w.slices.insert(p.operators().slices[c->a]);
            w.slices.insert(p.operators().slices[c->b]);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<OracleWindow> reportedWindows(const Report& r) {
    std::vector<OracleWindow> out;
    for (const ContentionWindow& w : r.windows) {
        OracleWindow o{w.resource, w.start, w.end, {}};
        for (const WindowOp& op : w.ops) o.slices.insert(op.slice);
        out.push_back(o);
    }
    std::sort(out.begin(), out.end());
    return out;
}

void checkAgainstOracles(const PreparedAnalysis& p) {
    const Report lowest = buildReport(p, 0.0, 0.7);
    REQUIRE(lowest.anomalies.size() > 0);
    for (double k : {0.5, 1.0, 2.0, 3.0, 5.0, 20.0}) {
        for (double ratio : {0.1, 0.5, 0.7, 0.95}) {
            INFO("coefficient " << k << ", ratio " << ratio);
            const Report r = buildReport(p, k, ratio);
            std::vector<const Anomaly*> expected;
            for (const Anomaly& a : lowest.anomalies)
                if (a.score > k) expected.push_back(&a);
            REQUIRE(r.anomalies.size() == expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i) {
                const Anomaly& got = r.anomalies[i];
                const Anomaly& want = *expected[i];
                CHECK(got.slice == want.slice);
                CHECK(got.score == want.score);
                CHECK(got.excessNs == want.excessNs);
                CHECK(got.cause == want.cause);
                CHECK(got.provenance == want.provenance);
                CHECK(got.evidence == want.evidence);
                CHECK(got.name == want.name);
            }
            CHECK(r.summary.anomalies == expected.size());
            const auto oracle = oracleWindows(p, k, ratio);
            CHECK(reportedWindows(r) == oracle);
            // Each anomaly lists exactly the windows that hold its slice.
            for (const Anomaly& a : r.anomalies) {
                std::vector<std::uint32_t> holding;
                for (const ContentionWindow& w : r.windows)
                    if (std::any_of(w.ops.begin(), w.ops.end(), [&](const WindowOp& o) { return o.slice == a.slice; }))
                        holding.push_back(w.id);
                std::vector<std::uint32_t> listed = a.windows;
                std::sort(listed.begin(), listed.end());
                CHECK(listed == holding);
            }
        }
    }
}

}  // namespace

TEST_CASE("re-thresholded anomalies and windows equal the filtered lowest report and merged candidates",
          "[analysis][engine][oracle]") {
    for (auto scenario : {sim::Scenario::Mixed, sim::Scenario::Bandwidth, sim::Scenario::Lock}) {
        auto p = prepareAnalysis(test::simulated(scenario, false, 3).trace, AnalysisSettings{}).value();
        REQUIRE(p);
        if (scenario == sim::Scenario::Mixed) REQUIRE(!p->windowCandidates().empty());
        checkAgainstOracles(*p);
    }
}

// What a window is, without its id: its resource, span and operators.
using WindowKey = std::tuple<Resource, TimeNs, TimeNs, std::set<std::uint32_t>>;
WindowKey keyOf(const ContentionWindow& w) {
    std::set<std::uint32_t> slices;
    for (const WindowOp& op : w.ops) slices.insert(op.slice);
    return {w.resource, w.start, w.end, slices};
}

// contend-cli prepares for its one coefficient (AnalysisSettings::lowestCoefficient): the window
// candidates whose payer never scores above it are left out. Every report at or above it must
// be the slider's (all candidates kept): the same windows with the same ids, operators and extra
// wait, and the same windows listed on each anomaly.
TEST_CASE("an analysis prepared for its lowest coefficient reports the slider's windows and ids",
          "[analysis][engine][windows][ids]") {
    std::size_t dropped = 0, compared = 0;
    for (auto scenario : {sim::Scenario::Mixed, sim::Scenario::Bandwidth, sim::Scenario::Cache, sim::Scenario::Lock})
        for (auto counters : {sim::CounterMode::Full, sim::CounterMode::None})
            for (std::uint64_t seed : {2u, 5u}) {
                const TracePtr trace =
                    test::simulated({.scenario = scenario, .seed = seed, .counters = counters}).trace;
                auto all = prepareAnalysis(trace, AnalysisSettings{}).value();
                REQUIRE(all);
                // Every kept candidate keeps its id: the full list's at that position, ascending.
                for (double lowest : {1.0, 2.0, 3.0}) {
                    INFO("scenario " << static_cast<int>(scenario) << " counters " << static_cast<int>(counters)
                                     << " seed " << seed << " lowest " << lowest);
                    AnalysisSettings settings;
                    settings.lowestCoefficient = lowest;
                    auto some = prepareAnalysis(trace, settings).value();
                    REQUIRE(some);
                    const auto& full = all->windowCandidates();
                    const auto& kept = some->windowCandidates();
                    dropped += full.size() - kept.size();
                    std::size_t qualifying = 0;
                    for (std::size_t i = 0; i < full.size(); ++i) {
                        CHECK(full[i].id == i);
                        qualifying += static_cast<double>(full[i].payerScore) > lowest ? 1 : 0;
                    }
                    CHECK(kept.size() == qualifying);
                    for (const WindowCandidate& c : kept) {
                        REQUIRE(c.id < full.size());
                        CHECK(full[c.id].a == c.a);
                        CHECK(full[c.id].b == c.b);
                        CHECK(full[c.id].ratio == c.ratio);
                        CHECK(full[c.id].resource == c.resource);
                        CHECK(static_cast<double>(c.payerScore) > lowest);
                    }
                    for (double k : {lowest, lowest + 0.5, lowest + 2.0})
                        for (double ratio : {0.3, 0.7}) {
                            const Report want = buildReport(*all, k, ratio);
                            const Report got = buildReport(*some, k, ratio);
                            REQUIRE(got.windows.size() == want.windows.size());
                            CHECK(got.summary.windows == want.summary.windows);
                            for (std::size_t w = 0; w < want.windows.size(); ++w) {
                                const ContentionWindow& x = got.windows[w];
                                const ContentionWindow& y = want.windows[w];
                                CHECK(x.id == y.id);
                                CHECK(keyOf(x) == keyOf(y));
                                CHECK(x.overlapRatio == y.overlapRatio);
                                REQUIRE(x.ops.size() == y.ops.size());
                                for (std::size_t o = 0; o < x.ops.size(); ++o)
                                    CHECK(x.ops[o].extraWaitNs == y.ops[o].extraWaitNs);
                                ++compared;
                            }
                            REQUIRE(got.anomalies.size() == want.anomalies.size());
                            for (std::size_t a = 0; a < want.anomalies.size(); ++a)
                                CHECK(got.anomalies[a].windows == want.anomalies[a].windows);
                        }
                }
            }
    // Candidates were left out and windows compared, or this test checked nothing.
    CHECK(dropped > 0);
    CHECK(compared > 100);
}

TEST_CASE("a contention window keeps its id when the coefficient and the overlap ratio move",
          "[analysis][engine][windows][ids]") {
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const auto& candidates = p->windowCandidates();
    REQUIRE(!candidates.empty());
    // Every window seen at any setting, by what it is: the id it had and its position then.
    std::map<WindowKey, std::uint32_t> idOf;
    std::size_t seenTwice = 0, moved = 0;
    std::map<WindowKey, std::size_t> positionOf;
    for (double k : {0.0, 0.5, 2.0, 3.0, 6.0, 20.0}) {
        for (double ratio : {0.1, 0.5, 0.7, 0.95}) {
            INFO("coefficient " << k << ", ratio " << ratio);
            const Report r = buildReport(*p, k, ratio);
            std::set<std::uint32_t> ids;
            for (std::size_t i = 0; i < r.windows.size(); ++i) {
                const ContentionWindow& w = r.windows[i];
                CHECK(ids.insert(w.id).second);  // unique in the report
                // The id is the candidate that opened it: one that qualifies here, of the
                // window's resource, starting where the window starts, and no qualifying
                // candidate of that resource before it is chained into it.
                const auto at = std::lower_bound(candidates.begin(), candidates.end(), w.id,
                                                 [](const WindowCandidate& x, std::uint32_t id) { return x.id < id; });
                REQUIRE(at != candidates.end());
                REQUIRE(at->id == w.id);
                const WindowCandidate& c = *at;
                CHECK(c.resource == w.resource);
                CHECK(c.start == w.start);
                CHECK(c.ratio >= static_cast<float>(ratio) - 1e-6f);
                CHECK(static_cast<double>(c.payerScore) > k);
                const WindowKey key = keyOf(w);
                auto [it, added] = idOf.emplace(key, w.id);
                if (!added) {
                    ++seenTwice;
                    CHECK(it->second == w.id);  // the same window, the same id
                    if (positionOf[key] != i) ++moved;
                }
                positionOf[key] = i;
            }
            for (const Anomaly& a : r.anomalies)
                for (std::uint32_t id : a.windows) CHECK(ids.count(id) == 1);
        }
    }
    // The settings keep windows while others come and go before them, so numbering by position
    // would have renumbered some: the check above would catch it.
    CHECK(seenTwice > 0);
    CHECK(moved > 0);
}

TEST_CASE("the analysis stops with a message when the memory budget cannot hold it", "[analysis][engine][memory]") {
    const TracePtr trace = test::simulated(sim::Scenario::Mixed, false, 3).trace;
    AnalysisSettings tight;
    tight.memoryHeadroomBytes = 64 * 1024;  // far less than its operators need
    const auto refused = prepareAnalysis(trace, tight);
    REQUIRE_FALSE(refused);
    CHECK(refused.failure().kind == Failure::Kind::OutOfMemory);
    const std::string error = refused.failure().message();
    CHECK(error.rfind("not enough memory: analysing this trace (", 0) == 0);
    CHECK(error.find("--max-memory") != std::string::npos);

    AnalysisSettings roomy;
    roomy.memoryHeadroomBytes = std::uint64_t{64} << 30;
    auto prepared = prepareAnalysis(trace, roomy);
    REQUIRE(prepared);
    const auto& p = prepared.value();
    // The report's weight grows as the coefficient falls (more anomalies, more windows).
    CHECK(reportBytes(*p, 0.0, 0.1) > reportBytes(*p, 20.0, 0.95));
    CHECK(reportBytes(*p, 0.0, 0.1) >= buildReport(*p, 0.0, 0.1).anomalies.size() * 100);
}
