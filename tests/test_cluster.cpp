// Clusters: the simulator's per-rank traces with their truth, the rank and collectives a report
// carries, `contend-cli merge` / `cluster`, and the real multi-rank samples opened as clusters.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/analysis/ranks/rank_merge.h"
#include "core/report/ranks/cluster_report.h"
#include "json_schema_check.h"
#include "test_paths.h"
#include "test_support.h"

using nlohmann::json;
namespace fs = std::filesystem;
using contend::test::runCli;
using contend::test::slurp;

namespace {

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }
json readJson(const fs::path& p) { return json::parse(slurp(p)); }

contend::test::JsonSchemaCheck schema(const char* name) { return contend::test::schemaCheck(name); }
using contend::test::TempDir;

void requireValid(const contend::test::JsonSchemaCheck& s, const json& doc, const std::string& what) {
    const auto errors = s.errors(doc);
    INFO(what);
    for (const auto& e : errors) INFO(e);
    REQUIRE(errors.empty());
}

struct Score {
    std::size_t delayed = 0;
    std::size_t named = 0;
    std::size_t wrongHeldUp = 0;  // held-up collectives blamed on another rank than the culprit
    std::vector<int> slowRanks;
};

// How many of the truth's delayed iterations the cluster report names: the site's collective
// in that step held up by the culprit, with a cause whose window overlaps the truth's window.
Score score(const json& cluster, const json& truth) {
    Score s;
    std::map<std::pair<int, int>, const json*> byStep;
    for (const json& c : cluster["collectives"]) byStep[{c["iteration"].get<int>(), c["ordinal"].get<int>()}] = &c;
    const json& culprit = truth["slow_rank"];
    for (const json& d : truth["delayed"]) {
        ++s.delayed;
        auto it = byStep.find({d["iteration"].get<int>(), d["collective"].get<int>()});
        if (it == byStep.end()) continue;
        const json& c = *it->second;
        if (c["late_rank"] != d["rank"] || !c["held_up"].get<bool>() || !c["cause"].is_object()) continue;
        const json& f = c["cause"];
        const bool overlaps = f["start_ns"].get<long long>() < d["window"]["end_ns"].get<long long>() &&
                              f["end_ns"].get<long long>() > d["window"]["start_ns"].get<long long>();
        if (overlaps && f["resource"] == "bandwidth") ++s.named;
    }
    for (const json& c : cluster["collectives"])
        if (c["held_up"].get<bool>() && (culprit.is_null() || c["late_rank"] != culprit)) ++s.wrongHeldUp;
    for (const json& r : cluster["slow_ranks"]) s.slowRanks.push_back(r["rank"].get<int>());
    return s;
}

// Simulates a cluster, opens it with `cluster` (writing the per-rank reports), merges those
// reports with `merge`, and checks both say the same and validate.
json clusterOf(const TempDir& dir, const std::string& simArgs, const std::string& tag) {
    const fs::path traces = dir / tag, reports = dir / (tag + "-reports");
    REQUIRE(runCli("simulate " + simArgs + " --quiet --out " + q(traces)) == 0);
    REQUIRE(runCli("cluster " + q(traces) + " --jobs 2 --reports " + q(reports) + " --out " +
                   q(dir / (tag + ".cluster.json"))) == 0);
    std::string list;
    for (const auto& e : fs::directory_iterator(reports)) list += " " + q(e.path());
    REQUIRE(runCli("merge" + list + " --out " + q(dir / (tag + ".merged.json")) + " --markdown " +
                   q(dir / (tag + ".md"))) == 0);
    const json cluster = readJson(dir / (tag + ".cluster.json"));
    const json merged = readJson(dir / (tag + ".merged.json"));
    // Same verdicts from the traces and from the saved reports alone.
    REQUIRE(cluster["collectives"] == merged["collectives"]);
    REQUIRE(cluster["slow_ranks"] == merged["slow_ranks"]);
    requireValid(schema("contend.cluster.schema.json"), cluster, tag + " cluster report");
    const auto report = schema("contend.report.schema.json");
    for (const auto& e : fs::directory_iterator(reports)) requireValid(report, readJson(e.path()), e.path().string());
    REQUIRE(slurp(dir / (tag + ".md")).find("# Cluster report") != std::string::npos);
    return cluster;
}

}  // namespace

