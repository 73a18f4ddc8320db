// Kineto's hardware counters (core/io/json/kineto_ranges.h, core/analysis/scoring/character.h):
//  * cuda_profiler_range events (CUPTI range profiler: each kernel replayed alone) give their
//    metrics to the kernel of the same name, in time order; without kernel events they are the
//    device operators themselves;
//  * Nsight Compute's rule on those metrics: a kernel at >= 80% of peak SM throughput is
//    compute-bound, at >= 80% of peak memory throughput memory-bound (source: counters), even
//    against its name; below 80% the metrics say nothing and the name speaks;
//  * whole-GPU PM sampling ("ph":"C", "cat":"hardware_counters", pid "GPU N Counters", one
//    event per metric with the value under the key "") reads as counter series that map to
//    resources (percent-of-peak metrics as utilisations, raw counts as throughputs);
//  * the real range-profiler sample (HTA's cupti_profiler trace: 77 ranges, no kernel events)
//    loads with 77 device operators carrying their SASS instruction counts. Without
//    ../shared/traces that case is reported as skipped (test::skipTest).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/analysis/model/resources.h"
#include "core/analysis/scoring/character.h"
#include "core/io/load.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

std::string kernel(const std::string& name, int ts, int corr) {
    return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" +
           std::to_string(ts) + R"(, "dur": 50, "args": {"device": 0, "stream": 7, "correlation": )" +
           std::to_string(corr) + "}}";
}

std::string range(const std::string& name, int ts, double sm, double mem) {
    return R"({"ph": "X", "cat": "cuda_profiler_range", "name": ")" + name + R"(", "pid": 0, "tid": 0, "ts": )" +
           std::to_string(ts) + R"(, "dur": 100, "args": {"sm__throughput.avg.pct_of_peak_sustained_elapsed": )" +
           std::to_string(sm) + R"(, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": )" +
           std::to_string(mem) + R"(, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 1000}})";
}

std::string trace(const std::string& events) { return R"({"schemaVersion": 1, "traceEvents": [)" + events + "]}"; }

std::uint32_t sliceAt(const Trace& t, std::string_view name, TimeNs start) {
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.str(t.slices()[i].name) == name && t.slices()[i].start == start) return i;
    FAIL("no slice " << name << " at " << start);
    return kNone;
}

Character characterOf(const TracePtr& t, std::string_view name, CharacterSource* source = nullptr) {
    auto prepared = prepareAnalysis(t, AnalysisSettings{}).value();
    REQUIRE(prepared);
    const OperatorSet& ops = prepared->operators();
    const auto& chars = prepared->characters();
    for (std::size_t s = 0; s < ops.signatures.size(); ++s)
        if (t->str(ops.signatures[s].name) == name) {
            if (source) *source = chars[s].source;
            return chars[s].character;
        }
    FAIL("no signature " << name);
    return Character::Unknown;
}

}  // namespace

