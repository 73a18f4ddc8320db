// The contention lab (lab/): runs contend-lab --quick as a process and checks only what is robust
// on a shared machine: the trace's shape, the truth against the trace, the seeded schedule, the
// lock pair's large slowdown (~+350%: asserted > 50%), and that contend-cli analyses the trace.
// Small physics effects (bandwidth, cache) are a benchmark (scripts/lab-run.py), not asserted.
// No core/ header: the lab and this test stand beside the core.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <sys/wait.h>
#include <system_error>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "test_paths.h"
#include "test_support.h"

namespace {

using contend::test::labPath;

class LabDir {
  public:
    explicit LabDir(const std::string& name)
        : m_path(std::filesystem::temp_directory_path() /
                 ("contend-lab-test-" + std::to_string(::getpid()) + "-" + name)) {
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~LabDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    LabDir(const LabDir&) = delete;
    LabDir& operator=(const LabDir&) = delete;
    std::string operator/(const std::string& n) const { return (m_path / n).string(); }

  private:
    std::filesystem::path m_path;
};

int run(const std::string& cmd) {
    const int status = std::system((cmd + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

nlohmann::json readJson(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return nlohmann::json::parse(f, nullptr, false);
}

// The quick lab run of `seed` into dir: trace, truth and physics. Returns the exit code.
int runLab(const LabDir& dir, int seed, const std::string& extra = {}) {
    const std::string s = std::to_string(seed);
    return run(labPath() + " --quick --quiet --seed " + s + " --out " + (dir / ("trace-" + s + ".json")) + " --truth " +
               (dir / ("truth-" + s + ".json")) + " --physics " + (dir / ("physics-" + s + ".json")) + " " + extra);
}

std::int64_t microsToNs(const nlohmann::json& v) {  // ts printed with 3 decimals from integer ns
    return static_cast<std::int64_t>(std::llround(v.get<double>() * 1000.0));
}

// What the schedule decided for each op, not what it measured.
std::vector<std::tuple<std::string, int, int, std::string, std::string>> scheduleOf(const nlohmann::json& truth) {
    std::vector<std::tuple<std::string, int, int, std::string, std::string>> out;
    for (const auto& o : truth["ops"])
        out.emplace_back(o["name"].get<std::string>(), o["stream"].get<int>(), o["iteration"].get<int>(),
                         o["schedule"].get<std::string>(),
                         o["partner_kind"].is_null() ? "" : o["partner_kind"].get<std::string>());
    return out;
}

}  // namespace

TEST_CASE("lab: a quick run writes a Kineto trace on two streams with its measured truth", "[lab]") {
    LabDir dir("shape");
    REQUIRE(runLab(dir, 1, "--counters") == 0);
    const nlohmann::json trace = readJson(dir / "trace-1.json");
    REQUIRE(trace.is_object());
    CHECK(trace["schemaVersion"] == 1);
    CHECK(trace["traceName"].get<std::string>().rfind("contend-lab/", 0) == 0);
    REQUIRE(trace["traceEvents"].is_array());

    std::set<std::int64_t> launches;
    std::set<int> streams;
    std::map<std::pair<int, std::int64_t>, std::string> kernels;  // (stream, start ns) -> name
    int steps = 0, counters = 0, flows = 0;
    for (const auto& e : trace["traceEvents"]) {
        const std::string cat = e.value("cat", "");
        if (cat == "cuda_runtime" && e["name"] == "cudaLaunchKernel")
            launches.insert(e["args"]["correlation"].get<std::int64_t>());
        if (cat == "user_annotation" && e["name"].get<std::string>().rfind("ProfilerStep#", 0) == 0) ++steps;
        if (e["ph"] == "C") ++counters;
        if (cat == "ac2g") ++flows;
    }
    std::size_t kernelCount = 0;
    for (const auto& e : trace["traceEvents"]) {
        if (e.value("cat", "") != "kernel") continue;
        ++kernelCount;
        const int tid = e["tid"].get<int>();
        streams.insert(tid);
        CHECK(e["args"]["stream"].get<int>() == tid);
        CHECK(launches.count(e["args"]["correlation"].get<std::int64_t>()) == 1);
        kernels[{tid, microsToNs(e["ts"])}] = e["name"].get<std::string>();
    }
    CHECK(streams.size() == 2);
    CHECK(kernelCount > 100);
    CHECK(launches.size() == kernelCount);
    CHECK(steps == 12);
    CHECK(counters > 0);
    CHECK(flows == static_cast<int>(2 * kernelCount));

    const nlohmann::json truth = readJson(dir / "truth-1.json");
    REQUIRE(truth.is_object());
    CHECK(truth["schema"] == "contend.truth/1");
    CHECK(truth["measured"] == true);
    CHECK(!truth["machine"]["cpu_model"].get<std::string>().empty());
    REQUIRE(truth["ops"].size() == kernelCount);
    // The hypervisor's steal over the run: a number of ms, or null where /proc/stat has none.
    REQUIRE(truth["machine"].contains("steal_ms"));
    CHECK((truth["machine"]["steal_ms"].is_null() || truth["machine"]["steal_ms"].get<double>() >= 0));
    std::set<std::string> schedules;
    std::size_t mostlyOnCpu = 0;
    for (const auto& o : truth["ops"]) {
        const auto it = kernels.find({o["stream"].get<int>(), o["start_ns"].get<std::int64_t>()});
        REQUIRE(it != kernels.end());
        CHECK(it->second == o["name"].get<std::string>());
        CHECK(o["solo_ns"].get<std::int64_t>() > 0);
        CHECK(o["overlap_ns"].get<std::int64_t>() <= o["dur_ns"].get<std::int64_t>());
        // Time off the CPU: the duration less the worker's thread CPU time, within [0, dur].
        const auto off = o["offcpu_ns"].get<std::int64_t>();
        CHECK(off >= 0);
        CHECK(off <= o["dur_ns"].get<std::int64_t>());
        if (2 * off < o["dur_ns"].get<std::int64_t>()) ++mostlyOnCpu;
        schedules.insert(o["schedule"].get<std::string>());
        if (o["schedule"] == "alone") CHECK(o["partner"].is_null());
        if (o["schedule"] != "competing") CHECK(o["cause"] == "none");
    }
    CHECK(schedules == std::set<std::string>{"alone", "competing", "non-competing"});
    // The thread CPU time was read: a worker that was never preempted is on its CPU the whole
    // kernel, so most kernels (even on a busy machine) spent most of their time on it.
    CHECK(mostlyOnCpu * 2 > kernelCount);
}

TEST_CASE("lab: the same seed gives the same schedule, another seed another", "[lab]") {
    LabDir a("seed-a"), b("seed-b");
    REQUIRE(runLab(a, 1, "--names neutral") == 0);
    REQUIRE(runLab(b, 1, "--names neutral") == 0);
    REQUIRE(runLab(b, 2, "--names neutral") == 0);
    const auto first = scheduleOf(readJson(a / "truth-1.json"));
    CHECK(first.size() > 100);
    CHECK(first == scheduleOf(readJson(b / "truth-1.json")));
    CHECK(first != scheduleOf(readJson(b / "truth-2.json")));
    for (const auto& op : first) CHECK(std::get<0>(op).rfind("lab_kernel_", 0) == 0);
}

TEST_CASE("lab: the lock pair serialises (median excess > 50%) and contend-cli names it a lock", "[lab]") {
    // The lock's slowdown is large (+100% to +1000% here) but needs both streams on a CPU at
    // once: ctest runs the [lab] tests alone (RUN_SERIAL, tests/CMakeLists.txt), and a host busy
    // with other machines' work may still make one run's two threads take turns. Up to three
    // seeds; the first whose lock pair is measured serialising is checked against Contend.
    LabDir dir("lock");
    double excess = 0;
    int runs = 0;
    int seed = 0;
    int busySeeds = 0;  // seeds that started on a host already running a task per CPU
    std::string loads;
    for (seed = 1; seed <= 3; ++seed) {
        REQUIRE(runLab(dir, seed) == 0);
        const nlohmann::json physics = readJson(dir / ("physics-" + std::to_string(seed) + ".json"));
        REQUIRE(physics.is_object());
        runs = 0;
        for (const auto& p : physics["pairs"]) {
            if (p["victim"] != "lock" || p["partner"] != "lock") continue;
            runs = p["runs"].get<int>();
            excess = p["median_excess"].get<double>();
        }
        if (excess > 0.5 && runs >= 4) break;
        const nlohmann::json& machine = physics["machine"];
        const double load1 = std::atof(machine.value("loadavg_start", std::string("0")).c_str());
        const int cpus = machine.value("cpus", 1);
        loads += (loads.empty() ? "" : ", ") + std::to_string(load1).substr(0, 4) + "/" + std::to_string(cpus);
        if (load1 >= cpus) ++busySeeds;
    }
    // The lock pair is measured only when both streams hold a CPU at once. On a host whose other
    // work kept every CPU busy through all three seeds they take turns and the pair is not
    // measured: that says nothing of Contend, and the test says it was not run (skipped, with
    // the loads), rather than passing or failing on the neighbours' work. A quiet host with no
    // serialising pair is a failure.
    if (seed > 3 && busySeeds == 3) {
        std::printf(
            "lab: the host was busy in every seed (load average / CPUs at the start: %s): the lock pair "
            "never ran together (%d runs, median excess %.3f), so it was not measured\n",
            loads.c_str(), runs, excess);
        contend::test::skipTest();
    }
    INFO("lock beside lock, median excess " << excess << " over " << runs << " runs (seed " << seed << "; loads "
                                            << loads << ")");
    REQUIRE(runs >= 4);
    REQUIRE(excess > 0.5);

    const std::string trace = dir / ("trace-" + std::to_string(seed) + ".json");
    const std::string report = dir / "report.json";
    REQUIRE(run(contend::test::cliPath() + " analyze " + trace + " --json " + report) == 0);
    const nlohmann::json r = readJson(report);
    REQUIRE(r.is_object());
    CHECK(r["schema"] == "contend.report/4");
    CHECK(r["anomalies"]["rows"].is_number_integer());
    // Two streams share fairly at most half of their overlap: a lock pair measured at least 2.5x
    // slower lost more than that, so Contend must call it a lock (patterns.h), whatever the
    // kernel's PyTorch name (a scatter: memory-bound) suggests.
    if (excess > 1.5) {
        bool named = false;
        for (const auto& p : r["patterns"]) {
            const std::string victim = p["victim"];
            if (victim.find("scatter_gather") == std::string::npos || p["partner"] != p["victim"]) continue;
            CHECK(p["cause"]["resource"] == "lock");
            named = true;
        }
        CHECK(named);
    }
}
