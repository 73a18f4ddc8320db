// Every real trace in ../shared/traces loads, and what it holds matches the counts in its
// README (computed there with Python's json): events, events per phase, counter events and
// device streams. The Ascend rank folders load as folders with their CSV metrics joined.
//
// The traces live outside the repository. Without them these tests are reported as skipped
// (test::skipTest and SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt), so a missing folder never
// passes silently. Run the rest with `contend_tests "~[real]"`.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/io/load.h"
#include "core/io/text/csv.h"
#include "core/trace/conventions.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

void requireSharedTraces() {
    if (contend::test::haveSharedTraces()) return;
    WARN("../shared/traces not found: real-trace tests skipped");
    std::cerr << contend::test::sharedTraces() << " not found: real-trace tests skipped" << std::endl;
    contend::test::skipTest();
}

std::string shared(const std::string& relative) {
    return (fs::path(contend::test::sharedTraces()) / relative).string();
}

struct RealTrace {
    const char* path;        // under ../shared/traces
    std::uint64_t events;    // README "events"
    const char* phases;      // README "phases", as written there
    std::uint64_t counters;  // README "counter events (`C`)"
    std::size_t streams;     // README "GPU streams" / "NPU streams" ("none" = 0)
};

// Copied from ../shared/traces/README.md, one row per trace-event file, and checked against the
// files with Python. mtia_rank_0: the README counts 2 GPU streams (1, 102); its 137
// mtia_ccp_events on tid 801 carry no args.stream and are on no stream.
const std::vector<RealTrace> kRealTraces = {
    {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", 8375,
     "C:3716 X:3379 f:611 s:606 M:63", 3716, 3},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", 10112,
     "C:4431 X:4384 f:611 s:606 M:80", 4431, 4},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", 10476,
     "X:4811 C:4368 f:611 s:606 M:80", 4368, 4},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", 10697,
     "X:4816 C:4584 f:611 s:606 M:80", 4584, 4},
    {"ascend-mstt/profiler/msprof_analyze/test/ut/advisor/timeline_advice/trace_view.json", 3670,
     "X:2212 s:713 f:713 M:32", 0, 1},
    {"chrome-catapult/tracing/test_data/fuchsia_trace.json.gz", 137093,
     "B:66373 E:66373 t:1620 C:671 s:540 f:540 n:327 b:302 e:302 i:45", 671, 0},
    {"chrome-catapult/tracing/test_data/thread_time_visualisation.json.gz", 47832,
     "X:37294 B:3230 E:3229 i:2385 T:583 S:264 F:264 C:161 t:126 I:113 s:70 f:70 M:43", 161, 0},
    {"chrome-catapult/tracing/test_data/x_event_trace.json", 4027,
     "X:2799 B:442 E:442 T:124 i:59 S:53 F:53 C:42 M:9 D:2 N:2", 42, 0},
    {"kineto-hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 220, "X:113 M:60 f:25 s:20 i:2", 0,
     1},
    {"kineto-hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 30, "X:16 M:12 i:2", 0, 0},
    {"kineto-hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz", 1408,
     "X:868 f:345 s:155 M:38 i:2", 0, 2},
    {"kineto-hta/tests/data/critical_path/cuda_event_sync/event_sync_trace.json.gz", 92, "M:36 X:33 f:14 s:7 i:2", 0,
     1},
    {"kineto-hta/tests/data/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz", 149,
     "X:57 f:42 M:40 s:8 i:2", 0, 3},
    {"kineto-hta/tests/data/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz", 1348,
     "X:838 f:315 s:155 M:38 i:2", 0, 2},
    {"kineto-hta/tests/data/cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz", 4222,
     "X:2324 f:1758 s:104 M:33 i:3", 0, 0},
    {"kineto-hta/tests/data/df_index_resolver/df_index_resolver.json.gz", 216092,
     "X:123379 f:42373 i:28012 s:22290 M:38", 0, 2},
    {"kineto-hta/tests/data/execution_trace/benchmark_simple_add_trace.json.gz", 111, "X:56 M:34 f:10 s:9 i:2", 0, 1},
    {"kineto-hta/tests/data/mtia_inference_trace/mtia_inference_rank_0.json.gz", 16158,
     "X:14179 f:1166 s:635 M:176 i:2", 0, 12},
    {"kineto-hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz", 455739, "M:310046 X:138373 f:3658 s:3658 i:4",
     0, 2},
    {"kineto-hta/tests/data/nccl_parser_config/nccl_data.json.gz", 40573, "X:26933 f:9195 s:4405 M:38 i:2", 0, 2},
    {"kineto-hta/tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 68692,
     "X:45420 f:15928 s:7306 M:36 i:2", 0, 1},
    {"kineto-hta/tests/data/timeline_analysis/sampled_rank-0.json.gz", 4855, "X:4811 M:44", 0, 5},
    {"kineto-hta/tests/data/trace_diff/control/control.json.gz", 109123, "X:74937 f:24692 s:9450 M:42 i:2", 0, 4},
    {"kineto-hta/tests/data/trace_diff/test/test.json.gz", 105167, "X:68324 f:26815 s:9984 M:42 i:2", 0, 4},
    {"kineto-hta/tests/data/trace_filter/sampled_rank-1.json.gz", 4720, "X:4676 M:44", 0, 5},
    {"kineto-hta/tests/data/triton_example/triton_example.json.gz", 71, "M:58 X:8 s:2 i:2 f:1", 0, 1},
    {"kineto-tb_plugin/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz", 75718,
     "X:44666 i:12840 f:9096 s:9096 M:20", 0, 1},
    {"kineto-tb_plugin/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz", 71424,
     "X:41906 i:10982 f:9258 s:9258 M:20", 0, 1},
    {"kineto-tb_plugin/tb_plugin/test/gpu_metrics_expected.json", 418, "X:254 C:78 f:32 s:32 M:20 i:2", 78, 1},
    {"kineto-tb_plugin/tb_plugin/test/gpu_metrics_input.json", 340, "X:254 f:32 s:32 M:20 i:2", 0, 1},
};