TEST_CASE("kineto counters: profiler ranges give their metrics to their kernels", "[kineto-counters]") {
    // Two runs of a (by name memory-bound) element-wise kernel that the counters call compute-
    // bound, one gemm at 40% of both peaks, and a replay with no kernel left for it.
    const std::string ev = kernel("elementwise_kernel", 1000, 1) + "," + kernel("gemm_kernel", 1100, 2) + "," +
                           kernel("elementwise_kernel", 1200, 3) + "," + range("elementwise_kernel", 5000, 91, 30) +
                           "," + range("gemm_kernel", 5100, 40, 40) + "," + range("elementwise_kernel", 5200, 89, 20) +
                           "," + range("elementwise_kernel", 5300, 10, 10);
    LoadResult r = loadTraceFromMemory(trace(ev), "ranges.json");
    REQUIRE(r);
    const Trace& t = *r.value();
    const std::uint32_t first = sliceAt(t, "elementwise_kernel", 1'000'000);
    const std::uint32_t second = sliceAt(t, "elementwise_kernel", 1'200'000);
    const std::uint32_t gemm = sliceAt(t, "gemm_kernel", 1'100'000);
    CHECK(t.metric(first, "sm__throughput.avg.pct_of_peak_sustained_elapsed") == 91.0f);
    CHECK(t.metric(second, "sm__throughput.avg.pct_of_peak_sustained_elapsed") == 89.0f);
    CHECK(t.metric(second, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed") == 20.0f);
    CHECK(t.metric(gemm, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == 1000.0f);
    CHECK(t.slices()[first].is(kSliceDevice));
    // The ranges stay where the file put them; they are not operators beside the kernels.
    const std::uint32_t r0 = sliceAt(t, "elementwise_kernel", 5'000'000);
    CHECK_FALSE(t.slices()[r0].is(kSliceDevice));
    bool warned = false;
    for (const auto& w : t.stats().warnings)
        if (w.kind == "profiler range without its kernel") warned = (w.count == 1);
    CHECK(warned);

    CharacterSource src = CharacterSource::None;
    CHECK(characterOf(r.value(), "elementwise_kernel", &src) == Character::Compute);  // 90% SM beats the name
    CHECK(src == CharacterSource::Measured);
    CHECK(characterOf(r.value(), "gemm_kernel", &src) == Character::Compute);  // 40%: the name speaks
    CHECK(src == CharacterSource::Names);
}

TEST_CASE("kineto counters: memory-bound at 80% of peak memory throughput, and ranges without kernels",
          "[kineto-counters]") {
    const std::string ev = range("custom_op_kernel", 1000, 30, 85) + "," + range("custom_op_kernel", 1200, 25, 80) +
                           "," + range("other_custom_kernel", 1400, 79, 50);
    LoadResult r = loadTraceFromMemory(trace(ev), "only-ranges.json");
    REQUIRE(r);
    std::size_t device = 0;
    for (const Slice& s : r.value()->slices()) device += s.is(kSliceDevice);
    CHECK(device == 3);  // no kernel events: the ranges are the kernels
    CharacterSource src = CharacterSource::None;
    CHECK(characterOf(r.value(), "custom_op_kernel", &src) == Character::Memory);
    CHECK(src == CharacterSource::Measured);
    CHECK(characterOf(r.value(), "other_custom_kernel", &src) == Character::Unknown);  // 79%: not bound
}

TEST_CASE("kineto counters: PM-sampling hardware counters are counter series on GPU N Counters", "[kineto-counters]") {
    std::string ev =
        R"({"ph": "M", "name": "process_name", "pid": "GPU 0 Counters", "tid": 0, "args": {"name": "GPU 0 Counters"}})";
    for (int k = 0; k < 4; ++k) {
        const std::string ts = std::to_string(1000 + 1000 * k);
        ev +=
            R"(, {"ph": "C", "cat": "hardware_counters", "name": "dram__throughput.avg.pct_of_peak_sustained_elapsed", "pid": "GPU 0 Counters", "tid": 0, "ts": )" +
            ts + R"(, "args": {"": )" + std::to_string(20 * k) + "}}";
        ev +=
            R"(, {"ph": "C", "cat": "hardware_counters", "name": "sm__cycles_active.avg", "pid": "GPU 0 Counters", "tid": 0, "ts": )" +
            ts + R"(, "args": {"": )" + std::to_string(1000 + 500 * k) + "}}";
    }
    ev += "," + kernel("elementwise_kernel", 1500, 1);
    LoadResult r = loadTraceFromMemory(trace(ev), "pm.json");
    REQUIRE(r);
    const Trace& t = *r.value();
    REQUIRE(t.counters().size() == 2);
    for (const CounterSeries& c : t.counters()) {
        INFO(c.name);
        CHECK(c.pid == "GPU 0 Counters");
        CHECK(c.values.size() == 4);
    }
    const ResourceMap map = mapResources(t, ResourceConfig{});
    REQUIRE(map.counters.size() == 2);
    for (const CounterMapping& m : map.counters) {
        const CounterSeries& c = t.counters()[m.series];
        INFO(c.name);
        if (c.name.rfind("dram__", 0) == 0) {
            CHECK(m.resource == Resource::Bandwidth);
            CHECK(m.kind == CounterKind::Utilization);
            CHECK(m.scale == Approx(0.01));
        } else {
            CHECK(m.resource == Resource::Compute);
            CHECK(m.kind == CounterKind::Throughput);  // cycles, scaled by the largest seen
            CHECK(m.scale == Approx(1.0 / 2500));
        }
    }
}

TEST_CASE("kineto counters: the real range-profiler sample", "[kineto-counters][real]") {
    if (!test::haveSharedTraces()) {
        WARN("../shared/traces not found: real-trace tests skipped");
        std::cerr << test::sharedTraces() << " not found: skipped" << std::endl;
        contend::test::skipTest();
    }
    const std::string path = (fs::path(test::sharedTraces()) /
                              "kineto-hta/tests/data/cupti_profiler/"
                              "benchmark_result_924719_1679055439_trace.json.gz")
                                 .string();
    LoadResult r = loadTrace(path);
    INFO((!r.ok() ? r.failure().message() : std::string()));
    REQUIRE(r);
    const Trace& t = *r.value();
    std::size_t ranges = 0, withMetrics = 0;
    for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
        if (t.str(t.slices()[i].category) != "cuda_profiler_range") continue;
        ++ranges;
        CHECK(t.slices()[i].is(kSliceDevice));
        if (std::isfinite(t.metric(i, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"))) ++withMetrics;
    }
    CHECK(ranges == 77);  // the README's count
    CHECK(withMetrics == 77);
    const Report rep = contend::test::analyzeOk(r.value(), AnalysisSettings{});
    CHECK(rep.trace.operators == 77);
    CHECK(rep.trace.scope == "device");
}