TEST_CASE("simulated 8-rank clusters: the culprit rank and its window are named for the delayed iterations",
          "[cluster][sim]") {
    TempDir dir("cluster8");
    for (const int seed : {1, 2, 3}) {
        const int slow = (seed * 3) % 8;
        INFO("seed " << seed << ", slow rank " << slow);
        const json cluster = clusterOf(
            dir, "bandwidth --ranks 8 --slow-rank " + std::to_string(slow) + " --seed " + std::to_string(seed),
            "s" + std::to_string(seed));
        const json truth = readJson(dir / ("s" + std::to_string(seed)) / "cluster-truth.json");
        REQUIRE(truth["slow_rank"] == slow);
        const Score s = score(cluster, truth);
        REQUIRE(s.delayed >= 6);  // bad rate 0.5 over 24 steps
        CHECK(s.named * 10 >= s.delayed * 9);
        CHECK(s.wrongHeldUp == 0);
        CHECK(s.slowRanks == std::vector<int>{slow});
        REQUIRE(cluster["summary"]["ranks"] == 8);
    }
}

TEST_CASE("a simulated 64-rank cluster names its culprit and a 64-rank null cluster blames no rank", "[cluster][sim]") {
    TempDir dir("cluster64");
    const json cluster = clusterOf(dir, "bandwidth --ranks 64 --slow-rank 37 --seed 11", "c64");
    const Score s = score(cluster, readJson(dir / "c64" / "cluster-truth.json"));
    REQUIRE(s.delayed >= 6);
    CHECK(s.named * 10 >= s.delayed * 9);
    CHECK(s.wrongHeldUp == 0);
    CHECK(s.slowRanks == std::vector<int>{37});
    fs::remove_all(dir / "c64");

    const json null = clusterOf(dir, "null --ranks 64 --seed 5", "n64");
    CHECK(null["summary"]["held_up"] == 0);
    CHECK(null["slow_ranks"].empty());
    REQUIRE(null["summary"]["collectives"] == 24 * 4);
}

TEST_CASE("null clusters and clusters without a slow rank blame no rank", "[cluster][sim]") {
    TempDir dir("cluster-null");
    for (const std::string args :
         {"null --ranks 8 --seed 1", "null --ranks 8 --seed 2", "bandwidth --ranks 8 --seed 3"}) {
        INFO(args);
        const json c = clusterOf(dir, args, "n" + std::to_string(args.size()) + args.substr(args.size() - 1));
        CHECK(c["summary"]["held_up"] == 0);
        CHECK(c["slow_ranks"].empty());
        REQUIRE(c["summary"]["collectives"] == 96);  // matched on every rank: the test ran
    }
}

