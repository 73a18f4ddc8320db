// What the app's cluster view reads: a cluster report read back as it was written (and an older
// one without ranks[].trace / late_start_ns), broken ones refused with the place named; which
// folders are clusters; the ranks analysed in a stream with a cancel; two clusters compared.
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "core/analysis/ranks/rank_compare.h"
#include "core/io/reader_table.h"
#include "core/pipeline/cluster_run.h"
#include "core/report/ranks/cluster_report.h"
#include "core/report/single/report_json.h"
#include "core/sim/cluster_simulation.h"
#include "test_support.h"

using namespace contend;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path tempDir(const std::string& name) {
    const fs::path p = fs::temp_directory_path() / ("contend-test-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
}

// A small cluster by hand: 3 ranks, 2 steps, rank 2 slow in step 1 where it held up AllReduce #0.
ClusterReport handMade() {
    ClusterReport c;
    c.settings = {5.0, 0.01};
    c.ranks = {0, 1, 2};
    c.sources = {"r0.report.json", "r1.report.json", "r2.report.json"};
    c.traces = {"/data/rank-0.json", "/data/rank-1.json", ""};
    c.collectivesPerRank = {2, 2, 2};
    for (std::uint32_t step : {1u, 2u}) {
        ClusterIteration it;
        it.index = step;
        it.medianComputeNs = 1'000'000;
        it.madComputeNs = 1000;
        it.thresholdNs = 1'050'000;
        it.spread = step == 1 ? 0.2 : 0.01;
        for (int r = 0; r < 3; ++r) {
            const bool slow = step == 1 && r == 2;
            it.ranks.push_back({r, 1'300'000, slow ? 10'000 : 250'000, slow ? 1'290'000 : 1'050'000, slow, slow});
        }
        c.iterations.push_back(it);
    }
    c.slowRanks.push_back({2, {1}, 290'000});
    ClusterCollective k;
    k.iteration = 1;
    k.name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)";
    k.key = k.name;
    k.ranks = 3;
    k.lateRank = 2;
    k.lateByNs = 240'000;
    k.maxWaitNs = 245'000;
    k.meanWaitNs = 240'000;
    k.lateStartNs = 1'700'000'000'123'456'789;
    k.spreadNs = 3000;
    k.heldUp = true;
    k.hasCause = true;
    k.cause.finding = {1'700'000'000'000'000'000,
                       1'700'000'000'100'000'000,
                       Resource::Bandwidth,
                       Provenance::Measured,
                       "layer_norm",
                       200'000,
                       true};
    k.cause.text = "rank 2 arrived 240.0 us late at ...";
    c.collectives.push_back(k);
    ClusterCollective quiet = k;
    quiet.iteration = 2;
    quiet.heldUp = false;
    quiet.hasCause = false;
    quiet.cause = {};
    quiet.lateRank = 0;
    c.collectives.push_back(quiet);
    c.notes.push_back({"ranks-missing", "3 of the job's 4 ranks were merged"});
    return c;
}

std::string readError(const json& j) {
    const Result<ClusterReport> read = clusterFromJson(j);
    REQUIRE_FALSE(read);
    CHECK(read.failure().kind == Failure::Kind::Malformed);
    return read.failure().reason;
}

}  // namespace

TEST_CASE("a cluster report reads back as it was written, and an older one without trace paths still reads",
          "[cluster][report]") {
    const ClusterReport c = handMade();
    const json written = clusterToJson(c);
    CHECK(written["ranks"][0]["trace"] == "/data/rank-0.json");
    CHECK_FALSE(written["ranks"][2].contains("trace"));  // unknown: left out, not ""
    CHECK(written["collectives"][0]["late_start_ns"] == 1'700'000'000'123'456'789LL);
    const auto back = clusterFromJson(written);
    REQUIRE(back);
    CHECK(clusterToJson(*back) == written);
    CHECK(back->traces == c.traces);
    CHECK(back->collectives[0].hasCause);
    CHECK(back->collectives[0].cause.finding.resource == Resource::Bandwidth);
    CHECK_FALSE(back->collectives[1].hasCause);

    json old = written;
    for (json& r : old["ranks"]) r.erase("trace");
    for (json& k : old["collectives"]) k.erase("late_start_ns");
    const auto older = clusterFromJson(old);
    REQUIRE(older);
    CHECK(older->traces == std::vector<std::string>{"", "", ""});
    CHECK(older->collectives[0].lateStartNs == 0);
    CHECK(older->slowRanks.size() == 1);

    // From a file, and recognised as a cluster report without reading it all.
    const fs::path dir = tempDir("cluster-read");
    const fs::path file = dir / "cluster.json";
    std::ofstream(file) << jsonText(written);
    CHECK(looksLikeClusterReport(file.string()));
    REQUIRE(readClusterReport(file.string()));
    std::ofstream(dir / "trace.json") << R"({"traceEvents": [{"ph": "X", "name": "k", "ts": 1, "dur": 2}]})";
    CHECK_FALSE(looksLikeClusterReport((dir / "trace.json").string()));
    const auto notCluster = readClusterReport((dir / "trace.json").string());
    REQUIRE_FALSE(notCluster);
    CHECK(notCluster.failure().kind == Failure::Kind::Malformed);
    CHECK(notCluster.failure().message().find("trace.json: cluster: \"schema\" is not contend.cluster/1") !=
          std::string::npos);
    const auto missing = readClusterReport((dir / "missing.json").string());
    REQUIRE_FALSE(missing);
    CHECK(missing.failure().kind == Failure::Kind::Unreadable);
    CHECK(missing.failure().message().find("missing.json: cannot open") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a broken cluster report is refused with the place named, never a cast out of range", "[cluster][report]") {
    const json good = clusterToJson(handMade());
    struct Row {
        const char* what;
        std::function<void(json&)> breakIt;
        const char* message;
    };
    const Row rows[] = {
        {"a huge float time", [](json& j) { j["collectives"][0]["late_by_ns"] = 3e126; },
         "collectives/0: \"late_by_ns\" has the wrong type or is out of range"},
        {"a negative rank", [](json& j) { j["ranks"][1]["rank"] = -1; },
         "ranks/1: \"rank\" has the wrong type or is out of range"},
        {"a negative count", [](json& j) { j["ranks"][0]["collectives"] = -4; },
         "ranks/0: \"collectives\" has the wrong type or is out of range"},
        {"a missing field", [](json& j) { j["iterations"][1]["ranks"][2].erase("compute_ns"); },
         "iterations/1/ranks/2: missing \"compute_ns\""},
        {"a string for a flag", [](json& j) { j["collectives"][1]["held_up"] = "no"; },
         "collectives/1: \"held_up\" is not true or false"},
        {"an unknown resource", [](json& j) { j["collectives"][0]["cause"]["resource"] = "magic"; },
         "collectives/0/cause: unknown resource \"magic\""},
        {"not an array", [](json& j) { j["slow_ranks"] = 3; }, "cluster: \"slow_ranks\" is not an array"},
        {"another schema", [](json& j) { j["schema"] = "contend.report/2"; },
         "cluster: \"schema\" is not contend.cluster/1"},
        {"a fractional step", [](json& j) { j["iterations"][0]["index"] = 1.5; },
         "iterations/0: \"index\" has the wrong type or is out of range"},
    };
    for (const Row& r : rows) {
        INFO(r.what);
        json j = good;
        r.breakIt(j);
        CHECK(readError(j) == r.message);
    }
    CHECK(readError(json::array()) == "cluster: not a JSON object");
}

TEST_CASE("cluster folders: several ranks, not one rank's profiler folder, and the ranks stream through with a cancel",
          "[cluster][sim]") {
    const fs::path dir = tempDir("cluster-run");
    sim::ClusterRequest req;
    req.ranks = 4;
    req.slowRank = 1;
    req.iterations = 6;
    req.outDir = (dir / "c").string();
    REQUIRE(sim::runClusterSimulation(req).ok());
    CHECK(isClusterFolder((dir / "c").string()));
    CHECK(findRankTraces((dir / "c").string()).size() == 4);  // not cluster-truth.json
    const std::string rank0 = sim::rankFileName(0, 4, false), rank1 = sim::rankFileName(1, 4, false);
    CHECK_FALSE(isClusterFolder((dir / "c" / rank0).string()));
    fs::create_directories(dir / "one");
    fs::copy_file(dir / "c" / rank0, dir / "one" / rank0);
    CHECK_FALSE(isClusterFolder((dir / "one").string()));  // one rank is not a cluster
    fs::create_directories(dir / "x_ascend_pt");
    CHECK(isRankFolder((dir / "x_ascend_pt").string()));
    CHECK_FALSE(isClusterFolder((dir / "x_ascend_pt").string()));

    ClusterRunOptions o;
    std::atomic<int> done{0};
    o.rankDone = [&](std::size_t n, std::size_t total, const std::string&) {
        CHECK(total == 4);
        done = static_cast<int>(n);
    };
    ClusterRunResult r = analyseRanks(findRankTraces((dir / "c").string()), o);
    REQUIRE(r.ok());
    CHECK(done == 4);
    std::vector<RankInput>& ranks = r.value();
    REQUIRE(ranks.size() == 4);
    for (int i = 0; i < 4; ++i) {
        CHECK(ranks[static_cast<std::size_t>(i)].rank == i);
        CHECK(fs::path(ranks[static_cast<std::size_t>(i)].trace).is_absolute());
    }
    const ClusterReport c = mergeRanks(std::move(ranks));
    REQUIRE(c.traces.size() == 4);
    CHECK(fs::exists(c.traces[1]));

    // Cancel: asked from the workers, it stops the run and nothing is merged.
    ClusterRunOptions cancel;
    std::atomic<int> asked{0};
    cancel.keepGoing = [&] { return ++asked < 3; };
    const ClusterRunResult stopped = analyseRanks(findRankTraces((dir / "c").string()), cancel);
    CHECK(stopped.cancelled());
    CHECK(stopped.failure().kind == Failure::Kind::Cancelled);
    // A rank twice is an error naming both files.
    fs::copy_file(dir / "c" / rank1, dir / "c" / "rank-1-again.json");
    const ClusterRunResult twice = analyseRanks(findRankTraces((dir / "c").string()), ClusterRunOptions{});
    REQUIRE_FALSE(twice.ok());
    CHECK_FALSE(twice.cancelled());
    CHECK(twice.failure().message().find("are both rank 1") != std::string::npos);
    CHECK(twice.failure().message().find("rank-1-again.json") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("two clusters compared: per rank step time before and after, slow ranks gone, still and new",
          "[cluster][compare]") {
    const ClusterReport slow = handMade();
    ClusterReport fixed = handMade();
    fixed.slowRanks.clear();
    for (ClusterIteration& it : fixed.iterations)
        for (RankStep& s : it.ranks) {
            s.slow = s.slowCompute = false;
            s.stepNs = 1'100'000;
        }
    const ClusterComparison gone = compareClusters(slow, fixed);
    CHECK(gone.gone == std::vector<int>{2});
    CHECK(gone.still.empty());
    CHECK(gone.added.empty());
    REQUIRE(gone.ranks.size() == 3);
    CHECK(gone.ranks[2].slow == SlowChange::Gone);
    CHECK(gone.ranks[2].baseSlowSteps == 1);
    CHECK(gone.ranks[2].newSlowSteps == 0);
    CHECK(gone.ranks[0].slow == SlowChange::NotSlow);
    CHECK(gone.ranks[0].baseStepNs == 1'300'000);
    CHECK(gone.ranks[0].newStepNs == 1'100'000);
    CHECK(gone.verdict.find("Slow rank 2 is gone") != std::string::npos);
    CHECK(gone.verdict.find("1.300 ms -> 1.100 ms (-15.4%)") != std::string::npos);

    const ClusterComparison added = compareClusters(fixed, slow);
    CHECK(added.added == std::vector<int>{2});
    CHECK(added.verdict.find("Rank 2 newly slow") != std::string::npos);
    const ClusterComparison same = compareClusters(slow, slow);
    CHECK(same.still == std::vector<int>{2});
    const ClusterComparison none = compareClusters(fixed, fixed);
    CHECK(none.verdict.find("No rank is slow in either cluster") == 0);
    // A rank only on one side is listed, with its side.
    ClusterReport more = fixed;
    more.ranks.push_back(3);
    more.sources.emplace_back("r3");
    more.traces.emplace_back("");
    more.collectivesPerRank.push_back(0);
    const ClusterComparison grown = compareClusters(fixed, more);
    REQUIRE(grown.ranks.size() == 4);
    CHECK_FALSE(grown.ranks[3].inBase);
    CHECK(grown.ranks[3].inNew);
}