std::map<std::string, std::uint64_t> parsePhases(const std::string& text) {
    std::map<std::string, std::uint64_t> m;
    std::istringstream in(text);
    std::string item;
    while (in >> item) {
        const auto colon = item.find(':');
        m[item.substr(0, colon)] = std::stoull(item.substr(colon + 1));
    }
    return m;
}

// Kineto: distinct (args.device, args.stream) over device activity; Ascend: "Stream N" tracks of
// the "Ascend Hardware" process.
std::size_t deviceStreams(const Trace& t) {
    std::size_t npu = 0;
    for (const Track& tr : t.tracks())
        if (tr.processName == "Ascend Hardware" && tr.threadName.rfind("Stream ", 0) == 0) ++npu;
    if (npu) return npu;
    std::set<std::pair<int, int>> pairs;
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.slices()[i].is(kSliceDevice) && t.infos()[i].stream >= 0)
            pairs.emplace(t.infos()[i].device, t.infos()[i].stream);
    return pairs.size();
}

bool isTraceFileName(const std::string& name) {
    auto ends = [&](std::string_view s) {
        return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
    };
    return ends(".json") || ends(".json.gz");
}

// JSON files in the folder that are not traces (profiler settings and communication summaries).
bool isKnownNonTrace(const std::string& name) {
    return name.rfind("profiler_info", 0) == 0 || name == "profiler_metadata.json" || name == "communication.json" ||
           name == "communication_matrix.json";
}

}  // namespace

TEST_CASE("every real trace has a row in the table, and every row a file", "[real]") {
    requireSharedTraces();
    std::set<std::string> listed;
    for (const auto& row : kRealTraces) listed.insert(row.path);
    std::set<std::string> found;
    for (const auto& e : fs::recursive_directory_iterator(contend::test::sharedTraces())) {
        const std::string name = e.path().filename().string();
        if (!e.is_regular_file() || !isTraceFileName(name) || isKnownNonTrace(name)) continue;
        found.insert(fs::relative(e.path(), contend::test::sharedTraces()).generic_string());
    }
    CHECK(found == listed);
}

TEST_CASE("real traces load with the README's counts", "[real]") {
    requireSharedTraces();
    for (const auto& row : kRealTraces) {
        INFO(row.path);
        auto r = loadTrace(shared(row.path));
        if (!r.ok()) INFO(r.failure().message());
        REQUIRE(r);
        const Trace& t = *r.value();
        CHECK_FALSE(t.stats().truncated);
        CHECK(t.stats().events == row.events);
        CHECK(t.stats().phases == parsePhases(row.phases));
        const auto c = t.stats().phases.find("C");
        CHECK((c == t.stats().phases.end() ? 0 : c->second) == row.counters);
        CHECK(deviceStreams(t) == row.streams);
        CHECK_FALSE(t.slices().empty());
    }
}

