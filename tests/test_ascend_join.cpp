// Ascend profiler folders: the per-task metrics of kernel_details.csv and l2_cache.csv land on
// the NPU tasks they describe, matched by (stream, task id) or by name and start time.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

#include "core/io/json/ascend_folder.h"
#include "core/io/load.h"
#include "core/trace/conventions.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

// A rank folder as torch_npu writes it: <root>/ASCEND_PROFILER_OUTPUT/{trace_view.json, *.csv}.
class AscendDir {
  public:
    explicit AscendDir(const std::string& name)
        : m_root(fs::temp_directory_path() / ("contend-test-" + std::to_string(::getpid()) + "-" + name)) {
        fs::remove_all(m_root);
        fs::create_directories(out());
    }
    ~AscendDir() {
        std::error_code ec;
        fs::remove_all(m_root, ec);
    }
    fs::path out() const { return m_root / "ASCEND_PROFILER_OUTPUT"; }
    std::string root() const { return m_root.string(); }
    void write(const std::string& file, const std::string& text) const {
        std::ofstream(out() / file, std::ios::binary) << text;
    }

  private:
    fs::path m_root;
};

// NPU tasks (Ascend Hardware) on stream 2; two of them share task id 10 (ids wrap in long runs),
// one HCCL communication op, and a host op with the same name and time as an NPU task.
// process_labels "NPU" comes after process_name, as in real files.
const char* kTraceView = R"J([
{"name": "process_name", "pid": 100, "tid": 0, "ph": "M", "args": {"name": "Ascend Hardware"}},
{"name": "process_labels", "pid": 100, "tid": 0, "ph": "M", "args": {"labels": "NPU"}},
{"name": "thread_name", "pid": 100, "tid": 2, "ph": "M", "args": {"name": "Stream 2"}},
{"name": "process_name", "pid": 200, "tid": 0, "ph": "M", "args": {"name": "HCCL"}},
{"name": "thread_name", "pid": 200, "tid": 0, "ph": "M", "args": {"name": "Group 0 Communication"}},
{"name": "process_name", "pid": 300, "tid": 0, "ph": "M", "args": {"name": "Python"}},
{"name": "MatMul_1", "pid": 100, "tid": 2, "ts": "1000.000", "dur": 20, "ph": "X",
 "args": {"Task Type": "AI_CORE", "Physic Stream Id": 2, "Task Id": 10}},
{"name": "Add_2", "pid": 100, "tid": 2, "ts": "1030.500", "dur": 5, "ph": "X",
 "args": {"Task Type": "AI_VECTOR_CORE", "Physic Stream Id": 2, "Task Id": 11, "Input Shapes": "7,7"}},
{"name": "Mul_9", "pid": 100, "tid": 2, "ts": "5000.000", "dur": 3, "ph": "X",
 "args": {"Task Type": "AI_VECTOR_CORE", "Physic Stream Id": 2, "Task Id": 10}},
{"name": "hcom_allReduce__1_0_1", "pid": 200, "tid": 0, "ts": "2000.000", "dur": 700, "ph": "X", "args": {}},
{"name": "Add_2", "pid": 300, "tid": 1, "ts": "1030.500", "dur": 5, "ph": "X", "cat": "cpu_op"}
])J";

// Level1 style: ids, PMU metrics, CRLF, tabs after timestamps, quoted shapes, N/A cells.
const char* kKernelDetails =
    "Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),"
    "Wait Time(us),Block Dim,Input Shapes,aicore_time(us),aic_mac_ratio,aic_mte2_ratio,aiv_vec_ratio,"
    "cube_utilization(%)\r\n"
    "1,4294967295,10,2,MatMul_1,MatMul,AI_CORE,1000.000\t,20,0,8,\"\"\"32,64;64,16\"\"\",19.5,0.75,0.25,N/A,80.5\r\n"
    "1,4294967295,11,2,Add_2,Add,AI_VECTOR_CORE,1030.400\t,5,10.5,4,\"\"\"8\"\"\",N/A,N/A,N/A,0.5,0\r\n"
    "1,4294967295,10,2,Mul_9,Mul,AI_VECTOR_CORE,5000.000\t,3,2.25,1,N/A,N/A,N/A,N/A,0.125,0\r\n"
    "1,N/A,N/A,N/A,hcom_allReduce__1_0_1,N/A,HCCL,2000.000\t,700,320.026,0,N/A,N/A,N/A,N/A,N/A,N/A\r\n"
    "1,4294967295,99,2,Ghost,Ghost,AI_CORE,9000.000\t,1,0,1,N/A,1,1,1,1,1\r\n";

const char* kL2Cache =
    "Stream Id,Task Id,Hit Rate,Victim Rate,Op Name\n"
    "2,11,0.5,0.0625,Add_2\n"
    "2,10,N/A,0.2,Mul_9\n"
    "3,77,0.1,0.1,Nope\n";

// The slice with this name on the named process.
std::uint32_t sliceOf(const Trace& t, std::string_view process, std::string_view name) {
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.tracks()[t.slices()[i].track].processName == process && t.str(t.slices()[i].name) == name) return i;
    FAIL("no slice " << name << " on " << process);
    return kNone;
}

