// A report's anomalies are a view over the prepared rows (core/analysis/model/anomaly_list.h): a
// re-threshold builds none of them, a read builds only its block, and what is built equals the
// same anomalies held as a plain vector, written out byte for byte the same; the order findings
// are shown in, whole or its first few.
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <sstream>
#include <vector>

#include "analysis_sim.h"
#include "core/analysis/engine.h"
#include "core/analysis/whatif/whatif.h"
#include "core/report/single/finding_rank.h"
#include "core/report/single/report_json.h"
#include "report_text.h"
#include "test_support.h"

using namespace contend;

using contend::test::jsonOf;
using contend::test::markdownOf;

TEST_CASE("a re-threshold builds no anomaly, and a read builds only its block", "[analysis][engine][lazy]") {
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    const Report r = buildReport(*p, 0.0, 0.3);
    REQUIRE(r.anomalies.size() > 2 * AnomalyList::kChunk);
    CHECK(r.anomalies.lazy());
    // The summaries were computed from the compact fields alone.
    CHECK(r.anomalies.materialisedCount() == 0);
    CHECK(r.summary.anomalies == r.anomalies.size());
    // Compact fields read without building anything.
    double scores = 0;
    for (std::size_t k = 0; k < r.anomalies.size(); ++k) scores += r.anomalies.score(k);
    CHECK(scores > 0);
    CHECK(r.anomalies.materialisedCount() == 0);
    // One read builds its block of kChunk.
    const std::size_t k = AnomalyList::kChunk + 3;
    const Anomaly& a = r.anomalies[k];
    CHECK(r.anomalies.materialisedCount() == AnomalyList::kChunk);
    CHECK(a.id == k);
    CHECK(a.slice == r.anomalies.slice(k));
    CHECK(a.score == r.anomalies.score(k));
    CHECK(&r.anomalies[k] == &a);  // built once, then kept
}

TEST_CASE("lazy anomalies equal the same anomalies held as a vector, and write the same JSON and Markdown",
          "[analysis][engine][lazy]") {
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    for (double k : {0.0, 1.0, 3.0}) {
        INFO("coefficient " << k);
        Report lazy = buildReport(*p, k, 0.5);
        REQUIRE_FALSE(predictGains(*p, lazy));  // nullopt: done
        REQUIRE(lazy.anomalies.lazy());
        CHECK(lazy.anomalies.materialisedCount() == 0);  // the what-if too reads compact fields
        // Writing the JSON and ranking the anomalies read compact fields and texts too.
        const std::string lazyJson = jsonOf(lazy, p->trace());
        CHECK(anomalyOrder(lazy, FindingRank::Gain).size() == lazy.anomalies.size());
        CHECK(lazy.anomalies.materialisedCount() == 0);
        Report owned = lazy;
        owned.anomalies.edit();  // materialise into a plain vector
        REQUIRE(!owned.anomalies.lazy());
        REQUIRE(owned.anomalies.size() == lazy.anomalies.size());
        std::size_t withWindows = 0, withGain = 0;
        for (std::size_t i = 0; i < owned.anomalies.size(); ++i) {
            const Anomaly& x = lazy.anomalies[i];
            const Anomaly& y = owned.anomalies[i];
            CHECK(x.slice == y.slice);
            CHECK(x.windows == y.windows);
            CHECK(x.gainNs == y.gainNs);
            CHECK(x.slackNs == y.slackNs);
            CHECK(lazy.anomalies.windowCount(i) == x.windows.size());
            CHECK(lazy.anomalies.gainNs(i) == x.gainNs);
            CHECK(lazy.anomalies.baselineNs(i) == x.baselineNs);
            CHECK(lazy.anomalies.id(i) == x.id);
            CHECK(lazy.anomalies.breakdown(i).queueNs == x.breakdown.queueNs);
            CHECK(lazy.anomalies.breakdown(i).waitBeforeNs == x.breakdown.waitBeforeNs);
            const AnomalyText t = lazy.anomalies.text(i), u = owned.anomalies.text(i);
            CHECK(t.name == x.name);
            CHECK(t.pid == x.pid);
            CHECK(t.tid == x.tid);
            CHECK(t.trackLabel == x.trackLabel);
            CHECK(t.evidence == x.evidence);
            CHECK((u.name == t.name && u.tid == t.tid && u.evidence == t.evidence));
            std::vector<std::uint32_t> ids;
            lazy.anomalies.forEachWindow(i, [&](std::uint32_t id) { ids.push_back(id); });
            CHECK(ids == x.windows);
            withWindows += !x.windows.empty();
            withGain += x.gainNs > 0;
        }
        if (k == 0.0) {
            CHECK(withWindows > 0);
            CHECK(withGain > 0);
        }
        CHECK(lazyJson == jsonOf(owned, p->trace()));
        // The memberships one by one, in anomaly order, as each anomaly lists them.
        std::vector<std::pair<std::size_t, std::uint32_t>> lazyPairs, ownedPairs;
        lazy.anomalies.forEachMembership([&](std::size_t i, std::uint32_t id) { lazyPairs.emplace_back(i, id); });
        owned.anomalies.forEachMembership([&](std::size_t i, std::uint32_t id) { ownedPairs.emplace_back(i, id); });
        CHECK(lazyPairs == ownedPairs);
        CHECK(lazyPairs.size() >= withWindows);
        CHECK(markdownOf(lazy, p->trace()) == markdownOf(owned, p->trace()));
        // A changed owned anomaly is a different report: the comparison above can fail.
        if (!owned.anomalies.empty()) {
            owned.anomalies.edit(0).excessNs += 1;
            CHECK(jsonOf(lazy, p->trace()) != jsonOf(owned, p->trace()));
        }
    }
}

