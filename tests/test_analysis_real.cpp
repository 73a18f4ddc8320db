// Every real trace in ../shared/traces analyses without error, and what comes out holds
// together: anomalies sorted by score, breakdowns that add up, window ids that exist, a JSON
// report that reads back. Without the traces the test is reported as skipped (test::skipTest).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "core/report/single/report_json.h"
#include "core/trace/conventions.h"
#include "test_support.h"

using namespace contend;
namespace fs = std::filesystem;

namespace {

void requireSharedTraces() {
    if (contend::test::haveSharedTraces()) return;
    std::cerr << contend::test::sharedTraces() << " not found: real-trace analysis tests skipped" << std::endl;
    contend::test::skipTest();
}

bool endsWith(const std::string& s, std::string_view suf) {
    return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

// SQLite databases under ../shared/traces (Nsight Systems exports, Ascend db exports and the
// analysis.db beside them), and the Ascend rank folders that hold only a db export.
std::vector<std::string> realDatabases() {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(contend::test::sharedTraces())) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && (endsWith(name, ".sqlite") || endsWith(name, ".db")))
            out.push_back(e.path().string());
        if (e.is_directory() && endsWith(name, "_ascend_pt") &&
            !fs::exists(e.path() / "ASCEND_PROFILER_OUTPUT" / "trace_view.json")) {
            bool db = false;
            std::error_code ec;
            for (const auto& f : fs::directory_iterator(e.path() / "ASCEND_PROFILER_OUTPUT", ec))
                db |= f.path().extension() == ".db";
            if (db) out.push_back(e.path().string());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Trace files and Ascend rank folders under ../shared/traces (JSON files that are settings or
// communication summaries are not traces).
std::vector<std::string> realTraces() {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(contend::test::sharedTraces())) {
        const std::string name = e.path().filename().string();
        // Rank folders of the text export; those of the database export and the databases
        // themselves come from realDatabases().
        if (e.is_directory() && fs::exists(e.path() / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"))
            out.push_back(e.path().string());
        if (!e.is_regular_file() || !(endsWith(name, ".json") || endsWith(name, ".json.gz"))) continue;
        if (name.rfind("profiler_info", 0) == 0 || name == "profiler_metadata.json" || name == "communication.json" ||
            name == "communication_matrix.json")
            continue;
        out.push_back(e.path().string());
    }
    for (const std::string& db : realDatabases())
        if (fs::path(db).filename() != "analysis.db") out.push_back(db);
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
        auto prepared = prepareAnalysis(lr.value(), AnalysisSettings{});
        REQUIRE(prepared);
        const auto& p = prepared.value();
        const Report r = buildReport(*p, 3.0, 0.7);
        const Trace& t = *lr.value();
        for (std::size_t i = 1; i < r.anomalies.size(); ++i) REQUIRE(r.anomalies[i - 1].score >= r.anomalies[i].score);
        // Figures that add up: extra wait is a part of the operator time it was measured on.
        REQUIRE(r.summary.anomalyWaitNs <= r.summary.operatorTimeNs);
        REQUIRE(r.summary.explainedWaitNs <= r.summary.extraWaitNs);
        // A host-only trace says so and scores nothing.
        if (r.trace.scope == "host") {
            REQUIRE(r.anomalies.empty());
            REQUIRE(!r.notes.empty());
            REQUIRE(r.notes[0].kind == "host-scope");
        }
        for (const auto& a : r.anomalies) {
            REQUIRE(a.excessNs > 0);
            REQUIRE(a.cause != Resource::None);
            // Every cause says how it is known, in agreement with what it names.
            REQUIRE((a.cause == Resource::Unknown) == (a.provenance == Provenance::Unknown));
            if (!a.evidence.empty())
                REQUIRE(a.evidence.rfind(std::string(provenanceName(a.provenance)) + ": ", 0) == 0);
            const Breakdown& b = a.breakdown;
            REQUIRE(b.computeNs + b.dataWaitNs + b.queueNs + b.syncNs == t.slices()[a.slice].dur);
            // Window ids are stable ids, not positions: each names a window of this report that
            // holds the anomaly's operator.
            for (auto id : a.windows) {
                const auto w = std::find_if(r.windows.begin(), r.windows.end(),
                                            [&](const ContentionWindow& x) { return x.id == id; });
                REQUIRE(w != r.windows.end());
                REQUIRE(
                    std::any_of(w->ops.begin(), w->ops.end(), [&](const WindowOp& o) { return o.slice == a.slice; }));
            }
        }
        for (const auto& w : r.windows) {
            REQUIRE(w.start < w.end);
            REQUIRE(w.ops.size() >= 2);
            REQUIRE(w.overlapRatio >= 0.7 - 1e-6);
            // Every window names its resource and how it is known.
            REQUIRE(w.resource != Resource::Unknown);
            REQUIRE(w.resource != Resource::None);
            REQUIRE(w.provenance != Provenance::Unknown);
            // A collective's wait for its peers is never a window's extra wait.
            for (const auto& op : w.ops) {
                const std::uint32_t o = p->operators().opOfSlice[op.slice];
                if (o != kNone && p->causes().cause[o] == Resource::Sync) REQUIRE(op.extraWaitNs == 0);
            }
        }
        for (const auto& c : r.clusters) REQUIRE(c.waitNs > c.busyNs);
        auto back = reportFromJson(nlohmann::json::parse(reportToJson(r, t).dump()));
        REQUIRE(back);
        REQUIRE(back->anomalies.size() == r.anomalies.size());
        std::printf("analysed %-110s %7llu ops %5zu anomalies %5zu windows %4zu clusters  bottleneck %s\n",
                    path.substr(contend::test::sharedTraces().size()).c_str(),
                    static_cast<unsigned long long>(r.trace.operators), r.anomalies.size(), r.windows.size(),
                    r.clusters.size(), resourceName(r.summary.bottleneck));
    }
}

TEST_CASE("every database under the real traces loads and analyses, an analysis.db is refused naming it",
          "[real][analysis]") {
    requireSharedTraces();
    const auto dbs = realDatabases();
    // Nsight Systems and Ascend db exports arrived on 2026-12-01 (../shared/traces/README.md,
    // "Databases"): .sqlite exports read as nsys-sqlite (core/io/db/nsys_sqlite_reader.h), Ascend
    // databases and the rank folders holding them as ascend-db (core/io/db/ascend_db_reader.h).
    // An analysis.db holds summary tables only: it must say so, never crash or parse as JSON.
    REQUIRE(dbs.size() >= 10);
    std::size_t nsys = 0, ascend = 0, refused = 0;
    for (const std::string& path : dbs) {
        INFO(path);
        LoadResult lr = loadTrace(path);
        if (fs::path(path).filename() == "analysis.db") {
            REQUIRE_FALSE(lr);
            REQUIRE(!lr.ok());
            const std::string m = lr.failure().message();
            REQUIRE(m.find(path) != std::string::npos);
            REQUIRE(m.find("analysis.db holds summary tables only") != std::string::npos);
            ++refused;
            continue;
        }
        INFO((!lr.ok() ? lr.failure().message() : std::string()));
        REQUIRE(lr);
        const bool isNsys = endsWith(path, ".sqlite");
        REQUIRE(formatName(lr.value()->traceFormat()) == (isNsys ? "nsys-sqlite" : "ascend-db"));
        REQUIRE(prepareAnalysis(lr.value(), AnalysisSettings{}));
        ++(isNsys ? nsys : ascend);
    }
    REQUIRE(nsys >= 3);
    REQUIRE(ascend >= 10);  // 6 databases and the 5 rank folders that hold one
    std::printf(
        "%zu Nsight Systems exports and %zu Ascend databases read, %zu analysis.db refused with a clear message\n",
        nsys, ascend, refused);
}
