// HTA's breakdowns (core/analysis/breakdowns) on a small inline Kineto trace whose every figure
// is worked out by hand below, read through the real reader: temporal, idle per stream,
// communication/computation overlap, queue length (both tie orders), memory bandwidth (HTA's
// samples and per copy), launch statistics, device time per annotation; the sections a trace
// without launch links or without device operations cannot give, with their reasons; and the
// JSON member written and read back.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "analysis_test_trace.h"
#include "breakdowns_hand_trace.h"
#include "core/analysis/breakdowns/breakdowns.h"
#include "core/analysis/breakdowns/figures.h"
#include "core/analysis/breakdowns/memory_bandwidth.h"
#include "core/analysis/breakdowns/queue_length.h"
#include "core/analysis/breakdowns/scope.h"
#include "core/analysis/ranks/rank_merge.h"
#include "core/report/breakdowns/breakdowns_json.h"
#include "core/report/ranks/cluster_report.h"

using namespace contend;
using contend::test::KinetoTrace;

using contend::test::event;
using contend::test::handTrace;
using contend::test::launched;
constexpr TimeNs us = contend::test::kUs;

TEST_CASE("breakdowns: HTA's scope leaves out what the last step launched") {
    const TraceBreakdowns b = computeBreakdowns(*handTrace());
    CHECK(b.deviceOps == 7);
    CHECK(b.inScope == 6);
    CHECK(b.scope.find("last ProfilerStep") != std::string::npos);
}

TEST_CASE("breakdowns: temporal breakdown and overlap, worked by hand") {
    const TraceBreakdowns b = computeBreakdowns(*handTrace());
    REQUIRE(b.temporal.computed());
    REQUIRE(b.temporal.rows.size() == 1);
    const RankTemporal& t = b.temporal.rows[0];
    CHECK(t.kernelNs == 120 * us);  // 20 .. 140
    CHECK(t.idleNs == 30 * us);     // 80 .. 90 and 110 .. 130
    CHECK(t.computeNs == 50 * us);  // the three gemms
    CHECK(t.nonComputeNs == 40 * us);
    REQUIRE(b.commCompOverlap.rows.size() == 1);
    CHECK(b.commCompOverlap.rows[0].commNs == 40 * us);
    CHECK(b.commCompOverlap.rows[0].overlapNs == 20 * us);  // [40, 50) and [70, 80)
    CHECK(b.commCompOverlap.rows[0].fraction == Approx(0.5));
}

TEST_CASE("breakdowns: idle time per stream as host wait, kernel wait and other") {
    const TraceBreakdowns b = computeBreakdowns(*handTrace());
    REQUIRE(b.idle.rows.size() == 2);
    const StreamIdle& s7 = b.idle.rows[0];
    CHECK(s7.stream == 7);
    CHECK(s7.hostWaitNs == 20 * us);
    CHECK(s7.kernelWaitNs == 10 * us);
    CHECK(s7.otherNs == 0);
    const StreamIdle& s8 = b.idle.rows[1];
    CHECK(s8.stream == 8);
    CHECK(s8.hostWaitNs == 0);
    CHECK(s8.otherNs == 50 * us);
}

TEST_CASE("breakdowns: queue length per stream, in either tie order") {
    const TracePtr trace = handTrace();
    const TraceBreakdowns b = computeBreakdowns(*trace);
    REQUIRE(b.queueLength.rows.size() == 2);
    // Stream 7: samples 1 2 3 2 3 2 1 0.
    const StreamQueue& s7 = b.queueLength.rows[0];
    CHECK(s7.samples == 8);
    CHECK(s7.mean == Approx(1.75));
    CHECK(s7.p25 == Approx(1.0));
    CHECK(s7.p50 == Approx(2.0));
    CHECK(s7.p75 == Approx(2.25));
    CHECK(s7.max == 3);
    CHECK(s7.blockedOnFullQueueNs == 0);
    // Stream 8: at 40 us one operation starts and another is launched. Decreases first: 1 0 1 0;
    // increases first: 1 2 1 0.
    CHECK(b.queueLength.rows[1].max == 1);
    CHECK(b.queueLength.rows[1].mean == Approx(0.5));
    const breakdowns::Scope scope = breakdowns::htaScope(*trace);
    const auto up = breakdowns::queueLength(*trace, scope, breakdowns::Ties::IncreaseFirst);
    CHECK(up.rows[1].max == 2);
    CHECK(up.rows[1].mean == Approx(1.0));
}

