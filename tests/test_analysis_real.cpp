// Every real trace in ../shared/traces analyses without error, and what comes out holds
// together: anomalies sorted by score, breakdowns that add up, window ids that exist, a JSON
// report that reads back. Without the traces the test exits with code 4 (ctest: skipped).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "core/report/report_json.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

void requireSharedTraces() {
    if (contend::test::haveSharedTraces()) return;
    std::cerr << contend::test::sharedTraces() << " not found: real-trace analysis tests skipped (exit code 4)" << std::endl;
    std::exit(4);
}

bool endsWith(const std::string& s, std::string_view suf) {
    return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

// Trace files and Ascend rank folders under ../shared/traces (JSON files that are settings or
// communication summaries are not traces).
std::vector<std::string> realTraces() {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(contend::test::sharedTraces())) {
        const std::string name = e.path().filename().string();
        // Rank folders of the text export (the db export holds SQLite, which is not read).
        if (e.is_directory() && fs::exists(e.path() / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"))
            out.push_back(e.path().string());
        if (!e.is_regular_file() || !(endsWith(name, ".json") || endsWith(name, ".json.gz"))) continue;
        if (name.rfind("profiler_info", 0) == 0 || name == "profiler_metadata.json" || name == "communication.json" ||
            name == "communication_matrix.json")
            continue;
        out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("every real trace analyses without error and its report holds together", "[real][analysis]") {
    requireSharedTraces();
    const auto traces = realTraces();
    REQUIRE(traces.size() >= 30);
    for (const std::string& path : traces) {
        INFO(path);
        LoadResult lr = loadTrace(path);
        REQUIRE(lr);
        std::string error;
        auto p = prepareAnalysis(lr.trace, AnalysisSettings{}, &error);
        REQUIRE(p);
        const Report r = buildReport(*p, 3.0, 0.7);
        const Trace& t = *lr.trace;
        for (std::size_t i = 1; i < r.anomalies.size(); ++i) REQUIRE(r.anomalies[i - 1].score >= r.anomalies[i].score);
        for (const auto& a : r.anomalies) {
            REQUIRE(a.excessNs > 0);
            REQUIRE(a.cause != Resource::None);
            const Breakdown& b = a.breakdown;
            REQUIRE(b.computeNs + b.dataWaitNs + b.queueNs + b.syncNs == t.slices()[a.slice].dur);
            for (auto w : a.windows) REQUIRE(w < r.windows.size());
        }
        for (const auto& w : r.windows) {
            REQUIRE(w.start < w.end);
            REQUIRE(w.ops.size() >= 2);
            REQUIRE(w.overlapRatio >= 0.7 - 1e-6);
        }
        for (const auto& c : r.clusters) REQUIRE(c.waitNs > c.busyNs);
        auto back = reportFromJson(nlohmann::json::parse(reportToJson(r, t).dump()), &error);
        REQUIRE(back);
        REQUIRE(back->anomalies.size() == r.anomalies.size());
        std::printf("analysed %-110s %7llu ops %5zu anomalies %5zu windows %4zu clusters  bottleneck %s\n",
                    path.substr(contend::test::sharedTraces().size()).c_str(),
                    static_cast<unsigned long long>(r.trace.operators), r.anomalies.size(), r.windows.size(),
                    r.clusters.size(), resourceName(r.summary.bottleneck));
    }
}