std::map<std::string, std::uint64_t> warningsOf(const Trace& t) {
    std::map<std::string, std::uint64_t> w;
    for (const auto& x : t.stats().warnings) w[x.kind] = x.count;
    return w;
}

std::string exampleOf(const Trace& t, const std::string& kind) {
    for (const auto& x : t.stats().warnings)
        if (x.kind == kind) return x.example;
    return {};
}

// The warning loadTrace leaves when it could not join a side file, or null.
const ImportWarning* sideFileWarning(const Trace& t) {
    for (const auto& x : t.stats().warnings)
        if (x.kind == "side file not joined") return &x;
    return nullptr;
}

}  // namespace

TEST_CASE("kernel_details.csv and l2_cache.csv metrics land on the matching NPU tasks", "[ascend][join]") {
    AscendDir dir("join-level1");
    dir.write("trace_view.json", kTraceView);
    dir.write("kernel_details.csv", kKernelDetails);
    dir.write("l2_cache.csv", kL2Cache);

    auto r = loadTrace(dir.root());
    REQUIRE(r);
    const Trace& t = *r.value();
    CHECK(formatName(t.traceFormat()) == "ascend-folder");
    CHECK(t.source().folder == dir.root());
    CHECK(t.source().sideFiles ==
          std::vector<std::string>{(dir.out() / "kernel_details.csv").string(), (dir.out() / "l2_cache.csv").string()});

    const std::uint32_t matmul = sliceOf(t, "Ascend Hardware", "MatMul_1");
    const std::uint32_t add = sliceOf(t, "Ascend Hardware", "Add_2");
    const std::uint32_t mul = sliceOf(t, "Ascend Hardware", "Mul_9");
    const std::uint32_t hccl = sliceOf(t, "HCCL", "hcom_allReduce__1_0_1");
    const std::uint32_t hostAdd = sliceOf(t, "Python", "Add_2");
    CHECK(t.slices()[matmul].is(kSliceDevice));

    SECTION("by (stream, task id); the start time picks between tasks sharing an id") {
        CHECK(t.metric(matmul, "aic_mte2_ratio") == Approx(0.25));
        CHECK(t.metric(matmul, "aic_mac_ratio") == Approx(0.75));
        CHECK(t.metric(matmul, "aicore_time(us)") == Approx(19.5));
        CHECK(t.metric(matmul, "cube_utilization(%)") == Approx(80.5));
        CHECK(t.metric(matmul, "Block Dim") == Approx(8));
        CHECK(std::isnan(t.metric(matmul, "aiv_vec_ratio")));  // N/A is no value
        CHECK(t.metric(mul, "aiv_vec_ratio") == Approx(0.125));
        CHECK(std::isnan(t.metric(mul, "aic_mte2_ratio")));
        CHECK(t.infos()[matmul].waitNs == 0);
        CHECK(t.infos()[mul].waitNs == 2250);
    }
    SECTION("start times within 1 us match (the CSV and the trace round differently)") {
        CHECK(t.metric(add, "aiv_vec_ratio") == Approx(0.5));
        CHECK(t.infos()[add].waitNs == 10500);
    }
    SECTION("Input Shapes fill the shape only where the trace had none") {
        CHECK(t.str(t.infos()[matmul].shape) == "32,64;64,16");
        CHECK(t.str(t.infos()[add].shape) == "7,7");
        CHECK(t.infos()[mul].shape == 0);
    }
    SECTION("communication ops without ids match by name and start time on the HCCL process") {
        CHECK(t.infos()[hccl].waitNs == 320026);
    }
    SECTION("host ops never take NPU metrics") {
        CHECK(t.infos()[hostAdd].metricsCount == 0);
        CHECK(t.infos()[hostAdd].waitNs == -1);
    }
    SECTION("l2_cache.csv: hit and victim rates by (stream, task id), the name picks between equal ids") {
        CHECK(t.metric(add, "l2_hit_rate") == Approx(0.5));
        CHECK(t.metric(add, "l2_victim_rate") == Approx(0.0625));
        CHECK(std::isnan(t.metric(mul, "l2_hit_rate")));
        CHECK(t.metric(mul, "l2_victim_rate") == Approx(0.2));
        CHECK(std::isnan(t.metric(matmul, "l2_victim_rate")));
    }
    SECTION("rows without a matching task are counted, and the first is located") {
        auto w = warningsOf(t);
        CHECK(w["side-file row without a matching NPU task"] == 2);  // Ghost, and l2 stream 3
        CHECK(exampleOf(t, "side-file row without a matching NPU task") == "kernel_details.csv line 6");
        CHECK(w.size() == 1);
    }
}

