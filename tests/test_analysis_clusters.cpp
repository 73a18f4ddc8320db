// Clusters of tiny operators: spaced by sync barriers they are a cluster; packed they are not.
#include <catch2/catch.hpp>

#include "analysis_test_trace.h"
#include "analyze_support.h"
#include "core/analysis/engine.h"

using namespace contend;
using contend::test::KinetoTrace;

namespace {

// A cudaStreamSynchronize on the host thread (pid 1, tid 1).
std::string streamSync(double startUs, double durUs) {
    char buf[256];
    std::snprintf(
        buf, sizeof buf,
        R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 1, "ts": %.3f, "dur": %.3f})",
        startUs, durUs);
    return buf;
}

}  // namespace

TEST_CASE("tiny operators spaced by barriers are a cluster, with its busy, waiting and saving",
          "[analysis][clusters]") {
    KinetoTrace k;
    k.kernel("conv", 7, 0, 200);
    double t = 200;
    for (int i = 0; i < 10; ++i) {  // 3 us kernels, each 12 us after the previous one ends
        k.add(streamSync(t - (i == 0 ? 150 : 3), i == 0 ? 152 : 5));  // the host waits for the stream to drain
        t += 12;
        k.kernel("metric_" + std::to_string(i % 3), 7, t, 3);
        t += 3;
    }
    k.kernel("conv", 7, t + 5, 200);
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.clusters.size() == 1);
    const Cluster& c = r.clusters[0];
    CHECK(c.ops == 10);
    CHECK(c.busyNs == 30000);
    CHECK(c.waitNs == 9 * 12000);
    CHECK(c.start == 212000);
    CHECK(c.end == static_cast<TimeNs>(t * 1000));
    CHECK(c.savingNs == 8 * 12000);  // the gaps, less the one launch the fused kernel still pays
    CHECK(c.tid == "7");
    CHECK(c.provenance == Provenance::Measured);
    CHECK(c.syncGaps == 9);
    CHECK(c.evidence.rfind("measured: 9 of its 9 gaps", 0) == 0);
    CHECK(r.summary.bottleneck == Resource::Sync);
}

TEST_CASE("the same gaps without a sync call in them are a cluster of unknown cause, and no bottleneck",
          "[analysis][clusters]") {
    KinetoTrace k;
    k.kernel("conv", 7, 0, 200);
    double t = 200;
    for (int i = 0; i < 10; ++i) {
        t += 12;
        k.kernel("metric_" + std::to_string(i % 3), 7, t, 3);
        t += 3;
    }
    k.kernel("conv", 7, t + 5, 200);
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.clusters.size() == 1);
    CHECK(r.clusters[0].provenance == Provenance::Unknown);
    CHECK(r.clusters[0].evidence.find("no host sync calls") != std::string::npos);
    CHECK(r.summary.bottleneck == Resource::None);
}

TEST_CASE("a tightly packed run of tiny operators is not a cluster", "[analysis][clusters]") {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 30; ++i) {  // 5 us kernels, 1 us apart
        k.kernel("eltwise_" + std::to_string(i % 4), 7, t, 5);
        t += 6;
    }
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    CHECK(r.clusters.empty());
}

TEST_CASE("a packed burst next to a barrier-spaced run: only the spaced run is a cluster", "[analysis][clusters]") {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 12; ++i) {  // packed: 5 us kernels 1 us apart
        k.kernel("packed", 7, t, 5);
        t += 6;
    }
    const double sparseStart = t + 12;
    for (int i = 0; i < 8; ++i) {  // spaced: 3 us kernels 12 us apart
        t += 12;
        k.kernel("spaced", 7, t, 3);
        t += 3;
    }
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    REQUIRE(r.clusters.size() == 1);
    CHECK(r.clusters[0].start == static_cast<TimeNs>(sparseStart * 1000));
    CHECK(r.clusters[0].ops == 8);
}

TEST_CASE("runs shorter than four operators, or split by idle time, are not clusters", "[analysis][clusters]") {
    KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 3; ++i, t += 15) k.kernel("a", 7, t, 3);  // three only
    t += 2000;                                                    // idle: ends the run
    for (int i = 0; i < 3; ++i, t += 15) k.kernel("a", 7, t, 3);
    const Report r = contend::test::analyzeOk(k.load(), AnalysisSettings{});
    CHECK(r.clusters.empty());
}
