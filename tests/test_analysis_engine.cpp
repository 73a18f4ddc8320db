// The two-stage engine and the report contract: re-thresholding equals a full recompute, the
// JSON round trip keeps everything, the Markdown report and the atomic file write.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "analysis_sim.h"
#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/analysis/whatif/whatif.h"
#include "core/common/atomic_write.h"
#include "core/report/single/report_json.h"
#include "test_support.h"

using namespace contend;

namespace {
const TracePtr& mixedTrace() { return contend::test::simulated(sim::Scenario::Mixed, false, 3).trace; }
}  // namespace

TEST_CASE("re-thresholding a prepared analysis equals analysing from scratch", "[analysis][engine]") {
    auto p = prepareAnalysis(mixedTrace(), AnalysisSettings{}).value();
    REQUIRE(p);
    for (auto [k, ratio] : {std::pair{3.0, 0.7}, {1.5, 0.5}, {5.0, 0.95}, {0.0, 0.1}}) {
        AnalysisSettings s;
        s.coefficient = k;
        s.overlapRatio = ratio;
        const Report fresh = contend::test::analyzeOk(mixedTrace(), s);
        Report rethresholded = buildReport(*p, k, ratio);
        predictGains(*p, rethresholded);  // the pipeline adds the what-if too
        CHECK(reportToJson(rethresholded) == reportToJson(fresh));
        // The views' per-slice arrays (slice_view.h) do not depend on the thresholds: an analysis
        // prepared with these gives the same signatures, scores and slack as p's, which every
        // report of p is shown beside (no report carries a copy).
        const auto q = prepareAnalysis(mixedTrace(), s).value();
        const SliceView &mine = *p->sliceView(), &theirs = *q->sliceView();
        REQUIRE(mine.slices() == theirs.slices());
        REQUIRE(mine.slices() == mixedTrace()->slices().size());
        std::size_t differ = 0;
        for (std::uint32_t sl = 0; sl < mine.slices(); ++sl) {
            const float a = mine.scoreOf(sl), b = theirs.scoreOf(sl);
            differ += mine.signatureOf(sl) != theirs.signatureOf(sl) || mine.slackOf(sl) != theirs.slackOf(sl) ||
                      (std::isnan(a) ? !std::isnan(b) : a != b);
        }
        CHECK(differ == 0);
    }
    // Lower coefficient: a superset of anomalies; anomalies sorted by score, highest first.
    const Report loose = buildReport(*p, 1.0, 0.7), strict = buildReport(*p, 4.0, 0.7);
    CHECK(loose.anomalies.size() >= strict.anomalies.size());
    for (std::size_t i = 1; i < loose.anomalies.size(); ++i)
        CHECK(loose.anomalies[i - 1].score >= loose.anomalies[i].score);
}

// How long a re-threshold takes is the benches' to print (contend-cli bench-analyze, the
// re-threshold ms of scripts/bench-scale.sh), not a test's to bound: a wall-clock bound fails on a
// loaded machine or under the sanitizers. What a test can hold: re-thresholding one prepared
// analysis again and again gives each time what it gave the first time.
TEST_CASE("re-thresholding one prepared analysis again and again gives the same reports", "[analysis][engine]") {
    auto p = prepareAnalysis(mixedTrace(), AnalysisSettings{}).value();
    std::vector<std::size_t> first;
    for (int i = 0; i < 20; ++i) first.push_back(buildReport(*p, 1.0 + 0.2 * i, 0.5 + 0.02 * i).anomalies.size());
    for (int i = 19; i >= 0; --i)
        CHECK(buildReport(*p, 1.0 + 0.2 * i, 0.5 + 0.02 * i).anomalies.size() == first[static_cast<std::size_t>(i)]);
}

TEST_CASE("a report survives the JSON round trip", "[analysis][report]") {
    const Report r = contend::test::analyzeOk(mixedTrace(), AnalysisSettings{});
    REQUIRE_FALSE(r.anomalies.empty());
    REQUIRE_FALSE(r.windows.empty());
    REQUIRE_FALSE(r.clusters.empty());
    const nlohmann::json j = reportToJson(r, *mixedTrace(), ReportSchemaVersion::V2);
    CHECK(j["schema"] == "contend.report/2");
    CHECK(j["anomalies"][0]["start_ns"].is_number_integer());
    CHECK(j["anomalies"][0]["pid"] == 0);  // as in the file: a number
    CHECK(j["summary"]["bottleneck"]["resource"].is_string());
    // Through text, as compare reads it from disk.
    auto back = reportFromJson(nlohmann::json::parse(j.dump()));
    REQUIRE(back);
    CHECK(back->anomalies.size() == r.anomalies.size());
    CHECK(back->windows.size() == r.windows.size());
    CHECK(back->clusters.size() == r.clusters.size());
    CHECK(back->operators.size() == r.operators.size());
    CHECK(back->anomalies[0].name == r.anomalies[0].name);
    CHECK(back->anomalies[0].startNs == r.anomalies[0].startNs);
    CHECK(back->anomalies[0].cause == r.anomalies[0].cause);
    CHECK(back->anomalies[0].breakdown.dataWaitNs == r.anomalies[0].breakdown.dataWaitNs);
    CHECK(back->windows[0].ops[0].name == r.windows[0].ops[0].name);
    CHECK(back->summary.bottleneck == r.summary.bottleneck);
    CHECK(reportToJson(*back) == reportToJson(r));

    const auto future = reportFromJson(nlohmann::json{{"schema", "contend.report/5"}});
    REQUIRE_FALSE(future);
    CHECK(future.failure().kind == Failure::Kind::Malformed);
    CHECK(future.failure().reason.find("contend.report/4") != std::string::npos);
    // A report/1 (no what-if) still reads: gains and critical paths come back as not computed.
    nlohmann::json v1 = j;
    v1["schema"] = "contend.report/1";
    v1.erase("what_if");
    for (auto& a : v1["anomalies"]) a.erase("gain_ns"), a.erase("slack_ns");
    for (auto& it : v1["iterations"]) it.erase("critical_path_ns"), it.erase("critical_track");
    auto old = reportFromJson(v1);
    REQUIRE(old);
    CHECK_FALSE(old->whatIf.computed);
    CHECK(old->anomalies[0].gainNs == -1);
    CHECK(old->anomalies.size() == r.anomalies.size());
    nlohmann::json broken = j;
    broken["anomalies"][0].erase("start_ns");
    const auto bad = reportFromJson(broken);
    REQUIRE_FALSE(bad);
    CHECK(bad.failure().kind == Failure::Kind::Malformed);
    CHECK(bad.failure().reason.find("anomalies[0]") != std::string::npos);
}