TEST_CASE("a copy of a lazy report keeps its own what-if results", "[analysis][engine][lazy]") {
    auto p = prepareAnalysis(test::simulated(sim::Scenario::Mixed, false, 3).trace, AnalysisSettings{}).value();
    REQUIRE(p);
    Report a = buildReport(*p, 0.0, 0.5);
    REQUIRE(!a.anomalies.empty());
    const Anomaly& first = a.anomalies[0];  // built before the gain is set
    Report b = a;
    b.anomalies.setGain(0, 12345);
    CHECK(b.anomalies[0].gainNs == 12345);
    CHECK(a.anomalies.gainNs(0) == -1);
    CHECK(first.gainNs == -1);
    a.anomalies.setGain(0, 7);
    CHECK(first.gainNs == 7);  // a block already built follows the set
    CHECK(b.anomalies.gainNs(0) == 12345);
}

TEST_CASE("the findings' order to show, whole or its first few, is the stable order by gain then by score",
          "[report][rank]") {
    // Anomalies, windows and clusters with many ties in gain and in the second key (whole
    // microseconds of a few values), some gains not computed (-1).
    std::vector<Anomaly> as;
    std::vector<ContentionWindow> ws;
    std::vector<Cluster> cs;
    for (std::uint32_t i = 0; i < 3000; ++i) {
        Anomaly a;
        a.id = i;
        a.score = 1.0 + (i * 7 % 5);
        a.gainNs = i % 11 == 0 ? -1 : static_cast<TimeNs>(i * 13 % 4) * 1000;
        as.push_back(a);
        ContentionWindow w;
        w.id = i;
        w.gainNs = i % 9 == 0 ? -1 : static_cast<TimeNs>(i * 5 % 3) * 1000;
        WindowOp op;
        op.extraWaitNs = static_cast<TimeNs>(i * 3 % 4);
        w.ops = {op};
        ws.push_back(w);
        Cluster c;
        c.gainNs = static_cast<TimeNs>(i * 11 % 3);
        c.savingNs = static_cast<TimeNs>(i % 6);
        cs.push_back(c);
    }
    Report r;
    r.anomalies = AnomalyList(as);
    r.windows = WindowList(ws);
    r.clusters = cs;
    for (const FindingRank rank : {FindingRank::Gain, FindingRank::Score}) {
        const bool byGain = rank == FindingRank::Gain;
        // The reference: a stable sort on (gain when ranked by it, then the second key).
        auto reference = [&](std::size_t n, auto gainOf, auto tie) {
            std::vector<std::size_t> order(n);
            std::iota(order.begin(), order.end(), std::size_t{0});
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                if (byGain && gainOf(a) != gainOf(b)) return gainOf(a) > gainOf(b);
                return tie(a, b);
            });
            return order;
        };
        const auto anomalies = reference(
            as.size(), [&](std::size_t i) { return as[i].gainNs; },
            [&](std::size_t a, std::size_t b) { return as[a].score > as[b].score; });
        const auto windows = reference(
            ws.size(), [&](std::size_t i) { return ws[i].gainNs; },
            [&](std::size_t a, std::size_t b) { return ws[a].ops[0].extraWaitNs > ws[b].ops[0].extraWaitNs; });
        const auto clusters = reference(
            cs.size(), [&](std::size_t i) { return cs[i].gainNs; },
            [&](std::size_t a, std::size_t b) { return byGain && cs[a].savingNs > cs[b].savingNs; });
        CHECK(anomalyOrder(r, rank) == anomalies);
        CHECK(windowOrder(r, rank) == windows);
        CHECK(clusterOrder(r, rank) == clusters);
        for (const std::size_t limit : {std::size_t{0}, std::size_t{1}, std::size_t{10}, std::size_t{2999},
                                        std::size_t{3000}, std::size_t{5000}}) {
            INFO("limit " << limit);
            const auto prefix = [&](const std::vector<std::size_t>& v) {
                return std::vector<std::size_t>(v.begin(),
                                                v.begin() + static_cast<std::ptrdiff_t>(std::min(limit, v.size())));
            };
            CHECK(anomalyOrder(r, rank, limit) == prefix(anomalies));
            CHECK(windowOrder(r, rank, limit) == prefix(windows));
            CHECK(clusterOrder(r, rank, limit) == prefix(clusters));
        }
    }
}