TEST_CASE("breakdowns: memory bandwidth per copy kind, HTA's samples and per copy") {
    const TracePtr trace = handTrace();
    const TraceBreakdowns b = computeBreakdowns(*trace);
    REQUIRE(b.memoryBandwidth.rows.size() == 1);
    const CopyBandwidth& c = b.memoryBandwidth.rows[0];
    CHECK(c.kind == "Memcpy DtoD");
    // Copy A ends as B starts: decreases first the sum goes 100, (0), 50.
    CHECK(c.count == 2);
    CHECK(c.meanGbps == Approx(75));
    CHECK(c.maxGbps == Approx(100));
    CHECK(c.copies == 2);
    CHECK(c.copyP50Gbps == Approx(75));
    CHECK(c.copyMaxGbps == Approx(100));
    // Increases first: 100, 150, 50.
    const auto up = breakdowns::memoryBandwidth(*trace, breakdowns::htaScope(*trace), breakdowns::Ties::IncreaseFirst);
    CHECK(up.rows[0].count == 3);
    CHECK(up.rows[0].maxGbps == Approx(150));
}

TEST_CASE("breakdowns: launch statistics per kernel name") {
    const TraceBreakdowns b = computeBreakdowns(*handTrace());
    REQUIRE(b.launch.computed());
    const KernelLaunch* gemm = nullptr;
    const KernelLaunch* copy = nullptr;
    for (const KernelLaunch& k : b.launch.rows) {
        if (k.name == "gemm") gemm = &k;
        if (k.name == "Memcpy DtoD (Device -> Device)") copy = &k;
    }
    REQUIRE(gemm);
    REQUIRE(copy);
    CHECK(gemm->runs == 3);
    CHECK(gemm->cpuP50Ns == Approx(1 * us));    // calls of 1, 5, 1 us
    CHECK(gemm->cpuP95Ns == Approx(4.6 * us));  // 1 + (5 - 1) * 0.9
    CHECK(gemm->gpuP50Ns == Approx(10 * us));   // 30, 10, 10
    CHECK(gemm->delayP50Ns == Approx(9 * us));  // 9, 5, 89
    CHECK(gemm->shorterThanLaunch == 0);
    CHECK(copy->runs == 2);
    CHECK(copy->shorterThanLaunch == 1);          // copy B: 10 us after a 20 us call
    CHECK(copy->delayP50Ns == Approx(69 * us));   // 74 and 64
    CHECK(b.launch.rows.front().name == "gemm");  // 50 us of GPU time, the most
}

TEST_CASE("breakdowns: device time per annotation, innermost around the launch call") {
    const TraceBreakdowns b = computeBreakdowns(*handTrace());
    REQUIRE(b.annotations.rows.size() == 3);
    CHECK(b.annotations.rows[0].name == "## fwd ##");  // gemm 30 + copy A 10
    CHECK(b.annotations.rows[0].kernels == 2);
    CHECK(b.annotations.rows[0].kernelNs == 40 * us);
    CHECK(b.annotations.rows[1].name == "inner");  // the nccl kernel, not "## fwd ##"'s
    CHECK(b.annotations.rows[1].kernelNs == 40 * us);
    CHECK(b.annotations.rows[2].name == "ProfilerStep#1");  // the gemm launched at 60
    CHECK(b.annotations.rows[2].kernelNs == 10 * us);
}

TEST_CASE("breakdowns: what a trace without launch links or device operations cannot give") {
    SECTION("kernels without their launch calls") {
        KinetoTrace t;
        t.kernel("gemm", 7, 0, 10).kernel("ncclKernel_x", 8, 5, 10);
        const TraceBreakdowns b = computeBreakdowns(*t.load());
        CHECK(b.temporal.computed());
        CHECK(b.commCompOverlap.computed());
        CHECK(b.idle.rows.empty());
        CHECK(b.idle.notComputed.find("host wait") != std::string::npos);
        CHECK_FALSE(b.queueLength.computed());
        CHECK_FALSE(b.launch.computed());
        CHECK_FALSE(b.memoryBandwidth.computed());
        CHECK_FALSE(b.annotations.computed());
    }
    SECTION("a host-only trace") {
        KinetoTrace t;
        t.add(event("cpu_op", "aten::mm", 1, 1, 0, 10, ""));
        const TraceBreakdowns b = computeBreakdowns(*t.load());
        CHECK(b.deviceOps == 0);
        CHECK_FALSE(b.temporal.computed());
        CHECK(b.temporal.notComputed.find("no device operation") != std::string::npos);
        CHECK(b.temporal.rows.empty());
    }
}

