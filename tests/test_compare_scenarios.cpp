// compare on the simulator's scenarios and their fixed twins (known answers), on a constructed
// fix that moves the bottleneck, and on a real before/after pair.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "analysis_sim.h"
#include "analyze_support.h"
#include "core/analysis/compare/compare.h"
#include "core/analysis/engine.h"
#include "core/report/compare/compare_report.h"
#include "core/report/single/report_json.h"
#include "test_support.h"

using namespace contend;

namespace {
Report analysed(sim::Scenario s, bool fixed, std::uint64_t seed = 11) {
    return contend::test::analyzeOk(contend::test::simulated(s, fixed, seed).trace, AnalysisSettings{});
}
}  // namespace

TEST_CASE("each scenario's fixed twin resolves its windows or clusters and adds none", "[compare][sim]") {
    for (sim::Scenario s :
         {sim::Scenario::Bandwidth, sim::Scenario::Cache, sim::Scenario::Lock, sim::Scenario::SyncCluster}) {
        INFO("scenario " << sim::scenarioName(s));
        Report before = analysed(s, false);
        Report after = analysed(s, true);
        CompareResult r = compareReports(before, after);
        CHECK(r.windows.added.empty());
        CHECK(r.clusters.added.empty());
        CHECK(r.anomalies.added.size() <= 1);  // a fix may leave one borderline score behind
        CHECK(r.windows.persisting.empty());
        CHECK(r.clusters.persisting.empty());
        CHECK(r.windows.resolved.size() == before.windows.size());
        CHECK(r.clusters.resolved.size() == before.clusters.size());
        // In the lock scenario every step contends, so no occurrence shows the solo time and a
        // baseline cannot tell (project X mixed, below, has it in a third of the steps).
        if (s == sim::Scenario::SyncCluster) {
            CHECK(before.clusters.size() > 0);
        } else if (s != sim::Scenario::Lock) {
            CHECK(before.windows.size() > 0);
            CHECK(r.anomalies.resolved.size() > 0);
        }
        CHECK(r.endToEndChange < 0);
        CHECK(r.verdict.find("end-to-end -") != std::string::npos);
    }
}

TEST_CASE("project X mixed against its fix: every kind of finding is resolved", "[compare][sim]") {
    Report before = analysed(sim::Scenario::Mixed, false, 7);
    Report after = analysed(sim::Scenario::Mixed, true, 7);
    CompareResult r = compareReports(before, after);
    CHECK(r.anomalies.resolved.size() >= before.anomalies.size() * 9 / 10);
    CHECK(r.windows.added.empty());
    CHECK(r.clusters.added.empty());
    CHECK(r.clusters.resolved.size() == before.clusters.size());
    CHECK(r.endToEndChange < 0);
    CHECK(regressions(r, CompareSettings{}).empty());
    // The same comparison through saved reports gives the same partition.
    auto b2 = reportFromJson(reportToJson(before));
    auto a2 = reportFromJson(reportToJson(after));
    REQUIRE(b2);
    REQUIRE(a2);
    CompareResult r2 = compareReports(*b2, *a2);
    CHECK(r2.anomalies.resolved.size() == r.anomalies.resolved.size());
    CHECK(r2.windows.resolved.size() == r.windows.resolved.size());
    CHECK(r2.clusters.resolved.size() == r.clusters.resolved.size());
    // Reversed, the fix is a regression: new anomalies and windows.
    CompareResult back = compareReports(after, before);
    CHECK_FALSE(regressions(back, CompareSettings{}).empty());
}

TEST_CASE("a fix that trades bandwidth contention for cache contention is a bottleneck shift", "[compare][sim]") {
    // Project X with the bandwidth site bad (cache site fine) against the same network with the
    // bandwidth site fixed but the cache site bad: the extra wait moves from bandwidth to cache.
    Report before = analysed(sim::Scenario::Bandwidth, false);
    Report after = analysed(sim::Scenario::Cache, false);
    REQUIRE(before.summary.bottleneck == Resource::Bandwidth);
    REQUIRE(after.summary.bottleneck == Resource::Cache);
    CompareResult r = compareReports(before, after);
    CHECK(r.bottleneck.shifted);
    CHECK(r.bottleneck.text.rfind("bandwidth ", 0) == 0);
    CHECK(r.bottleneck.text.find("-> cache ") != std::string::npos);
    CHECK(r.verdict.find("the bottleneck moved") != std::string::npos);
    CHECK(compareToJson(r)["summary"]["bottleneck"]["shifted"] == true);
}

TEST_CASE("the real HTA trace_diff pair compares without error", "[compare][real]") {
    if (!contend::test::haveSharedTraces()) {
        WARN("../shared/traces not found: real-trace compare skipped");
        contend::test::skipTest();
    }
    const std::string dir = contend::test::sharedTraces() + "/kineto-hta/tests/data/trace_diff/";
    LoadResult c = loadTrace(dir + "control/control.json.gz");
    LoadResult t = loadTrace(dir + "test/test.json.gz");
    REQUIRE(c);
    REQUIRE(t);
    Report base = contend::test::analyzeOk(c.value(), AnalysisSettings{});
    Report now = contend::test::analyzeOk(t.value(), AnalysisSettings{});
    CompareResult r = compareReports(base, now);
    CHECK(r.baseEndToEnd > 0);
    CHECK(r.newEndToEnd > 0);
    CHECK_FALSE(r.operators.empty());
    CHECK_FALSE(r.verdict.empty());
    auto j = compareToJson(r);
    CHECK(j["schema"] == "contend.compare/1");
}