TEST_CASE("the Markdown report names the bottleneck and what to try", "[analysis][report]") {
    const Report r = contend::test::analyzeOk(mixedTrace(), AnalysisSettings{});
    const std::string md = reportToMarkdown(r, *mixedTrace());
    CHECK(md.find("# Contention report") != std::string::npos);
    CHECK(md.find("## Top anomalies") != std::string::npos);
    CHECK(md.find("## Contention windows") != std::string::npos);
    CHECK(md.find("## Clusters of tiny operators") != std::string::npos);
    CHECK(md.find("## What to try") != std::string::npos);
    CHECK(md.find(resourceName(r.summary.bottleneck)) != std::string::npos);
}

TEST_CASE("files are written atomically: all or nothing", "[analysis][report]") {
    contend::test::TempFile dir("atomic-dir");
    std::filesystem::create_directories(dir.path());
    const std::string path = dir.path() + "/report.json";
    REQUIRE_FALSE(writeFileAtomically(path, "first"));
    REQUIRE_FALSE(writeFileAtomically(path, "second"));
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    CHECK(ss.str() == "second");
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
        (void)e;
        ++files;
    }
    CHECK(files == 1);  // no temporary left behind
    const auto failed = writeFileAtomically(dir.path() + "/missing/report.json", "x");
    REQUIRE(failed);
    CHECK(failed->kind == Failure::Kind::Unreadable);
    CHECK(failed->message().find("missing/report.json") != std::string::npos);
}

TEST_CASE("the preparation says each stage once, in order, with rising shares", "[analysis][engine][progress]") {
    std::vector<PrepareStage> told;
    auto p = prepareAnalysis(mixedTrace(), AnalysisSettings{}, {}, [&](PrepareStage s) { told.push_back(s); });
    REQUIRE(p);
    REQUIRE(told.size() == kPrepareStages);
    for (std::size_t k = 0; k < told.size(); ++k) {
        INFO("stage " << k << ": " << prepareStageName(told[k]));
        CHECK(static_cast<std::size_t>(told[k]) == k);
        CHECK(std::string(prepareStageName(told[k])) != "analysing");
        if (k == 0) CHECK(prepareStageStart(told[k]) == 0.0);
        if (k > 0) CHECK(prepareStageStart(told[k]) > prepareStageStart(told[k - 1]));
        CHECK(prepareStageStart(told[k]) < 1.0);
    }
    // A cancel stops the stages where it is asked: no stage is told after it.
    told.clear();
    int asked = 0;
    auto stopped = prepareAnalysis(
        mixedTrace(), AnalysisSettings{}, [&] { return ++asked < 4; }, [&](PrepareStage s) { told.push_back(s); });
    CHECK(stopped.cancelled());
    CHECK(!told.empty());
    CHECK(told.size() < kPrepareStages);
}

TEST_CASE("the preparation times each stage, and the stages add up to the whole", "[analysis][engine][progress]") {
    auto p = prepareAnalysis(mixedTrace(), AnalysisSettings{});
    REQUIRE(p);
    const PrepareTimes& t = p.value()->prepareTimes();
    CHECK(t.operatorsMs >= 0.0);
    double sum = t.operatorsMs;
    for (std::size_t k = 0; k < kPrepareStages; ++k) {
        INFO(prepareStageName(static_cast<PrepareStage>(k)));
        CHECK(t.stageMs[k] >= 0.0);
        sum += t.stageMs[k];
    }
    CHECK(t.totalMs() == Approx(sum));
    CHECK(t.totalMs() > 0.0);
    // The laps cover the preparation from its start to its end, and nothing outside it.
    CHECK(t.totalMs() <= p.value()->prepareSeconds() * 1000.0 + 1e-6);
    CHECK(t.totalMs() >= 0.9 * p.value()->prepareSeconds() * 1000.0);
}