TEST_CASE("cluster simulation: seeded and deterministic, one rank per file with distributedInfo, refuses bad requests",
          "[cluster][sim]") {
    TempDir dir("cluster-det");
    REQUIRE(runCli("simulate bandwidth --ranks 3 --slow-rank 1 --seed 9 --iterations 6 --quiet --out " +
                   q(dir / "a")) == 0);
    REQUIRE(runCli("simulate bandwidth --ranks 3 --slow-rank 1 --seed 9 --iterations 6 --quiet --out " +
                   q(dir / "b")) == 0);
    for (const char* f : {"rank-00.json", "rank-01.json", "rank-02.json", "cluster-truth.json"}) {
        INFO(f);
        REQUIRE(!slurp(dir / "a" / f).empty());
        REQUIRE(slurp(dir / "a" / f) == slurp(dir / "b" / f));
    }
    REQUIRE(runCli("simulate bandwidth --ranks 3 --slow-rank 1 --seed 10 --iterations 6 --quiet --out " +
                   q(dir / "c")) == 0);
    REQUIRE(slurp(dir / "a" / "rank-01.json") != slurp(dir / "c" / "rank-01.json"));
    for (int r = 0; r < 3; ++r) {
        const auto lr = contend::loadTrace((dir / "a" / ("rank-0" + std::to_string(r) + ".json")).string());
        REQUIRE(lr);
        CHECK(lr.value()->rank() == r);
        CHECK(lr.value()->worldSize() == 3);
    }
    const json truth = readJson(dir / "a" / "cluster-truth.json");
    CHECK(truth["schema"] == "contend.cluster-truth/1");
    CHECK(truth["files"].size() == 3);
    for (const json& d : truth["delayed"]) {
        CHECK(d["rank"] == 1);
        CHECK(d["window"]["end_ns"].get<long long>() > d["window"]["start_ns"].get<long long>());
        CHECK(std::find(truth["bad_iterations"].begin(), truth["bad_iterations"].end(), d["iteration"]) !=
              truth["bad_iterations"].end());
    }
    // No temporary files are left behind.
    for (const auto& e : fs::directory_iterator(dir / "a"))
        CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
    CHECK(runCli("simulate bandwidth --ranks 3 --slow-rank 3 --out " + q(dir / "d")) == 2);
    CHECK(runCli("simulate null --ranks 3 --slow-rank 0 --out " + q(dir / "d")) == 2);
    CHECK(runCli("simulate cache --ranks 3 --out " + q(dir / "d")) == 2);
    CHECK(runCli("simulate bandwidth --slow-rank 0 --out " + q(dir / "d")) == 2);
    CHECK(runCli("simulate bandwidth --ranks 1 --out " + q(dir / "d")) == 2);
    CHECK(runCli("simulate bandwidth --ranks 3 --format nsys-sqlite --out " + q(dir / "d")) == 2);
    CHECK(!fs::exists(dir / "d"));
}