TEST_CASE("breakdowns: the JSON member is read back as written, and a wrong field is named") {
    const TraceBreakdowns b = computeBreakdowns(*handTrace());
    const nlohmann::json j = breakdownsToJson(b);
    const Result<TraceBreakdowns> back = breakdownsFromJson(j);
    REQUIRE(back.ok());
    CHECK(breakdownsToJson(back.value()) == j);
    nlohmann::json bad = j;
    bad["idle"][1]["host_wait_ns"] = "soon";
    const Result<TraceBreakdowns> wrong = breakdownsFromJson(bad);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.failure().reason == "breakdowns/idle/1: host_wait_ns is missing or not a number");
}

TEST_CASE("breakdowns: compare sets each figure of two reports side by side") {
    const TraceBreakdowns base = computeBreakdowns(*handTrace());
    KinetoTrace t;
    launched(t, "cudaLaunchKernel", 1, 0, 1, "kernel", "gemm", 7, 10, 20, 1);
    launched(t, "cudaLaunchKernel", 1, 5, 1, "kernel", "gemm", 9, 40, 10, 2);
    const TraceBreakdowns now = computeBreakdowns(*t.load("after.json"));
    const std::vector<BreakdownChange> changes = compareBreakdowns(base, now);
    auto find = [&](const std::string& section, const std::string& subject, const std::string& figure) {
        for (const BreakdownChange& c : changes)
            if (c.base.section == section && c.base.subject == subject && c.base.figure == figure) return &c;
        return static_cast<const BreakdownChange*>(nullptr);
    };
    const BreakdownChange* kernel = find("temporal", "", "kernel_ns");
    REQUIRE(kernel);
    CHECK(kernel->base.value == 120.0 * us);
    CHECK(kernel->now == 40.0 * us);  // 10 .. 50
    CHECK(kernel->change() == -80.0 * us);
    const BreakdownChange* gone = find("idle", "8", "other_ns");  // stream 8 only before
    REQUIRE(gone);
    CHECK(gone->inBase);
    CHECK_FALSE(gone->inNow);
    const BreakdownChange* added = find("idle", "9", "host_wait_ns");  // stream 9 only after
    REQUIRE(added);
    CHECK_FALSE(added->inBase);
    CHECK(added->inNow);
    CHECK(find("launch", "gemm", "runs") == nullptr);  // per kernel name: each report lists them
}

TEST_CASE("breakdowns: the cluster report lists each rank's temporal breakdown and overlap") {
    std::vector<RankInput> ranks;
    for (int rank : {1, 0}) {
        Report r;
        r.distributed.rank = rank;
        r.breakdowns = computeBreakdowns(*handTrace());
        ranks.push_back(rankInputFromReport(r, "rank" + std::to_string(rank) + ".json"));
    }
    const ClusterReport c = mergeRanks(ranks);
    REQUIRE(c.temporal.size() == 2);
    CHECK(c.temporal[0].rank == 0);  // in rank order, numbered as merged
    CHECK(c.temporal[1].rank == 1);
    CHECK(c.temporal[1].idleNs == 30 * us);
    REQUIRE(c.commCompOverlap.size() == 2);
    CHECK(c.commCompOverlap[0].fraction == Approx(0.5));
    const Result<ClusterReport> back = clusterFromJson(clusterToJson(c));
    REQUIRE(back.ok());
    REQUIRE(back.value().temporal.size() == 2);
    CHECK(back.value().temporal[1].kernelNs == 120 * us);
    CHECK(back.value().commCompOverlap[1].overlapNs == 20 * us);
    CHECK(clusterToMarkdown(c).find("## Breakdowns per rank") != std::string::npos);
}
