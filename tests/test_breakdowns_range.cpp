// HTA's breakdowns over a time range (core/analysis/breakdowns/breakdowns.h, the app's range
// selected on the timeline): on the hand trace of test_breakdowns.cpp, every figure over
// [55, 85] us and the bandwidth over [95, 105] us worked out by hand; the range over the whole
// trace gives the whole trace's figures exactly (as JSON), on the hand trace and on HTA's two
// reference traces; a range with nothing in it says why per section; a range outside the trace
// or reversed does not crash.
#include <catch2/catch.hpp>
#include <string>

#include "breakdowns_hand_trace.h"
#include "core/analysis/breakdowns/breakdowns.h"
#include "core/io/load.h"
#include "core/report/breakdowns/breakdowns_json.h"
#include "test_support.h"

using namespace contend;
using contend::breakdowns::TimeRange;
using contend::test::handTrace;

namespace {

constexpr TimeNs us = contend::test::kUs;

TimeRange between(double fromUs, double toUs) {
    TimeRange r;
    r.begin = static_cast<TimeNs>(fromUs * us);
    r.end = static_cast<TimeNs>(toUs * us);
    return r;
}

const AnnotationTime* annotation(const TraceBreakdowns& b, const std::string& name) {
    for (const AnnotationTime& a : b.annotations.rows)
        if (a.name == name) return &a;
    return nullptr;
}

// The whole trace's breakdowns and those over the trace's span from its basis, as JSON.
void checkWholeRange(const Trace& trace) {
    const nlohmann::json whole = breakdownsToJson(computeBreakdowns(trace));
    const BreakdownBasis basis = breakdownBasis(trace);
    TimeRange span;
    span.begin = trace.begin();
    span.end = trace.end();
    CHECK(breakdownsToJson(computeBreakdowns(trace, basis, span)) == whole);
    CHECK(breakdownsToJson(computeBreakdowns(trace, basis, TimeRange{})) == whole);
}

}  // namespace

TEST_CASE("breakdowns over a range: temporal and overlap clipped to it, worked by hand", "[breakdowns][range]") {
    const TracePtr trace = handTrace();
    const TraceBreakdowns b = computeBreakdowns(*trace, breakdownBasis(*trace), between(55, 85));
    // Running in [55, 85]: the nccl kernel [40, 80) and the gemm [70, 80) on streams 8 and 7.
    CHECK(b.inScope == 2);
    REQUIRE(b.temporal.rows.size() == 1);
    const RankTemporal& t = b.temporal.rows[0];
    CHECK(t.kernelNs == 25 * us);  // 55 .. 80
    CHECK(t.idleNs == 0);
    CHECK(t.computeNs == 10 * us);  // the gemm
    CHECK(t.nonComputeNs == 15 * us);
    REQUIRE(b.commCompOverlap.rows.size() == 1);
    CHECK(b.commCompOverlap.rows[0].commNs == 25 * us);
    CHECK(b.commCompOverlap.rows[0].overlapNs == 10 * us);
    CHECK(b.commCompOverlap.rows[0].fraction == Approx(0.4));
}

TEST_CASE("breakdowns over a range: each gap's time in it, of the whole gap's kind", "[breakdowns][range]") {
    const TracePtr trace = handTrace();
    const TraceBreakdowns b = computeBreakdowns(*trace, breakdownBasis(*trace), between(55, 85));
    REQUIRE(b.idle.rows.size() == 2);
    const StreamIdle& s7 = b.idle.rows[0];
    CHECK(s7.stream == 7);
    CHECK(s7.hostWaitNs == 15 * us);   // the host wait [50, 70) from 55
    CHECK(s7.kernelWaitNs == 5 * us);  // the kernel wait [80, 90) to 85
    CHECK(s7.otherNs == 0);
    const StreamIdle& s8 = b.idle.rows[1];
    CHECK(s8.stream == 8);
    CHECK(s8.otherNs == 5 * us);  // [80, 130) is 50 us, "other" even cut to 5
    CHECK(s8.kernelWaitNs == 0);
    // Inside a gap alone, the stream's row is all idle; the other stream has none.
    const TraceBreakdowns gap = computeBreakdowns(*trace, breakdownBasis(*trace), between(112, 120));
    REQUIRE(gap.idle.rows.size() == 1);
    CHECK(gap.idle.rows[0].stream == 8);
    CHECK(gap.idle.rows[0].otherNs == 8 * us);
    CHECK_FALSE(gap.temporal.computed());
    CHECK(gap.temporal.notComputed == "no device operation on a stream in the range");
}