TEST_CASE("an Ascend folder opens from the rank folder and from ASCEND_PROFILER_OUTPUT", "[ascend][join]") {
    AscendDir dir("join-paths");
    dir.write("trace_view.json", kTraceView);
    dir.write("kernel_details.csv", kKernelDetails);
    for (const std::string& path : {dir.root(), dir.out().string()}) {
        INFO(path);
        auto r = loadTrace(path);
        REQUIRE(r);
        CHECK(formatName(r.value()->traceFormat()) == "ascend-folder");
        CHECK(r.value()->source().path == (dir.out() / "trace_view.json").string());
        CHECK(r.value()->source().sideFiles.size() == 1);
        const std::uint32_t matmul = sliceOf(*r.value(), "Ascend Hardware", "MatMul_1");
        CHECK(r.value()->metric(matmul, "aic_mte2_ratio") == Approx(0.25));
    }
}

TEST_CASE("Level0 kernel_details.csv without ids joins by name and start time", "[ascend][join]") {
    AscendDir dir("join-level0");
    dir.write("trace_view.json", kTraceView);
    dir.write("kernel_details.csv",
              "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n"
              "50,MatMul_1,N/A,N/A,1000.000\t,20,1.5,0\r\n"
              "50,Mul_9,N/A,N/A,5000.900\t,3,105.722,0\r\n"
              "50,Mul_9,N/A,N/A,5002.000\t,3,1,0\r\n");  // 2 us away: not the same task
    auto r = loadTrace(dir.root());
    REQUIRE(r);
    const Trace& t = *r.value();
    CHECK(t.infos()[sliceOf(t, "Ascend Hardware", "MatMul_1")].waitNs == 1500);
    CHECK(t.infos()[sliceOf(t, "Ascend Hardware", "Mul_9")].waitNs == 105722);
    CHECK(t.infos()[sliceOf(t, "Ascend Hardware", "Add_2")].waitNs == -1);
    CHECK(warningsOf(t)["side-file row without a matching NPU task"] == 1);
    CHECK(exampleOf(t, "side-file row without a matching NPU task") == "kernel_details.csv line 4");
}

TEST_CASE("side files can be left out", "[ascend][join]") {
    AscendDir dir("join-off");
    dir.write("trace_view.json", kTraceView);
    dir.write("kernel_details.csv", kKernelDetails);
    LoadOptions o;
    o.joinSideFiles = false;
    auto r = loadTrace(dir.root(), o);
    REQUIRE(r);
    CHECK(formatName(r.value()->traceFormat()) == "ascend-folder");
    CHECK(r.value()->source().sideFiles.empty());
    CHECK(r.value()->metrics().empty());
}

TEST_CASE("a broken side file costs its metrics, not the load, and is named in a warning", "[ascend][join][errors]") {
    AscendDir dir("join-broken");
    dir.write("trace_view.json", kTraceView);
    dir.write("kernel_details.csv", "Name,Start Time(us)\nMatMul_1,1000\n\"Add_2,1030.5\n");
    auto r = loadTrace(dir.root());
    REQUIRE(r);
    CHECK(r.value()->metrics().empty());
    const ImportWarning* w = sideFileWarning(*r.value());
    REQUIRE(w);
    CHECK_THAT(w->example,
               Catch::Contains("kernel_details.csv") && Catch::Contains("line 3") && Catch::Contains("not closed"));
}

TEST_CASE("findAscendFolder recognises the layouts and lists the side files", "[ascend][join]") {
    AscendDir dir("find");
    dir.write("trace_view.json", "[]");
    dir.write("op_summary_2.csv", "Task ID\n");
    dir.write("op_summary_1.csv", "Task ID\n");
    dir.write("kernel_details.csv", "Name\n");
    auto f = findAscendFolder(dir.root());
    REQUIRE(f);
    CHECK(f->traceView == (dir.out() / "trace_view.json").string());
    CHECK(f->kernelDetails == std::vector<std::string>{(dir.out() / "kernel_details.csv").string(),
                                                       (dir.out() / "op_summary_1.csv").string(),
                                                       (dir.out() / "op_summary_2.csv").string()});
    CHECK(f->l2Cache.empty());
    CHECK_FALSE(findAscendFolder((dir.out() / "nothing").string()));
}

TEST_CASE("a side file too large for the memory budget is left out with a warning", "[ascend][join][memory]") {
    AscendDir dir("join-budget");
    dir.write("trace_view.json", kTraceView);
    std::string csv = kKernelDetails;
    while (csv.size() < (3u << 20)) csv += "1,4294967295,999,2,Pad,Pad,AI_CORE,1.000\t,1.0,N/A,\"\"\n";
    dir.write("kernel_details.csv", csv);
    LoadOptions o;
    o.memoryLimitBytes = 4u << 20;  // the trace fits; twice the CSV does not
    auto r = loadTrace(dir.root(), o);
    REQUIRE(r);
    CHECK(r.value()->metrics().empty());
    const ImportWarning* w = sideFileWarning(*r.value());
    REQUIRE(w);
    CHECK_THAT(w->example, Catch::Contains("kernel_details.csv") && Catch::Contains("memory budget"));
    o.memoryLimitBytes = 0;
    auto all = loadTrace(dir.root(), o);
    REQUIRE(all);
    CHECK_FALSE(all.value()->metrics().empty());
}
