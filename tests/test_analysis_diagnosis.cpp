// What the diagnosis says on the shapes real traces have: collectives waiting for their peers,
// kernels slowed beside a collective, captures that cut a step, dynamic shapes.
#include <algorithm>
#include <catch2/catch.hpp>

#include "analysis_test_trace.h"
#include "analyze_support.h"
#include "core/analysis/engine.h"

using namespace contend;
using contend::test::KinetoTrace;

namespace {

const char* kAllReduce = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)";
const char* kElementwise = "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float> >";

bool hasNote(const Report& r, const std::string& kind) {
    return std::any_of(r.notes.begin(), r.notes.end(), [&](const ReportNote& n) { return n.kind == kind; });
}

}  // namespace

TEST_CASE("a collective waiting for its peers is sync, and its wait is never charged to a kernel beside it",
          "[analysis][diagnosis]") {
    // 40 all-reduces of 100 us, 4 of which wait 500 us more for a late peer; an element-wise
    // kernel runs beside every one of them and always takes its 50 us.
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 40; ++i, t += 2000) {
        const double d = i % 10 == 3 ? 600 : 100 + (i % 3);
        k.kernel(kAllReduce, 20, t, d);
        k.kernel(kElementwise, 7, t + 10, 50 + (i % 2));
    }
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.anomalies.size() == 4);
    for (const Anomaly& a : r.anomalies) {
        CHECK(a.name == kAllReduce);
        CHECK(a.cause == Resource::Sync);
        CHECK(a.provenance == Provenance::Estimated);
        CHECK(a.evidence.find("waiting for peers") != std::string::npos);
        CHECK(a.windows.empty());
    }
    CHECK(r.windows.empty());
}

TEST_CASE("a kernel slowed whenever a collective runs beside it contends with communication, not a lock",
          "[analysis][diagnosis]") {
    // The element-wise kernel takes 50 us alone and 90 us in the 15 of 30 steps where the
    // all-reduce runs beside it (the collective moves data through DRAM and holds SMs).
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 30; ++i, t += 2000) {
        const bool beside = i % 2 == 0;
        k.kernel(kAllReduce, 20, beside ? t : t + 500, 100);
        k.kernel(kElementwise, 7, t, beside ? 90 + (i % 3) : 50 + (i % 3));
    }
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.anomalies.size() == 15);
    for (const Anomaly& a : r.anomalies) {
        CHECK(a.name == kElementwise);
        CHECK(a.cause == Resource::Bandwidth);
        CHECK(a.provenance == Provenance::Estimated);
        CHECK(a.evidence.find("ncclKernel_AllReduce") != std::string::npos);
        CHECK(a.evidence.find("memory-bound (name) beside collective (name)") != std::string::npos);
    }
    REQUIRE_FALSE(r.windows.empty());
    for (const ContentionWindow& w : r.windows) {
        CHECK(w.resource == Resource::Bandwidth);
        CHECK(w.provenance == Provenance::Estimated);
        for (const WindowOp& op : w.ops)
            if (op.name == kAllReduce) CHECK(op.extraWaitNs == 0);
    }
}

TEST_CASE("a step the capture cut is said, and its runs stay out of the baselines", "[analysis][diagnosis]") {
    // Six steps of ten 100 us kernels; the capture began inside the first one (3 kernels, the
    // end of a warm-up where they took 300 us).
    KinetoTrace k;
    double t = 0;
    for (int s = 0; s < 6; ++s) {
        const int kernels = s == 0 ? 3 : 10;
        k.step(s + 1, t, kernels * 150 + 10);
        for (int i = 0; i < kernels; ++i) k.kernel("gemm_tile", 7, t + 5 + i * 150, s == 0 ? 300 : 100 + (i % 3));
        t += 2000;
    }
    auto p = prepareAnalysis(k.load(), AnalysisSettings{}).value();
    const Report r = buildReport(*p, 3.0, 0.7);
    CHECK(hasNote(r, "cut-steps"));
    REQUIRE(r.iterations.size() == 6);
    CHECK(r.iterations[0].cut);
    CHECK_FALSE(r.iterations[1].cut);
    const auto& b = p->baselines().signatures[0];
    CHECK(b.baselineNs == Approx(101000).margin(1500));
    // The cut step's runs are still scored against the others: they were slow.
    CHECK(r.anomalies.size() == 3);
}

TEST_CASE("one kernel name in many shapes, each too rare to judge, is said to be dynamic shapes",
          "[analysis][diagnosis]") {
    KinetoTrace k;
    double t = 0;
    for (int shape = 1; shape <= 12; ++shape)
        for (int i = 0; i < 2; ++i, t += 300) k.kernel("ampere_sgemm_128x64_tn", 7, t, 100 + shape, shape * 8);
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    CHECK(hasNote(r, "dynamic-shapes"));
    CHECK(hasNote(r, "few-runs"));
    CHECK(r.anomalies.empty());
}

TEST_CASE("operators on two GPUs never contend with each other, however well their timings line up",
          "[analysis][diagnosis]") {
    // A GEMM on GPU 1 is 1.6x slower in the 15 of 30 steps where an element-wise kernel runs at
    // the same time on GPU 0 (both follow one schedule, as data-parallel ranks do). The two GPUs
    // share no bandwidth, cache or SMs: no partner of the other device may explain it.
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 30; ++i, t += 2000) {
        const bool together = i % 2 == 0;
        char ev[512];
        std::snprintf(
            ev, sizeof ev,
            R"({"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 1, "tid": 7, "ts": %.1f, "dur": %d, )"
            R"("args": {"stream": 7, "device": 1, "grid": [64, 1, 1], "block": [128, 1, 1]}})",
            t, together ? 160 + i % 3 : 100 + i % 3);
        k.add(ev);
        k.kernel(kElementwise, 7, together ? t : t + 500, 150);  // GPU 0 (device 0)
    }
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    CHECK(r.windows.empty());
    for (const Anomaly& a : r.anomalies) {
        CHECK(a.provenance == Provenance::Unknown);
        CHECK(a.evidence.find("vectorized_elementwise") == std::string::npos);
    }
}
