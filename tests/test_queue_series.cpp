// HTA's queue length per stream as a step series (QueueSeries, core/analysis/breakdowns/queue_length.h): on a
// tiny inline trace worked out by hand (both tie orders, the length at an instant, the
// time-weighted median over an interval), and on the bundled sample and the shared Kineto traces
// (when ../shared/traces is present) its samples, max and median are the summary's
// (queue_length.h), and on trace_diff HTA's own max and median.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis_test_trace.h"
#include "core/analysis/breakdowns/queue_length.h"
#include "core/analysis/breakdowns/scope.h"
#include "core/io/load.h"
#include "test_paths.h"
#include "test_support.h"

using namespace contend;
using namespace contend::breakdowns;

namespace {

constexpr TimeNs us = 1000;

// Stream 7: A launched at 10 runs [20, 30); B launched at 12 runs [30, 40); C launched at 20,
// as A starts, runs [45, 50).
TracePtr threeKernels() {
    test::KinetoTrace t;
    t.launchedKernel("a", 7, 10, 20, 10, 1).launchedKernel("b", 7, 12, 30, 10, 2).launchedKernel("c", 7, 20, 45, 5, 3);
    return t.load("queue.json");
}

// The series' samples, max and median (describe()'s) are the summary's, stream by stream.
void checkAgainstSummary(const Trace& trace) {
    const Scope scope = htaScope(trace);
    const std::vector<QueueSeries> series = queueLengthSeries(trace, scope);
    const auto summary = queueLength(trace, scope);
    REQUIRE(series.size() == summary.rows.size());
    for (std::size_t k = 0; k < series.size(); ++k) {
        const QueueSeries& s = series[k];
        const StreamQueue& q = summary.rows[k];
        INFO("stream " << s.stream);
        CHECK(s.stream == q.stream);
        REQUIRE(s.times.size() == s.lengths.size());
        CHECK(std::is_sorted(s.times.begin(), s.times.end()));
        CHECK(s.times.size() == q.samples);
        std::vector<double> sorted(s.lengths.begin(), s.lengths.end());
        std::sort(sorted.begin(), sorted.end());
        CHECK(sorted.back() == static_cast<double>(q.max));
        CHECK(quantile(sorted, 0.5) == q.p50);
        CHECK(s.track < trace.tracks().size());
        CHECK(s.firstStart <= s.lastEnd);
    }
}

}  // namespace

TEST_CASE("queue series: one step per change, ties as the summary orders them") {
    const TracePtr trace = threeKernels();
    const Scope scope = htaScope(*trace);
    const auto down = queueLengthSeries(*trace, scope);
    REQUIRE(down.size() == 1);
    const QueueSeries& s = down[0];
    CHECK(s.stream == 7);
    CHECK(trace->tracks()[s.track].kind == TrackKind::DeviceStream);
    CHECK(s.times == std::vector<TimeNs>{10 * us, 12 * us, 20 * us, 20 * us, 30 * us, 45 * us});
    // At 20 us A starts (-1) before C's launch (+1): decreases first.
    CHECK(s.lengths == std::vector<std::int32_t>{1, 2, 1, 2, 1, 0});
    CHECK(s.firstStart == 20 * us);
    CHECK(s.lastEnd == 50 * us);
    const auto up = queueLengthSeries(*trace, scope, Ties::IncreaseFirst);
    CHECK(up[0].lengths == std::vector<std::int32_t>{1, 2, 3, 2, 1, 0});
    CHECK(seriesOfStream(down, 7) == &down[0]);
    CHECK(seriesOfStream(down, 8) == nullptr);
}

TEST_CASE("queue series: the length at an instant and the median over an interval") {
    const TracePtr trace = threeKernels();
    const auto all = queueLengthSeries(*trace, htaScope(*trace));
    REQUIRE(all.size() == 1);
    const QueueSeries& s = all[0];
    CHECK(queueLengthAt(s, 5 * us) == 0);   // before the first launch
    CHECK(queueLengthAt(s, 10 * us) == 1);  // A's own launch counts
    CHECK(queueLengthAt(s, 11 * us) == 1);
    CHECK(queueLengthAt(s, 20 * us) == 2);   // after every change at 20
    CHECK(queueLengthAt(s, 100 * us) == 0);  // after the last start
    // A runs [20, 30): 2 all along.
    CHECK(queueLengthMedianOver(s, 20 * us, 30 * us) == 2);
    // [12, 45): 2 for 18 us, 1 for 15 us.
    CHECK(queueLengthMedianOver(s, 12 * us, 45 * us) == 2);
    // [25, 45): 2 for 5 us, 1 for 15 us.
    CHECK(queueLengthMedianOver(s, 25 * us, 45 * us) == 1);
    // An empty interval: the length at its start.
    CHECK(queueLengthMedianOver(s, 20 * us, 20 * us) == 2);
    // Exactly half at each: the smaller.
    CHECK(queueLengthMedianOver(s, 25 * us, 35 * us) == 1);
}

TEST_CASE("queue series: none without launches linked to kernels") {
    test::KinetoTrace t;
    t.kernel("a", 7, 0, 10).kernel("b", 7, 20, 10);
    const TracePtr trace = t.load();
    CHECK(queueLengthSeries(*trace, htaScope(*trace)).empty());
}

TEST_CASE("queue series: max and median are the summary's on the bundled sample") {
    LoadResult loaded = loadTrace(test::sourceDir() + "/resources/samples/projectx-before.json.gz");
    REQUIRE(loaded.ok());
    const Trace& trace = *loaded.value();
    REQUIRE_FALSE(queueLengthSeries(trace, htaScope(trace)).empty());
    checkAgainstSummary(trace);
}

TEST_CASE("queue series: max and median are the summary's and HTA's on the shared Kineto traces") {
    if (!test::haveSharedTraces()) test::skipTest();
    for (const char* rel :
         {"kineto-hta/tests/data/trace_diff/control/control.json.gz",
          "kineto-hta/tests/data/trace_diff/test/test.json.gz",
          "kineto-hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz"}) {
        INFO(rel);
        LoadResult loaded = loadTrace(test::sharedTraces() + "/" + rel);
        REQUIRE(loaded.ok());
        checkAgainstSummary(*loaded.value());
    }
    std::ifstream in(test::sharedTraces() + "/../reference/hta-trace_diff.json");
    if (!in) return;
    const nlohmann::json ref = nlohmann::json::parse(in);
    for (const auto& [path, r] : ref["traces"].items()) {
        INFO(path);
        LoadResult loaded = loadTrace(test::sharedTraces() + "/" + path);
        REQUIRE(loaded.ok());
        const Trace& trace = *loaded.value();
        const auto all = queueLengthSeries(trace, htaScope(trace));
        for (const nlohmann::json& row : r["queue"]) {
            const QueueSeries* s = seriesOfStream(all, row["('stream', '')"].get<std::int32_t>());
            REQUIRE(s);
            std::vector<double> sorted(s->lengths.begin(), s->lengths.end());
            std::sort(sorted.begin(), sorted.end());
            CHECK(sorted.back() == row["('queue_length', 'max')"].get<double>());
            CHECK(quantile(sorted, 0.5) == row["('queue_length', '50%')"].get<double>());
        }
    }
}
