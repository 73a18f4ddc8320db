// compare(base, new) on hand-built reports: what counts as resolved, persisting and new, how
// operators change, when the bottleneck has shifted, and what a regression is.
#include <catch2/catch.hpp>

#include "core/analysis/compare/compare.h"
#include "core/report/compare/compare_report.h"

using namespace contend;

namespace {

Report twoIterations(TimeNs endToEnd) {
    Report r;
    r.trace.path = "run.json";
    r.summary.endToEndNs = endToEnd;
    r.iterations = {{0, 0, 1000}, {1, 1000, 2000}};
    return r;
}

Anomaly anomaly(std::uint32_t sig, const std::string& name, TimeNs start, double score, Resource cause) {
    Anomaly a;
    a.signature = sig;
    a.name = name;
    a.startNs = start;
    a.durNs = 100;
    a.score = score;
    a.cause = cause;
    return a;
}

SignatureStats sig(const std::string& s, std::uint64_t count, double mean) {
    SignatureStats st;
    st.signature = s;
    st.name = s;
    st.count = count;
    st.meanNs = mean;
    st.totalNs = static_cast<TimeNs>(mean * static_cast<double>(count));
    return st;
}

ContentionWindow window(Resource r, TimeNs start, std::vector<std::string> ops) {
    ContentionWindow w;
    w.resource = r;
    w.start = start;
    w.end = start + 50;
    for (auto& n : ops) {
        WindowOp op;
        op.name = n;
        w.ops.push_back(op);
    }
    return w;
}

}  // namespace

TEST_CASE("anomalies are matched by signature and iteration, nearest place first", "[compare]") {
    Report base = twoIterations(2000);
    Report now = twoIterations(1800);
    base.operators = {sig("conv", 4, 100), sig("norm", 2, 50)};
    now.operators = base.operators;
    // conv anomalous in both iterations before; only in iteration 1 after (at a nearby place).
    base.anomalies = {anomaly(0, "conv", 100, 9, Resource::Bandwidth),
                      anomaly(0, "conv", 1100, 8, Resource::Bandwidth)};
    now.anomalies = {anomaly(0, "conv", 1120, 5, Resource::Bandwidth), anomaly(1, "norm", 1500, 4, Resource::Compute)};
    CompareResult r = compareReports(base, now);
    REQUIRE(r.anomalies.resolved.size() == 1);
    CHECK(r.anomalies.resolved[0].base.startNs == 100);
    REQUIRE(r.anomalies.persisting.size() == 1);
    CHECK(r.anomalies.persisting[0].place.iteration == 1);
    CHECK(r.anomalies.persisting[0].scoreChange == Approx(-3));
    REQUIRE(r.anomalies.added.size() == 1);
    CHECK(r.anomalies.added[0].name == "norm");
    CHECK(r.endToEndChange == Approx(-0.1));
    CHECK(r.verdict.find("resolved 1 anomaly") != std::string::npos);
    CHECK(r.verdict.find("1 new anomaly appeared") != std::string::npos);
}

TEST_CASE("windows resolve by resource and operators, clusters by stream", "[compare]") {
    Report base = twoIterations(2000);
    Report now = twoIterations(1900);
    base.windows = {window(Resource::Bandwidth, 200, {"norm", "transform"}),
                    window(Resource::Bandwidth, 1200, {"transform", "norm"})};
    now.windows = {window(Resource::Cache, 300, {"conv", "featmap"})};
    Cluster c;
    c.tid = "9";
    c.start = 500;
    c.end = 700;
    base.clusters = {c};
    CompareResult r = compareReports(base, now);
    CHECK(r.windows.resolved.size() == 2);
    CHECK(r.windows.resolved[0].ops == "norm + transform");  // order of names does not matter
    CHECK(r.windows.added.size() == 1);
    CHECK(r.clusters.resolved.size() == 1);
    CHECK(r.clusters.added.empty());
    CHECK(r.verdict.find("removed the bandwidth windows (2 -> 0)") != std::string::npos);
    CHECK(r.verdict.find("cache windows grew (0 -> 1)") != std::string::npos);
    CHECK(r.verdict.find("removed the sync clusters") != std::string::npos);
    CHECK(r.verdict.find("end-to-end -5.0%") != std::string::npos);
}