TEST_CASE("breakdowns over a range: queue samples, launches and annotations in it", "[breakdowns][range]") {
    const TracePtr trace = handTrace();
    const TraceBreakdowns b = computeBreakdowns(*trace, breakdownBasis(*trace), between(55, 85));
    // Stream 7's samples 1 2 3 2 | 3 2 | 1 0: at 60 (a launch) and 70 (a start) in the range.
    // Stream 8 changes at 12, 40 and 130: no sample in it, no row.
    REQUIRE(b.queueLength.rows.size() == 1);
    const StreamQueue& q = b.queueLength.rows[0];
    CHECK(q.stream == 7);
    CHECK(q.samples == 2);
    CHECK(q.mean == Approx(2.5));
    CHECK(q.p25 == Approx(2.25));
    CHECK(q.p50 == Approx(2.5));
    CHECK(q.max == 3);
    // The gemm [70, 80) (its 5 us call at 60) and the nccl kernel, each counted whole.
    REQUIRE(b.launch.rows.size() == 2);
    CHECK(b.launch.rows[0].name == "ncclKernel_AllReduce");  // 40 us of GPU time
    CHECK(b.launch.rows[1].name == "gemm");
    CHECK(b.launch.rows[1].runs == 1);
    CHECK(b.launch.rows[1].cpuP50Ns == Approx(5 * us));
    CHECK(b.launch.rows[1].delayP50Ns == Approx(5 * us));  // 70 - 65
    REQUIRE(annotation(b, "inner"));
    CHECK(annotation(b, "inner")->kernelNs == 40 * us);
    REQUIRE(annotation(b, "ProfilerStep#1"));
    CHECK(annotation(b, "ProfilerStep#1")->kernelNs == 10 * us);
    CHECK(annotation(b, "## fwd ##") == nullptr);  // its gemm [20, 50) and copy [90, 100) are outside
    // No copy runs in [55, 85].
    CHECK(b.memoryBandwidth.notComputed == "no copy or fill (Memcpy*, Memset*) on a stream in the range");
}

TEST_CASE("breakdowns over a range: HTA's bandwidth samples in it, the copies that run in it", "[breakdowns][range]") {
    const TracePtr trace = handTrace();
    // Copy A [90, 100) at 100 GB/s, copy B [100, 110) at 50: the summed samples are 100 (at 90)
    // and 50 (at 100); only the one at 100 lies in [95, 105], both copies run in it.
    const TraceBreakdowns b = computeBreakdowns(*trace, breakdownBasis(*trace), between(95, 105));
    REQUIRE(b.memoryBandwidth.rows.size() == 1);
    const CopyBandwidth& c = b.memoryBandwidth.rows[0];
    CHECK(c.count == 1);
    CHECK(c.meanGbps == Approx(50));
    CHECK(c.maxGbps == Approx(50));
    CHECK(c.copies == 2);
    CHECK(c.copyP50Gbps == Approx(75));
}

TEST_CASE("breakdowns over the whole trace's range equal the whole trace's exactly", "[breakdowns][range]") {
    SECTION("the hand trace") { checkWholeRange(*handTrace()); }
    SECTION("HTA's reference traces") {
        if (!test::haveSharedTraces()) test::skipTest();
        for (const char* path : {"kineto-hta/tests/data/trace_diff/control/control.json.gz",
                                 "kineto-hta/tests/data/trace_diff/test/test.json.gz"}) {
            INFO(path);
            LoadResult loaded = loadTrace(test::sharedTraces() + "/" + path);
            REQUIRE(loaded.ok());
            checkWholeRange(*loaded.value());
        }
    }
}

TEST_CASE("breakdowns over a range with nothing in it say why, and odd ranges do not crash", "[breakdowns][range]") {
    const TracePtr trace = handTrace();
    const BreakdownBasis basis = breakdownBasis(*trace);
    const TraceBreakdowns after = computeBreakdowns(*trace, basis, between(1000, 2000));
    CHECK(after.inScope == 0);
    for (const auto& [name, why] : after.reasons()) {
        INFO(name);
        CHECK(why->find("in the range") != std::string::npos);
    }
    const TraceBreakdowns reversed = computeBreakdowns(*trace, basis, between(80, 20));
    CHECK(reversed.temporal.rows.empty());
    CHECK(reversed.idle.rows.empty());
    CHECK(reversed.queueLength.rows.empty());
    // A host-only trace: every section not computed, whatever the range.
    test::KinetoTrace host;
    host.add(test::event("cpu_op", "aten::mm", 1, 1, 0, 10, ""));
    const TracePtr h = host.load("host.json");
    const TraceBreakdowns none = computeBreakdowns(*h, breakdownBasis(*h), between(0, 5));
    CHECK(none.deviceOps == 0);
    CHECK_FALSE(none.temporal.computed());
}
