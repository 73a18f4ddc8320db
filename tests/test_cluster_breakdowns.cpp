// The cluster report's per-rank breakdowns per stream: HTA's idle time and queue length of each
// rank, as that rank's own report has them; written and read back; an older cluster report
// without them still reads. Per rank, why a section is absent (not_computed): from the rank's
// report, written, read back, in the Markdown; an older cluster report without it still reads.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis_test_trace.h"
#include "core/analysis/breakdowns/breakdowns.h"
#include "core/analysis/ranks/rank_merge.h"
#include "core/report/ranks/cluster_report.h"
#include "json_schema_check.h"
#include "test_support.h"

using namespace contend;
using nlohmann::json;
namespace fs = std::filesystem;
using contend::test::runCli;
using contend::test::slurp;
using contend::test::TempDir;

namespace {

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

// A report's rows of one breakdowns section, or the cluster report's rows of one rank.
json rowsOf(const json& breakdowns, const char* section, int rank) {
    json out = json::array();
    for (const json& row : breakdowns[section])
        if (row["rank"] == rank) out.push_back(row);
    return out;
}

// Two ranks by hand, with idle and queue rows on two streams each (fractional queue figures).
ClusterReport handMade() {
    ClusterReport c;
    c.settings = {5.0, 0.01};
    c.ranks = {0, 1};
    c.sources = {"r0.report.json", "r1.report.json"};
    c.traces = {"", ""};
    c.partial = {"", ""};
    c.collectivesPerRank = {0, 0};
    c.temporal = {{0, 300, 500, 200, 1000}, {1, 100, 700, 200, 1000}};
    c.commCompOverlap = {{0, 0.25, 400, 100}, {1, 0.5, 400, 200}};
    c.idle = {{0, 7, 120, 30, 50}, {0, 20, 0, 0, 900}, {1, 7, 60, 10, 0}};
    c.queueLength = {{0, 7, 41, 3.4146341463414633, 1, 2.5, 5, 17, 0}, {1, 7, 9, 1.25, 0, 1, 2, 1030, 12345}};
    return c;
}

}  // namespace

TEST_CASE("cluster breakdowns: each rank's idle and queue length rows equal its own report's rows",
          "[cluster][breakdowns]") {
    TempDir dir("cluster-idle");
    const fs::path traces = dir / "ranks", reports = dir / "reports";
    REQUIRE(runCli("simulate bandwidth --ranks 3 --slow-rank 1 --seed 9 --iterations 6 --quiet --out " + q(traces)) ==
            0);
    REQUIRE(runCli("cluster " + q(traces) + " --jobs 2 --reports " + q(reports) + " --out " +
                   q(dir / "cluster.json")) == 0);
    std::string list;
    for (const auto& e : fs::directory_iterator(reports)) list += " " + q(e.path());
    REQUIRE(runCli("merge" + list + " --out " + q(dir / "merged.json") + " --markdown " + q(dir / "cluster.md")) == 0);
    const json cluster = json::parse(slurp(dir / "cluster.json"));
    const json merged = json::parse(slurp(dir / "merged.json"));
    const json& rankRows = cluster["breakdowns"];
    REQUIRE(rankRows.contains("idle"));
    REQUIRE(rankRows.contains("queue_length"));
    CHECK(merged["breakdowns"] == rankRows);  // the same from the traces and from the saved reports
    {
        const auto schema = contend::test::schemaCheck("contend.cluster.schema.json");
        const auto errors = schema.errors(cluster);
        for (const auto& e : errors) INFO(e);
        CHECK(errors.empty());
    }
    std::size_t ranks = 0, idleRows = 0, queueRows = 0;
    for (const auto& e : fs::directory_iterator(reports)) {
        const json report = json::parse(slurp(e.path()));
        const json& own = report["breakdowns"];
        const int rank = report["distributed"]["rank"].get<int>();
        INFO(e.path().string() << ", rank " << rank);
        CHECK(rowsOf(rankRows, "idle", rank) == own["idle"]);
        CHECK(rowsOf(rankRows, "queue_length", rank) == own["queue_length"]);
        idleRows += own["idle"].size();
        queueRows += own["queue_length"].size();
        ++ranks;
    }
    CHECK(ranks == 3);
    CHECK(idleRows > 0);  // the simulated ranks have streams and launch calls: rows to compare
    CHECK(queueRows > 0);
    CHECK(rankRows["idle"].size() == idleRows);
    CHECK(rankRows["queue_length"].size() == queueRows);
    const std::string md = slurp(dir / "cluster.md");
    CHECK(md.find("## Idle time and queue length per stream") != std::string::npos);
    CHECK(md.find("| rank | stream | idle % | host wait | kernel wait | queue p50 / max | blocked on full queue |") !=
          std::string::npos);
}

