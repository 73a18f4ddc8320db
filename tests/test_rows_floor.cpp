// A prepared analysis made for one report (AnalysisSettings::lowestCoefficient, as contend-cli
// asks) makes anomaly rows only above that coefficient, and the report at it is byte for byte
// the one a prepared analysis with every row (the app's, for the slider) gives: anomalies, their
// evidence, windows and their memberships, patterns and which of their runs are flagged.
#include <catch2/catch.hpp>
#include <string>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "report_text.h"

using namespace contend;

TEST_CASE("rows made for one coefficient give that coefficient's report unchanged", "[analysis][rows]") {
    const test::SimOptions runs[] = {
        {.scenario = sim::Scenario::Mixed, .seed = 3},
        {.scenario = sim::Scenario::Bandwidth, .seed = 2, .counters = sim::CounterMode::None},
        {.scenario = sim::Scenario::Lock, .seed = 1, .counters = sim::CounterMode::None},
    };
    std::size_t nonEmpty = 0;  // reports with anomalies compared
    for (const test::SimOptions& o : runs) {
        const TracePtr trace = test::simulated(o).trace;
        REQUIRE(trace);
        const auto all = prepareAnalysis(trace, AnalysisSettings{}).value();
        // Every row: at a negative coefficient the report lists them all.
        const std::size_t allRows = buildReport(*all, -1, 0.7).anomalies.size();
        for (double k : {0.3, 0.8, 1.5}) {
            INFO("scenario " << static_cast<int>(o.scenario) << " seed " << o.seed << " coefficient " << k);
            AnalysisSettings once;
            once.coefficient = k;
            once.lowestCoefficient = k;
            const auto one = prepareAnalysis(trace, once).value();
            const Report a = buildReport(*all, k, 0.7);
            const Report b = buildReport(*one, k, 0.7);
            nonEmpty += a.anomalies.empty() ? 0 : 1;
            CHECK(b.anomalies.size() == a.anomalies.size());
            // The floor took effect: only the reported operators have rows.
            CHECK(buildReport(*one, -1, 0.7).anomalies.size() == a.anomalies.size());
            CHECK(a.anomalies.size() < allRows);
            CHECK(test::jsonOf(b, *trace) == test::jsonOf(a, *trace));
            CHECK(test::markdownOf(b, *trace) == test::markdownOf(a, *trace));
            for (std::size_t i = 0; i < a.patterns.size(); ++i) {
                std::size_t flaggedA = 0, flaggedB = 0;
                for (const PatternRun& run : a.patterns[i].runs) flaggedA += a.patterns[i].flagged(run) ? 1 : 0;
                for (const PatternRun& run : b.patterns[i].runs) flaggedB += b.patterns[i].flagged(run) ? 1 : 0;
                CHECK(flaggedB == flaggedA);
            }
        }
    }
    CHECK(nonEmpty >= 6);
}