TEST_CASE("operator changes beyond the tolerance are + or -, others =, plus new and gone", "[compare]") {
    Report base = twoIterations(1000);
    Report now = twoIterations(1000);
    base.operators = {sig("a", 10, 100), sig("b", 10, 100), sig("c", 10, 100), sig("gone", 1, 5)};
    now.operators = {sig("a", 10, 120), sig("b", 10, 80), sig("c", 10, 103), sig("fresh", 1, 5)};
    CompareResult r = compareReports(base, now);
    std::map<std::string, OpChange> ch;
    for (const auto& d : r.operators) ch[d.signature] = d.change;
    CHECK(ch["a"] == OpChange::Slower);
    CHECK(ch["b"] == OpChange::Faster);
    CHECK(ch["c"] == OpChange::Same);
    CHECK(ch["gone"] == OpChange::Gone);
    CHECK(ch["fresh"] == OpChange::New);
}

TEST_CASE("a bottleneck that moves to another resource is a shift", "[compare]") {
    Report base = twoIterations(1000);
    Report now = twoIterations(900);
    base.summary.bottleneck = Resource::Bandwidth;
    base.summary.bottleneckShare = 0.64;
    now.summary.bottleneck = Resource::Compute;
    now.summary.bottleneckShare = 0.51;
    base.summary.extraWaitByResource[static_cast<std::size_t>(Resource::Bandwidth)] = 64'000;
    base.summary.extraWaitByResource[static_cast<std::size_t>(Resource::Compute)] = 10'000;
    now.summary.extraWaitByResource[static_cast<std::size_t>(Resource::Compute)] = 400'000;
    base.summary.extraWaitNs = 100'000;
    CompareResult r = compareReports(base, now);
    CHECK(r.bottleneck.shifted);
    CHECK_FALSE(r.bottleneck.wentAway);
    CHECK(r.bottleneck.text == "bandwidth 64 us (64%) -> compute 400 us (51%)");
    CHECK(r.verdict.find("compute extra wait grew") != std::string::npos);
    CHECK(r.verdict.find("the bottleneck moved: bandwidth 64 us (64%) -> compute 400 us (51%)") != std::string::npos);
    SECTION("same resource is not a shift") {
        now.summary.bottleneck = Resource::Bandwidth;
        now.summary.extraWaitByResource[static_cast<std::size_t>(Resource::Bandwidth)] = 50'000;
        CHECK_FALSE(compareReports(base, now).bottleneck.shifted);
        CHECK_FALSE(compareReports(base, now).bottleneck.wentAway);
    }
}

TEST_CASE("a bottleneck is weighed by its extra wait: a tiny remainder is not a bottleneck", "[compare]") {
    // The fix removed 3 ms of bandwidth wait; 70 us of queue wait is all that is left, 100% of
    // the new run's explained wait but not where the time goes.
    Report base = twoIterations(10'000'000);
    Report now = twoIterations(7'000'000);
    base.summary.bottleneck = Resource::Bandwidth;
    base.summary.bottleneckShare = 0.9;
    base.summary.extraWaitByResource[static_cast<std::size_t>(Resource::Bandwidth)] = 3'000'000;
    base.summary.extraWaitNs = 3'300'000;
    now.summary.bottleneck = Resource::Queue;
    now.summary.bottleneckShare = 1.0;
    now.summary.extraWaitByResource[static_cast<std::size_t>(Resource::Queue)] = 70'000;
    now.summary.extraWaitNs = 70'000;
    CompareResult r = compareReports(base, now);
    CHECK_FALSE(r.bottleneck.shifted);
    CHECK(r.bottleneck.wentAway);
    CHECK(r.verdict.find("the bottleneck moved") == std::string::npos);
    CHECK(r.verdict.find("the bandwidth bottleneck went away (3 ms -> 0 ns of extra wait): what is left is too "
                         "small to be a bottleneck (queue 70 us, under 10% of the base's 3.3 ms extra wait)") !=
          std::string::npos);
    CHECK(compareToMarkdown(r).find("| bottleneck | bandwidth | queue | gone |") != std::string::npos);
    SECTION("a remainder of a tenth or more is a shift") {
        now.summary.extraWaitByResource[static_cast<std::size_t>(Resource::Queue)] = 400'000;
        const CompareResult moved = compareReports(base, now);
        CHECK(moved.bottleneck.shifted);
        CHECK_FALSE(moved.bottleneck.wentAway);
        CHECK(moved.verdict.find("the bottleneck moved: bandwidth 3 ms (90%) -> queue 400 us (100%)") !=
              std::string::npos);
    }
}