TEST_CASE("merge rules: the late rank from durations, held up against the others' spread, the finding before it",
          "[cluster]") {
    using namespace contend;
    // Four ranks, one step [0, 10 ms), two AllReduces. Rank 2 reaches the first one 500 us late:
    // its kernel is 500 us shorter than the others', whose arrivals differ by a few us.
    std::vector<RankInput> ranks;
    for (int r = 0; r < 4; ++r) {
        RankInput in;
        in.rank = r;
        in.source = "rank" + std::to_string(r);
        IterationStats it;
        it.index = 7;
        it.start = 0;
        it.end = 10'000'000;
        in.iterations.push_back(it);
        in.distributed.rank = r;
        in.distributed.collectiveNames = {"hcom_allReduce__271_" + std::to_string(r) + "_1"};
        const TimeNs late = r == 2 ? 500'000 : r * 3'000;
        in.distributed.collectives.push_back({7, 0, 4'000'000 + late, 600'000 - late});
        in.distributed.collectives.push_back({7, 0, 8'000'000 + r * 2'000, 100'000 - r * 2'000});
        ranks.push_back(std::move(in));
    }
    RankFinding before{3'000'000, 4'400'000, Resource::Bandwidth, Provenance::Measured, "layer_norm_bwd",
                       400'000,   true};
    RankFinding after{4'700'000, 4'900'000, Resource::Cache, Provenance::Estimated, "conv", 900'000, true};
    ranks[2].findings = {before, after};
    std::swap(ranks[0], ranks[3]);  // input order does not matter

    const ClusterReport c = mergeRanks(ranks);
    REQUIRE(c.ranks == std::vector<int>{0, 1, 2, 3});
    REQUIRE(c.collectives.size() == 2);
    const ClusterCollective& a = c.collectives[0];
    CHECK(a.key == "hcom_allReduce");  // rank-specific suffixes still match
    CHECK(a.ordinal == 0);
    CHECK(a.lateRank == 2);
    CHECK(a.lateByNs == 500'000 - 9'000);  // rank 3 was the next-latest
    CHECK(a.maxWaitNs == 500'000);
    CHECK(a.heldUp);
    REQUIRE(a.hasCause);
    CHECK(a.cause.finding.op == "layer_norm_bwd");  // the one after its arrival is not a cause
    CHECK(a.cause.text.find("rank 2 arrived") == 0);
    CHECK(a.cause.text.find("bandwidth window") != std::string::npos);
    // The second collective: arrivals 2 us apart, none held up.
    CHECK(c.collectives[1].ordinal == 1);
    CHECK(c.collectives[1].lateRank == 3);
    CHECK_FALSE(c.collectives[1].heldUp);
    REQUIRE(c.slowRanks.size() == 1);
    CHECK(c.slowRanks[0].rank == 2);
    // Step 7: rank 2 waited least, so its compute is the largest.
    const ClusterIteration& it = c.iterations.at(0);
    CHECK(it.index == 7);
    const auto r2 = std::find_if(it.ranks.begin(), it.ranks.end(), [](const RankStep& s) { return s.rank == 2; });
    const auto r0 = std::find_if(it.ranks.begin(), it.ranks.end(), [](const RankStep& s) { return s.rank == 0; });
    CHECK(r2->waitNs < r0->waitNs);
    CHECK(r0->computeNs == r0->stepNs - r0->waitNs);
    CHECK(it.spread > 0);

    // The same delay, but everyone's arrivals are spread wider than it: nobody is blamed.
    for (int r = 0; r < 4; ++r) ranks[r].distributed.collectives[0].durNs = 600'000 - (ranks[r].rank * 400'000) / 3;
    const ClusterReport wide = mergeRanks(ranks);
    CHECK_FALSE(wide.collectives[0].heldUp);
    CHECK(wide.slowRanks.empty());

    // Two ranks: no test, said in a note.
    ranks.resize(2);
    const ClusterReport two = mergeRanks(ranks);
    CHECK(two.slowRanks.empty());
    CHECK(std::any_of(two.notes.begin(), two.notes.end(),
                      [](const ClusterNote& n) { return n.kind == "too-few-ranks"; }));
}

TEST_CASE("merge refuses reports without a rank, with the same rank twice, or not reports, naming the file",
          "[cluster][cli]") {
    TempDir dir("merge-bad");
    REQUIRE(runCli("simulate bandwidth --seed 2 --iterations 6 --quiet --out " + q(dir / "one.json")) == 0);
    REQUIRE(runCli("analyze " + q(dir / "one.json") + " --json " + q(dir / "norank.report.json")) == 0);
    REQUIRE(runCli("simulate bandwidth --ranks 2 --iterations 6 --quiet --out " + q(dir / "c")) == 0);
    REQUIRE(runCli("analyze " + q(dir / "c" / "rank-00.json") + " --json " + q(dir / "r0.json")) == 0);
    const json r0 = readJson(dir / "r0.json");
    REQUIRE(r0["distributed"]["rank"] == 0);
    REQUIRE(r0["distributed"]["world_size"] == 2);
    REQUIRE(r0["distributed"]["collectives"].size() == 6 * 4);
    const std::string err = (dir / "err.txt").string();
    auto mergeErr = [&](const std::string& args) {
        const int rc = std::system(
            (contend::test::cliPath() + " merge " + args + " --out " + q(dir / "out.json") + " >/dev/null 2>" + q(err))
                .c_str());
        return std::make_pair(WEXITSTATUS(rc), slurp(err));
    };
    auto [rc1, e1] = mergeErr(q(dir / "r0.json") + " " + q(dir / "norank.report.json"));
    CHECK(rc1 == 3);
    CHECK(e1.find("norank.report.json: no rank") != std::string::npos);
    auto [rc2, e2] = mergeErr(q(dir / "r0.json") + " " + q(dir / "r0.json"));
    CHECK(rc2 == 3);
    CHECK(e2.find("are both rank 0") != std::string::npos);
    contend::test::TempFile notJson("merge-bad.json", "{ nope");
    auto [rc3, e3] = mergeErr(q(dir / "r0.json") + " " + q(notJson.path()));
    CHECK(rc3 == 3);
    CHECK(e3.find("not JSON") != std::string::npos);
    json broken = r0;
    broken["distributed"]["collectives"][0]["name"] = 99;
    contend::test::TempFile bad("merge-bad-name.json", broken.dump());
    auto [rc4, e4] = mergeErr(q(bad.path()));
    CHECK(rc4 == 3);
    CHECK(e4.find("distributed/collectives/0: name 99 is not in collective_names") != std::string::npos);
    CHECK(runCli("merge " + q(dir / "r0.json")) == 2);  // no --out
    CHECK(!fs::exists(dir / "out.json"));
}

TEST_CASE("distributedInfo gives the trace its rank and world size, a malformed one is ignored", "[cluster][io]") {
    const std::string events =
        R"("traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}}]})";
    auto ok =
        contend::test::loadString(R"({"distributedInfo": {"backend": "nccl", "rank": 5, "world_size": 16}, )" + events);
    REQUIRE(ok);
    CHECK(ok.value()->rank() == 5);
    CHECK(ok.value()->worldSize() == 16);
    auto bad = contend::test::loadString(R"({"distributedInfo": {"backend": "nccl", "rank": "x"}, )" + events);
    REQUIRE(bad);
    CHECK(bad.value()->rank() == -1);
    auto none = contend::test::loadString("{" + events);
    REQUIRE(none);
    CHECK(none.value()->rank() == -1);
}

TEST_CASE("the real multi-rank samples open as clusters", "[cluster][real]") {
    if (!contend::test::haveSharedTraces()) {
        std::cerr << contend::test::sharedTraces() << " not found: real-trace tests skipped" << std::endl;
        contend::test::skipTest();
    }
    TempDir dir("cluster-real");
    const fs::path root = contend::test::sharedTraces();
    const auto clusterSchema = schema("contend.cluster.schema.json");
    // Ascend text export, rank0/rank1 folders (profiler_info_N.json gives the rank).
    const fs::path ascend = root / "ascend-msinsight/test/data/pytorch/text/level2";
    REQUIRE(runCli("cluster " + q(ascend) + " --out " + q(dir / "ascend.json")) == 0);
    const json a = readJson(dir / "ascend.json");
    requireValid(clusterSchema, a, "ascend cluster");
    REQUIRE(a["ranks"].size() == 2);
    CHECK(a["ranks"][0]["rank"] == 0);
    CHECK(a["ranks"][1]["rank"] == 1);
    CHECK(a["ranks"][0]["collectives"].get<int>() > 0);
    REQUIRE(a["iterations"].size() == 1);
    CHECK(a["iterations"][0]["index"] == 50);
    CHECK(a["collectives"].size() > 0);
    for (const json& c : a["collectives"]) CHECK(c["key"].get<std::string>().rfind("hcom_", 0) == 0);
    // HTA's trace_diff: control is rank 3 of 8, test rank 1 of 2 (two jobs: said in a note).
    const fs::path hta = root / "kineto-hta/tests/data/trace_diff";
    REQUIRE(runCli("cluster " + q(hta) + " --jobs 1 --out " + q(dir / "hta.json")) == 0);
    const json h = readJson(dir / "hta.json");
    requireValid(clusterSchema, h, "hta cluster");
    REQUIRE(h["ranks"].size() == 2);
    CHECK(h["ranks"][0]["rank"] == 1);
    CHECK(h["ranks"][1]["rank"] == 3);
    CHECK(h["iterations"].size() == 6);
    CHECK(h["collectives"].size() > 0);
    bool differ = false;
    for (const json& n : h["notes"]) differ = differ || n["kind"] == "world-sizes-differ";
    CHECK(differ);
}

TEST_CASE("scripts/cluster-parallel.sh fans a simulated cluster out with GNU parallel and merges it",
          "[cluster][scripts]") {
    if (std::system("command -v parallel >/dev/null 2>&1") != 0) {
        std::cerr << "GNU parallel not installed: cluster-parallel.sh test skipped" << std::endl;
        contend::test::skipTest();
    }
    TempDir dir("cluster-parallel");
    REQUIRE(runCli("simulate bandwidth --ranks 6 --slow-rank 4 --seed 6 --quiet --out " + q(dir / "traces")) == 0);
    const std::string script = contend::test::sourceDir() + "/scripts/cluster-parallel.sh";
    const std::string cmd = "'" + script + "' -j 2 --max-memory 2G --cli '" + contend::test::cliPath() + "' " +
                            q(dir / "traces") + " " + q(dir / "reports") + " " + q(dir / "cluster.json") +
                            " >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const json c = readJson(dir / "cluster.json");
    requireValid(schema("contend.cluster.schema.json"), c, "parallel cluster");
    REQUIRE(c["ranks"].size() == 6);
    const Score s = score(c, readJson(dir / "traces" / "cluster-truth.json"));
    REQUIRE(s.delayed >= 6);
    CHECK(s.named * 10 >= s.delayed * 9);
    CHECK(s.slowRanks == std::vector<int>{4});
    CHECK(fs::exists(dir / "cluster.md"));
    // The same reports folder again is refused: its reports would mix with the new run's.
    fs::remove(dir / "cluster.json");
    CHECK(std::system(cmd.c_str()) != 0);
    CHECK(!fs::exists(dir / "cluster.json"));
    // A file that is no rank (a truncated trace without distributedInfo) fails the fan-out, and
    // no cluster report is written.
    contend::test::TempFile broken("cluster-parallel-broken.json", "{\"traceEvents\": [");
    fs::copy_file(broken.path(), dir / "traces" / "rank-99.json");
    const std::string fresh = "'" + script + "' -j 2 --cli '" + contend::test::cliPath() + "' " + q(dir / "traces") +
                              " " + q(dir / "reports2") + " " + q(dir / "cluster.json") + " >/dev/null 2>&1";
    CHECK(std::system(fresh.c_str()) != 0);
    CHECK(!fs::exists(dir / "cluster.json"));
}

TEST_CASE("scripts/cluster-slurm.sh writes an array task and a merge job that run as written", "[cluster][scripts]") {
    TempDir dir("cluster-slurm");
    REQUIRE(runCli("simulate bandwidth --ranks 4 --slow-rank 1 --seed 8 --quiet --out " + q(dir / "traces")) == 0);
    const std::string script = contend::test::sourceDir() + "/scripts/cluster-slurm.sh";
    REQUIRE(std::system(("'" + script + "' --dry-run --max-running 2 --cli '" + contend::test::cliPath() + "' " +
                         q(dir / "traces") + " " + q(dir / "reports") + " " + q(dir / "cluster.json") + " > " +
                         q(dir / "sbatch.txt"))
                            .c_str()) == 0);
    const std::string sbatch = slurp(dir / "sbatch.txt");
    CHECK(sbatch.find("--array=0-3%2") != std::string::npos);
    CHECK(sbatch.find("--dependency=afterany:") != std::string::npos);
    CHECK(sbatch.find("--kill-on-invalid-dep=yes") != std::string::npos);
    // Run each array task and the merge as Slurm would (the task id, which is the rank, from the
    // environment).
    for (int i = 0; i < 4; ++i)
        REQUIRE(
            std::system(("SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " bash " + q(dir / "reports" / "analyze-rank.sh"))
                            .c_str()) == 0);
    REQUIRE(std::system(("bash " + q(dir / "reports" / "merge.sh") + " 2>/dev/null").c_str()) == 0);
    const json c = readJson(dir / "cluster.json");
    REQUIRE(c["ranks"].size() == 4);
    const Score s = score(c, readJson(dir / "traces" / "cluster-truth.json"));
    CHECK(s.named * 10 >= s.delayed * 9);
    CHECK(s.slowRanks == std::vector<int>{1});
    // A task id past the list fails.
    CHECK(std::system(
              ("SLURM_ARRAY_TASK_ID=4 bash " + q(dir / "reports" / "analyze-rank.sh") + " 2>/dev/null").c_str()) != 0);
}