TEST_CASE("the JSON files that are not traces are refused as such", "[real]") {
    requireSharedTraces();
    for (const char* path :
         {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/profiler_info_0.json",
          "ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json"}) {
        INFO(path);
        auto r = loadTrace(shared(path));
        REQUIRE_FALSE(r);
        REQUIRE(!r.ok());
        CHECK_THAT(r.failure().message(), Catch::Contains("not a trace"));
    }
}

namespace {

// Counts over an Ascend folder's device slices.
struct JoinCounts {
    std::size_t withWait = 0;
    std::map<std::string, std::size_t> withMetric;
};

JoinCounts joinCounts(const Trace& t) {
    JoinCounts c;
    for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
        const SliceInfo& info = t.infos()[i];
        if (info.waitNs >= 0) ++c.withWait;
        for (std::uint32_t k = info.metricsBegin; k < info.metricsBegin + info.metricsCount; ++k)
            ++c.withMetric[std::string(t.str(t.metrics()[k].key))];
    }
    return c;
}

std::uint32_t npuTask(const Trace& t, int stream, std::int64_t task, std::string_view name) {
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.slices()[i].is(kSliceDevice) && t.infos()[i].stream == stream && t.infos()[i].taskId == task &&
            t.str(t.slices()[i].name) == name)
            return i;
    return kNone;
}

std::uint64_t warningCount(const Trace& t, std::string_view kind) {
    for (const auto& w : t.stats().warnings)
        if (w.kind == kind) return w.count;
    return 0;
}

}  // namespace

TEST_CASE("real Ascend rank folders load as folders with the CSV metrics joined", "[real][ascend]") {
    requireSharedTraces();
    const std::string text = "ascend-msinsight/test/data/pytorch/text/";
    struct Folder {
        std::string dir;
        bool pmu;  // Level1/2: kernel_details.csv has ids and AI Core PMU columns
    };
    for (const Folder& f :
         {Folder{text + "level0/rank0_ascend_pt", false}, Folder{text + "level1/rank0_ascend_pt", true},
          Folder{text + "level2/rank0_ascend_pt", true}, Folder{text + "level2/rank1_ascend_pt", true}}) {
        INFO(f.dir);
        auto r = loadTrace(shared(f.dir));
        REQUIRE(r);
        const Trace& t = *r.value();
        CHECK(formatName(t.traceFormat()) == "ascend-folder");
        CHECK(t.source().sideFiles.size() == 2);  // kernel_details.csv, l2_cache.csv
        // Every one of the 191 kernel rows and 179 l2 rows finds its task: the 4 HCCL rows by
        // name and time on the HCCL process, the rest by (stream, task id) or name and time.
        CHECK(warningCount(t, "side-file row without a matching NPU task") == 0);
        CHECK(t.stats().warnings.empty());
        JoinCounts c = joinCounts(t);
        CHECK(c.withWait == 191);
        // Hit Rate is N/A in all real l2_cache.csv files; Victim Rate is always given.
        CHECK(c.withMetric["l2_victim_rate"] == 179);
        CHECK(c.withMetric.count("l2_hit_rate") == 0);
        if (f.pmu) {
            // The 4 HCCL rows and 2 DSA_SQE rows (aclnnDropoutGenMaskV2) write N/A.
            CHECK(c.withMetric["aic_mte2_ratio"] == 185);
            CHECK(c.withMetric["aiv_vec_ratio"] == 185);
            CHECK(c.withMetric["cube_utilization(%)"] == 185);
        } else {
            CHECK(c.withMetric.count("aic_mte2_ratio") == 0);
        }
        // The same folder opened at ASCEND_PROFILER_OUTPUT.
        auto inner = loadTrace(shared(f.dir + "/ASCEND_PROFILER_OUTPUT"));
        REQUIRE(inner);
        CHECK(formatName(inner.value()->traceFormat()) == "ascend-folder");
        CHECK(inner.value()->metrics().size() == t.metrics().size());
    }
    SECTION("values land on the right task (level2 rank0, first rows of the CSVs)") {
        auto r = loadTrace(shared(text + "level2/rank0_ascend_pt"));
        REQUIRE(r);
        const Trace& t = *r.value();
        const std::uint32_t first = npuTask(t, 2, 11061, "trans_TransData_0");
        const std::uint32_t second = npuTask(t, 2, 11062, "trans_TransData_1");
        REQUIRE(first != kNone);
        REQUIRE(second != kNone);
        CHECK(t.metric(first, "aiv_vec_ratio") == Approx(0.188));
        CHECK(t.metric(first, "aiv_mte2_ratio") == Approx(0.585));
        CHECK(t.metric(first, "aicore_time(us)") == Approx(0.0));
        CHECK(t.infos()[first].waitNs == 0);
        CHECK(t.str(t.infos()[first].shape) == "32,3,224,224");
        CHECK(t.infos()[second].waitNs == 106242);
        CHECK(t.metric(second, "l2_victim_rate") == Approx(0.213463));
    }
}