TEST_CASE("cluster breakdowns: idle and queue length rows read back as written", "[cluster][breakdowns]") {
    const ClusterReport c = handMade();
    const json written = clusterToJson(c);
    REQUIRE(written["breakdowns"]["idle"].size() == 3);
    REQUIRE(written["breakdowns"]["queue_length"].size() == 2);
    const auto back = clusterFromJson(written);
    REQUIRE(back);
    CHECK(clusterToJson(*back)["breakdowns"] == written["breakdowns"]);
    REQUIRE(back->idle.size() == 3);
    CHECK(back->idle[1].rank == 0);
    CHECK(back->idle[1].stream == 20);
    CHECK(back->idle[1].otherNs == 900);
    CHECK(back->idle[2].hostWaitNs == 60);
    CHECK(back->idle[2].kernelWaitNs == 10);
    REQUIRE(back->queueLength.size() == 2);
    CHECK(back->queueLength[0].mean == c.queueLength[0].mean);  // written and read at full precision
    CHECK(back->queueLength[0].p50 == 2.5);
    CHECK(back->queueLength[1].samples == 9);
    CHECK(back->queueLength[1].max == 1030);
    CHECK(back->queueLength[1].blockedOnFullQueueNs == 12345);

    // Through a file too.
    TempDir dir("cluster-idle-file");
    const fs::path file = dir / "cluster.json";
    std::ofstream(file) << written.dump(2);
    const auto fromFile = readClusterReport(file.string());
    REQUIRE(fromFile);
    CHECK(clusterToJson(*fromFile)["breakdowns"] == written["breakdowns"]);

    // The Markdown: one row per rank and stream; a stream with idle rows and no queue row says "-".
    const std::string md = clusterToMarkdown(c);
    CHECK(md.find("| 0 | 7 | 20.00% | 120 ns | 30 ns | 2.5 / 17 | 0 ns |") != std::string::npos);
    CHECK(md.find("| 0 | 20 | 90.00% | 0 ns | 0 ns | - | - |") != std::string::npos);
    CHECK(md.find("| 1 | 7 | 7.00% | 60 ns | 10 ns | 1 / 1030 | 12.3") != std::string::npos);
}

TEST_CASE("cluster breakdowns: an older cluster report without idle and queue length still reads",
          "[cluster][breakdowns]") {
    json old = clusterToJson(handMade());
    old["breakdowns"].erase("idle");
    old["breakdowns"].erase("queue_length");
    const auto older = clusterFromJson(old);
    REQUIRE(older);
    CHECK(older->idle.empty());  // not computed
    CHECK(older->queueLength.empty());
    CHECK(older->temporal.size() == 2);
    CHECK(clusterToMarkdown(*older).find("## Idle time and queue length") == std::string::npos);

    old.erase("breakdowns");  // before the breakdowns
    const auto oldest = clusterFromJson(old);
    REQUIRE(oldest);
    CHECK(oldest->idle.empty());
    CHECK(oldest->temporal.empty());

    json broken = clusterToJson(handMade());
    broken["breakdowns"]["idle"][1].erase("host_wait_ns");
    const auto refused = clusterFromJson(broken);
    REQUIRE_FALSE(refused);
    CHECK(refused.failure().reason == "cluster: breakdowns/idle/1: host_wait_ns is missing or not a number");
    broken = clusterToJson(handMade());
    broken["breakdowns"]["queue_length"] = 3;
    REQUIRE_FALSE(clusterFromJson(broken));
}

