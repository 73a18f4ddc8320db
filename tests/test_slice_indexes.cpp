// The per-slice indexes the prepared analysis owns for views (engine.h): signature, score and
// occurrences of a signature, and the anomaly of a slice at a report's coefficient, checked
// against a pass over every slice.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "core/analysis/whatif.h"

using namespace contend;

TEST_CASE("the prepared analysis' per-slice indexes agree with a pass over the slices", "[analysis][engine][views]") {
    const TracePtr& trace = contend::test::simulated(sim::Scenario::Mixed, false, 3).trace;
    auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const Report report = buildReport(*p, 1.5, 0.5);
    const auto n = static_cast<std::uint32_t>(trace->slices().size());
    REQUIRE(report.sliceSignature.size() == n);

    std::size_t analysed = 0;
    for (std::uint32_t s = 0; s < n; ++s) {
        CHECK(p->signatureOfSlice(s) == report.sliceSignature[s]);
        const float score = p->scoreOfSlice(s);
        CHECK((std::isnan(score) ? std::isnan(report.sliceScore[s]) : score == report.sliceScore[s]));
        analysed += p->signatureOfSlice(s) != kNone;
    }
    CHECK(analysed == p->operators().size());
    CHECK(p->signatureOfSlice(n) == kNone);
    CHECK(std::isnan(p->scoreOfSlice(n)));

    // Occurrences: exactly the slices of that signature, in trace order, all signatures covered.
    std::size_t listed = 0;
    for (std::uint32_t sig = 0; sig < report.operators.size(); ++sig) {
        std::vector<std::uint32_t> brute;
        for (std::uint32_t s = 0; s < n; ++s)
            if (report.sliceSignature[s] == sig) brute.push_back(s);
        const std::vector<std::uint32_t> fast = p->occurrencesOf(sig);
        CHECK(fast.size() == brute.size());
        std::vector<std::uint32_t> sorted = fast;
        std::sort(sorted.begin(), sorted.end());
        CHECK(sorted == brute);
        listed += fast.size();
    }
    CHECK(listed == analysed);
    CHECK(p->occurrencesOf(static_cast<std::uint32_t>(report.operators.size())).empty());

    // Anomaly of a slice: the index of its anomaly, for every anomaly; none for the others. The
    // what-if (which ranks by gain) leaves the indexes as they are.
    REQUIRE(report.anomalies.size() > 0);
    Report withWhatIf = buildReport(*p, 1.5, 0.5);
    REQUIRE(predictGains(*p, withWhatIf, WhatIfSettings{}));
    const std::vector<const Report*> reports = {&report, &withWhatIf};
    for (const Report* r : reports) {
        std::vector<std::uint32_t> of(n, kNone);
        for (std::uint32_t k = 0; k < r->anomalies.size(); ++k) of[r->anomalies.slice(k)] = k;
        for (std::uint32_t s = 0; s < n; ++s) CHECK(p->anomalyOfSlice(*r, s) == of[s]);
    }
    // A higher coefficient: fewer anomalies, the same rule.
    const Report strict = buildReport(*p, 6.0, 0.5);
    CHECK(strict.anomalies.size() < report.anomalies.size());
    for (std::uint32_t k = 0; k < strict.anomalies.size(); ++k)
        CHECK(p->anomalyOfSlice(strict, strict.anomalies.slice(k)) == k);
    std::size_t flagged = 0;
    for (std::uint32_t s = 0; s < n; ++s) flagged += p->anomalyOfSlice(strict, s) != kNone;
    CHECK(flagged == strict.anomalies.size());
}