namespace {
struct RealCsv {
    const char* path;
    std::size_t rows;
    std::size_t columns;
};
// From the README's "Tables and side files", checked with Python's csv module.
const std::vector<RealCsv> kRealCsvs = {
    {"ascend-msinsight/server/src/test/test_data/test_kernel_parse/op_summary_1.csv", 21, 32},
    {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", 191,
     8},
    {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/l2_cache.csv", 179, 5},
    {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv", 1003,
     7},
    {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv", 1001,
     4},
    {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv", 859,
     9},
    {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv", 184,
     15},
    {"ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", 1,
     10},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv", 57, 8},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", 191,
     46},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/l2_cache.csv", 179, 5},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv", 1004,
     7},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv", 1078,
     4},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv", 33, 8},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv", 859,
     9},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv", 184,
     15},
    {"ascend-msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", 1,
     10},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv", 75, 8},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", 191,
     46},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/l2_cache.csv", 179, 5},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv", 1003,
     7},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv", 1001,
     4},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv", 33, 8},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv", 859,
     9},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv", 184,
     15},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", 1,
     10},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv", 75, 8},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", 191,
     46},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/l2_cache.csv", 179, 5},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv", 1004,
     7},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv", 1078,
     4},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv", 33, 8},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv", 859,
     9},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv", 184,
     15},
    {"ascend-msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", 1,
     10},
    {"ascend-msinsight/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv", 91, 9},
    {"ascend-msinsight/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", 2463, 47},
    {"ascend-msinsight/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv", 35, 9},
    {"ascend-msinsight/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", 1, 11},
    {"ascend-mstt/profiler/msprof_analyze/test/ut/advisor/advisor_backend/compute_advice/kernel_details.csv", 591, 33},
};
}  // namespace

TEST_CASE("real Ascend CSVs parse with the README's rows and columns", "[real][csv]") {
    requireSharedTraces();
    for (const auto& row : kRealCsvs) {
        INFO(row.path);
        CsvTable t;
        auto err = readCsv(shared(row.path), t);
        if (err) INFO(err->message());
        REQUIRE_FALSE(err);
        CHECK(t.rows() == row.rows);
        CHECK(t.columns() == row.columns);
    }
    SECTION("multi-line Call Stack cells (operator_details.csv)") {
        CsvTable t;
        REQUIRE_FALSE(readCsv(shared("ascend-msinsight/test/data/pytorch/text/level0/rank0_ascend_pt/"
                                     "ASCEND_PROFILER_OUTPUT/operator_details.csv"),
                              t));
        const int stack = t.column("Call Stack");
        REQUIRE(stack >= 0);
        std::size_t multiLine = 0;
        for (std::size_t r = 0; r < t.rows(); ++r) {
            CHECK(t.width(r) == t.columns());
            if (t.cell(r, stack).find('\n') != std::string_view::npos) ++multiLine;
        }
        CHECK(multiLine > 0);
        CHECK(t.line(t.rows() - 1) > static_cast<std::int64_t>(t.rows()) + 1);
    }
    SECTION("a real broken row: op_summary_1.csv line 17 has 31 of 32 cells") {
        CsvTable t;
        REQUIRE_FALSE(
            readCsv(shared("ascend-msinsight/server/src/test/test_data/test_kernel_parse/op_summary_1.csv"), t));
        std::size_t shortRows = 0;
        for (std::size_t r = 0; r < t.rows(); ++r) {
            if (t.width(r) == t.columns()) continue;
            ++shortRows;
            CHECK(t.line(r) == 17);
            CHECK(t.width(r) == 31);
        }
        CHECK(shortRows == 1);
    }
}