namespace {

// A rank's report with the breakdowns of `trace` (and nothing else the merge needs).
RankInput rankOf(int rank, const TracePtr& trace) {
    Report r;
    r.distributed.rank = rank;
    r.breakdowns = computeBreakdowns(*trace);
    return rankInputFromReport(r, "rank" + std::to_string(rank) + ".json");
}

}  // namespace

TEST_CASE("cluster breakdowns: per rank, why a section its report did not compute is absent", "[cluster][breakdowns]") {
    // Rank 0: kernels without launch calls, no communication kernel: temporal only. Rank 1: a
    // communication kernel too. Rank 2: a report written before the breakdowns.
    contend::test::KinetoTrace bare, comm;
    bare.kernel("gemm", 7, 0, 10).kernel("gemm", 7, 20, 10);
    comm.kernel("gemm", 7, 0, 10).kernel("ncclKernel_AllReduce", 8, 5, 10);
    Report old;
    old.distributed.rank = 2;
    const ClusterReport c = mergeRanks(
        {rankOf(1, comm.load("comm.json")), rankOf(0, bare.load("bare.json")), rankInputFromReport(old, "old.json")});
    REQUIRE(c.breakdownsNotComputed.size() == 3);
    const RankNotComputed& r0 = c.breakdownsNotComputed[0];
    CHECK(r0.rank == 0);
    CHECK(r0.why("temporal") == nullptr);
    REQUIRE(r0.why("comm_comp_overlap"));
    CHECK(*r0.why("comm_comp_overlap") == "no communication kernel (nccl*, hccl*) on a stream");
    REQUIRE(r0.why("idle"));
    CHECK(r0.why("idle")->find("host wait cannot be told") != std::string::npos);
    REQUIRE(r0.why("queue_length"));
    const RankNotComputed& r1 = c.breakdownsNotComputed[1];
    CHECK(r1.rank == 1);
    CHECK(r1.why("comm_comp_overlap") == nullptr);
    CHECK(r1.why("idle"));
    const RankNotComputed& r2 = c.breakdownsNotComputed[2];
    CHECK(r2.rank == 2);
    REQUIRE(r2.sections.size() == 4);
    CHECK(r2.sections[0].second.find("written before") != std::string::npos);

    // Written (to the schema), read back, and in the Markdown.
    const json written = clusterToJson(c);
    REQUIRE(written["breakdowns"]["not_computed"].size() == 3);
    CHECK(written["breakdowns"]["not_computed"][0]["sections"]["comm_comp_overlap"] ==
          "no communication kernel (nccl*, hccl*) on a stream");
    const auto schema = contend::test::schemaCheck("contend.cluster.schema.json");
    for (const auto& e : schema.errors(written)) FAIL_CHECK(e);
    const auto back = clusterFromJson(written);
    REQUIRE(back);
    CHECK(clusterToJson(*back) == written);
    REQUIRE(back->breakdownsNotComputed.size() == 3);
    CHECK(back->breakdownsNotComputed[1].sections == r1.sections);
    const std::string md = clusterToMarkdown(c);
    CHECK(md.find("## Breakdowns not computed, per rank") != std::string::npos);
    CHECK(md.find("- rank 0: comm_comp_overlap: no communication kernel (nccl*, hccl*) on a stream; idle: ") !=
          std::string::npos);

    // A cluster report written before it still reads (no reasons); a wrong one names the field.
    json older = written;
    older["breakdowns"].erase("not_computed");
    const auto olderBack = clusterFromJson(older);
    REQUIRE(olderBack);
    CHECK(olderBack->breakdownsNotComputed.empty());
    CHECK(olderBack->temporal.size() == c.temporal.size());
    json broken = written;
    broken["breakdowns"]["not_computed"][1]["sections"]["idle"] = 7;
    const auto refused = clusterFromJson(broken);
    REQUIRE_FALSE(refused);
    CHECK(refused.failure().reason.find("breakdowns/not_computed/1/sections") != std::string::npos);
    broken = written;
    broken["breakdowns"]["not_computed"][0].erase("rank");
    CHECK_FALSE(clusterFromJson(broken));
}