TEST_CASE("regressions: new anomalies, new windows, end-to-end growth beyond tolerance", "[compare]") {
    Report base = twoIterations(1000);
    Report now = twoIterations(1010);
    now.operators = {sig("x", 1, 1)};
    CompareSettings s;
    CHECK(regressions(compareReports(base, now, s), s).empty());  // +1% is inside 2%
    now.summary.endToEndNs = 1100;
    auto why = regressions(compareReports(base, now, s), s);
    REQUIRE(why.size() == 1);
    CHECK(why[0].find("end-to-end time grew +10.0%") != std::string::npos);
    now.anomalies = {anomaly(0, "x", 10, 7, Resource::Cache)};
    now.windows = {window(Resource::Cache, 10, {"x", "y"})};
    CHECK(regressions(compareReports(base, now, s), s).size() == 3);
    s.maxNewAnomalies = 1;
    s.maxNewWindows = 1;
    s.endToEndTolerance = 0.2;
    CHECK(regressions(compareReports(base, now, s), s).empty());
}

TEST_CASE("compare JSON follows contend.compare/1 and trend lists scores per run", "[compare]") {
    Report base = twoIterations(1000);
    Report now = twoIterations(900);
    base.operators = {sig("conv", 2, 100)};
    now.operators = base.operators;
    base.anomalies = {anomaly(0, "conv", 10, 6, Resource::Bandwidth)};
    auto j = compareToJson(compareReports(base, now));
    CHECK(j["schema"] == "contend.compare/1");
    CHECK(j["summary"]["end_to_end_ns"]["base"] == 1000);
    CHECK(j["summary"]["end_to_end_ns"]["new"] == 900);
    CHECK(j["summary"]["bottleneck"]["shifted"] == false);
    CHECK(j["anomalies"]["resolved"].size() == 1);
    CHECK(j["anomalies"]["persisting"].empty());
    CHECK(j["anomalies"]["new"].empty());
    CHECK(j["windows"].contains("resolved"));
    CHECK(j["clusters"].contains("new"));
    CHECK(j["operators"][0]["change"] == "=");
    Trend t = trendOf({base, now, base});
    REQUIRE(t.runs.size() == 3);
    REQUIRE(t.signatures.size() == 1);
    CHECK(t.signatures[0].maxScore[0] == Approx(6));
    CHECK(std::isnan(t.signatures[0].maxScore[1]));
    CHECK(t.signatures[0].maxScore[2] == Approx(6));
}

TEST_CASE("the compare markdown says a bottleneck that went away is gone, not the same", "[compare][report]") {
    CompareResult r;
    r.bottleneck.baseResource = Resource::Sync;
    r.bottleneck.newResource = Resource::None;
    r.bottleneck.shifted = false;
    CHECK(compareToMarkdown(r).find("| bottleneck | sync | none | gone |") != std::string::npos);
    r.bottleneck.newResource = Resource::Sync;
    CHECK(compareToMarkdown(r).find("| bottleneck | sync | sync | same |") != std::string::npos);
    r.bottleneck.baseResource = Resource::None;
    CHECK(compareToMarkdown(r).find("| bottleneck | none | sync | appeared |") != std::string::npos);
    r.bottleneck.baseResource = Resource::Lock;
    r.bottleneck.shifted = true;
    CHECK(compareToMarkdown(r).find("| bottleneck | lock | sync | shifted |") != std::string::npos);
}
