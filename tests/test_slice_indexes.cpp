// The per-slice indexes the prepared analysis owns for views (engine.h, slice_view.h):
// signature, score, slack and occurrences of a signature, and the anomaly of a slice at a
// report's coefficient, checked against a pass over every slice (and over the operators and the
// dependency graph for what the view is built from).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "core/analysis/model/slice_view.h"
#include "core/analysis/whatif/whatif.h"

using namespace contend;

TEST_CASE("the prepared analysis' per-slice indexes agree with a pass over the slices", "[analysis][engine][views]") {
    const TracePtr& trace = contend::test::simulated(sim::Scenario::Mixed, false, 3).trace;
    auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const Report report = buildReport(*p, 1.5, 0.5);
    const auto n = static_cast<std::uint32_t>(trace->slices().size());
    REQUIRE(p->sliceView());
    const SliceView& view = *p->sliceView();
    REQUIRE(view.slices() == n);
    REQUIRE(view.signatures() == report.operators.size());

    // What the view says of each slice, from the operators (op -> slice) and the dependency graph
    // (node -> slice): signature and score of the analysed ones, slack of those in the graph.
    const OperatorSet& ops = p->operators();
    std::vector<std::uint32_t> wantSig(n, kNone);
    std::vector<float> wantScore(n, std::numeric_limits<float>::quiet_NaN());
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        wantSig[ops.slices[op]] = ops.signatureOf[op];
        wantScore[ops.slices[op]] = p->baselines().score[op];
    }
    const DependencyGraph& g = p->dependencyGraph();
    REQUIRE(g.size() > 0);
    REQUIRE(view.hasSlack());
    std::vector<TimeNs> wantSlack(n, -1);
    for (std::uint32_t v = 0; v < g.size(); ++v) wantSlack[g.slice[v]] = g.slack[v];
    std::size_t analysed = 0, onPath = 0, withSlack = 0;
    for (std::uint32_t s = 0; s < n; ++s) {
        CHECK(view.signatureOf(s) == wantSig[s]);
        const float score = view.scoreOf(s);
        CHECK((std::isnan(score) ? std::isnan(wantScore[s]) : score == wantScore[s]));
        CHECK(view.slackOf(s) == wantSlack[s]);
        analysed += view.signatureOf(s) != kNone;
        onPath += view.slackOf(s) == 0;
        withSlack += view.slackOf(s) > 0;
    }
    CHECK(analysed == p->operators().size());
    CHECK(onPath > 0);  // both kinds present, so the slack check above can tell them apart
    CHECK(withSlack > 0);
    CHECK(view.signatureOf(n) == kNone);
    CHECK(std::isnan(view.scoreOf(n)));
    CHECK(view.slackOf(n) == -1);

    // Occurrences: exactly the slices of that signature, in slice order, all signatures covered.
    std::size_t listed = 0;
    for (std::uint32_t sig = 0; sig < report.operators.size(); ++sig) {
        std::vector<std::uint32_t> brute;
        for (std::uint32_t s = 0; s < n; ++s)
            if (wantSig[s] == sig) brute.push_back(s);
        const auto fast = view.occurrencesOf(sig);
        CHECK(std::vector<std::uint32_t>(fast.begin(), fast.end()) == brute);
        listed += fast.size();
    }
    CHECK(listed == analysed);
    CHECK(view.occurrencesOf(static_cast<std::uint32_t>(report.operators.size())).empty());
    CHECK(view.occurrencesOf(kNone).empty());

    // Anomaly of a slice: the index of its anomaly, for every anomaly; none for the others. The
    // what-if (which ranks by gain) leaves the indexes as they are.
    REQUIRE(report.anomalies.size() > 0);
    Report withWhatIf = buildReport(*p, 1.5, 0.5);
    REQUIRE_FALSE(predictGains(*p, withWhatIf, WhatIfSettings{}));  // nullopt: done
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

TEST_CASE("a slice view made directly: its occurrences are a counting pass over the signatures", "[analysis][views]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    // Slices 0..6: signatures 2, none, 0, 2, 5 (past the 3 signatures: left out), 0, 2.
    const SliceView v =
        makeSliceView({1.f, nan, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, kNone, 0, 2, 5, 0, 2}, {0, -1, 10, 20, 0, 30, -1}, 3);
    CHECK(v.slices() == 7);
    CHECK(v.signatures() == 3);
    const auto of = [&](std::uint32_t sig) {
        const auto r = v.occurrencesOf(sig);
        return std::vector<std::uint32_t>(r.begin(), r.end());
    };
    CHECK(of(0) == std::vector<std::uint32_t>{2, 5});
    CHECK(of(1).empty());
    CHECK(of(2) == std::vector<std::uint32_t>{0, 3, 6});
    CHECK(of(3).empty());
    CHECK(of(5).empty());
    CHECK(v.signatureOf(4) == 5);
    CHECK(v.scoreOf(3) == 3.f);
    CHECK(std::isnan(v.scoreOf(1)));
    CHECK(v.slackOf(2) == 10);
    CHECK(v.slackOf(7) == -1);
    CHECK(v.hasSlack());
    // Without a dependency graph: no slack anywhere.
    const SliceView bare = makeSliceView({1.f}, {0}, {}, 1);
    CHECK_FALSE(bare.hasSlack());
    CHECK(bare.slackOf(0) == -1);
    CHECK(std::vector<std::uint32_t>(bare.occurrencesOf(0).begin(), bare.occurrencesOf(0).end()) ==
          std::vector<std::uint32_t>{0});
    CHECK(SliceView::none().slices() == 0);
    CHECK(SliceView::none().occurrencesOf(0).empty());
}
