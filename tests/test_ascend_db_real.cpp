// The Ascend profiler database reader on the real databases under ../shared/traces: each loads
// with the counts its README lists and analyses; the text and database exports of the same rank
// folder agree on what they should; a cancelled load says so; EVENT_RECORD tasks are waits; the
// LLC hit rate and the PyTorch ops' dims read as the text export has them. Without
// ../shared/traces these cases are reported as skipped (test::skipTest).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sqlite3.h>
#include <string>

#include "ascend_db_test_support.h"
#include "core/analysis/engine.h"
#include "core/analysis/findings/summary.h"
#include "core/analysis/inputs/signatures.h"
#include "core/analysis/scoring/character.h"
#include "core/io/load.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_builder.h"
#include "sqlite_test_db.h"
#include "test_support.h"

using namespace contend;
using namespace contend::test::ascend_db;
namespace fs = std::filesystem;

namespace {

struct Expected {
    std::uint64_t tasks, compute, communication, cann, pytorch, pmu, steps;
    std::map<std::string, std::uint64_t> counters;  // rows per counter table
};

// ../shared/traces/README.md, "Databases" (rows per table, computed there with Python's sqlite3).
const std::map<std::string, Expected>& expectedCounts() {
    static const std::string db = "ascend-msinsight/test/data/pytorch/db/";
    static const std::map<std::string, Expected> e = {
        {db + "level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db",
         {550,
          187,
          296,
          713,
          2460,
          0,
          1,
          {{"acc_pmu", 559}, {"aicore_freq", 2}, {"hbm", 96}, {"llc", 24}, {"soc_bandwidth_level", 13}}}},
        {db + "level0/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_1.db",
         {550,
          187,
          296,
          712,
          2460,
          0,
          1,
          {{"acc_pmu", 602}, {"aicore_freq", 2}, {"hbm", 104}, {"llc", 26}, {"soc_bandwidth_level", 14}}}},
        {db + "level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db",
         {552,
          187,
          296,
          710,
          2460,
          5180,
          1,
          {{"acc_pmu", 688}, {"aicore_freq", 3}, {"hbm", 104}, {"llc", 26}, {"soc_bandwidth_level", 16}}}},
        {db + "level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db",
         {552,
          187,
          296,
          1133,
          2460,
          5180,
          1,
          {{"acc_pmu", 688}, {"aicore_freq", 3}, {"hbm", 104}, {"llc", 26}, {"soc_bandwidth_level", 16}}}},
        {db + "level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_1.db",
         {552,
          187,
          296,
          1187,
          2492,
          5180,
          1,
          {{"acc_pmu", 688}, {"aicore_freq", 3}, {"hbm", 104}, {"llc", 26}, {"soc_bandwidth_level", 16}}}},
        {"ascend-msinsight/server/src/test/test_data/full_db/msprof_0.db",
         {24, 11, 9, 4, 0, 0, 0, {{"hbm", 4}, {"llc", 4}, {"ddr", 5}}}},
    };
    return e;
}

}  // namespace

TEST_CASE("ascend db: every real database loads with the README's counts and analyses", "[real][ascenddb]") {
    requireSharedTraces();
    std::size_t seen = 0;
    for (const auto& e : fs::recursive_directory_iterator(test::sharedTraces())) {
        if (!e.is_regular_file() || e.path().extension() != ".db") continue;
        const std::string path = e.path().string();
        const std::string rel = fs::relative(e.path(), test::sharedTraces()).string();
        INFO(path);
        if (e.path().filename() == "analysis.db") {
            LoadResult r = loadTrace(path);
            REQUIRE_FALSE(r);
            CHECK(r.failure().message().find("summary tables only") != std::string::npos);
            continue;
        }
        auto it = expectedCounts().find(rel);
        REQUIRE(it != expectedCounts().end());
        const Expected& x = it->second;
        LoadResult r = loadOk(path);
        ++seen;
        const Trace& t = *r.value();
        CHECK(formatName(t.traceFormat()) == "ascend-db");
        CHECK(phase(t, "task") == x.tasks);
        CHECK(phase(t, "compute_task") == x.compute);
        CHECK(phase(t, "communication_task") == x.communication);
        CHECK(phase(t, "cann_api") == x.cann);
        CHECK(phase(t, "pytorch_api") == x.pytorch);
        CHECK(phase(t, "pmu") == x.pmu);
        CHECK(phase(t, "step") == x.steps);
        for (const auto& [table, rows] : x.counters) CHECK(phase(t, table.c_str()) == rows);
        // Every task is a device slice; each COMPUTE_TASK_INFO row found its task (its block dim
        // is on it) and the PMU rows sit on their tasks (28 metrics per task where they exist).
        std::uint64_t device = 0, joined = 0, withPmu = 0;
        for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
            if (!t.slices()[i].is(kSliceDevice)) continue;
            ++device;
            joined += std::isfinite(t.metric(i, "Block Dim")) ? 1 : 0;
            withPmu += std::isfinite(t.metric(i, "aic_mac_ratio")) ? 1 : 0;
        }
        std::uint64_t hidden = 0;  // kernel tasks without their operator, left out as the text export does
        for (const auto& w : t.stats().warnings)
            if (w.id == ImportProblem::DbKernelWithoutComputeInfo) hidden = w.count;
        CHECK(device + hidden == x.tasks);
        CHECK(hidden * 4 < x.tasks);
        CHECK(joined == x.compute);
        CHECK(withPmu * 28 == x.pmu);
        auto p = prepareAnalysis(r.value(), AnalysisSettings{});
        REQUIRE(p);
        const Report rep = buildReport(*p.value(), 3.0, 0.7);
        CHECK(rep.trace.operators > 0);
        const double seconds = t.stats().seconds;
        std::printf("ascend db %-90s %5zu operators in %.4f s = %.0f operators/s\n", rel.c_str(), t.slices().size(),
                    seconds, seconds > 0 ? static_cast<double>(t.slices().size()) / seconds : 0.0);
    }
    CHECK(seen == expectedCounts().size());
}

namespace {

struct Shape {
    std::set<std::string> deviceTracks, hcclTracks, counters, deviceNames, waitNames, metricKeys;
    std::set<std::string> measured;  // "signature: character" where the pipe ratios decided it
    std::size_t signatures = 0;
    std::size_t collectives = 0;
    std::vector<std::uint32_t> steps;
};

Shape shapeOf(const Trace& t) {
    Shape s;
    for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
        const Slice& sl = t.slices()[i];
        const Track& tr = t.tracks()[sl.track];
        if (tr.processName == "HCCL") {
            s.hcclTracks.insert(tr.label());
            s.collectives += tr.threadName.find("Communication") != std::string::npos;
        }
        if (!sl.is(kSliceDevice)) continue;
        s.deviceTracks.insert(tr.label());
        (isWaitTask(t, i) ? s.waitNames : s.deviceNames).insert(std::string(t.str(sl.name)));
        const SliceInfo& info = t.infos()[i];
        for (std::uint32_t m = 0; m < info.metricsCount; ++m)
            s.metricKeys.insert(std::string(t.str(t.metrics()[info.metricsBegin + m].key)));
    }
    for (const auto& c : t.counters()) s.counters.insert(c.label());
    for (const auto& it : findIterations(t)) s.steps.push_back(it.index);
    const OperatorSet ops = selectOperators(t);
    s.signatures = ops.signatures.size();
    const auto chars = signatureCharacters(t, ops, PressureResult{});
    for (std::size_t k = 0; k < chars.size(); ++k)
        if (chars[k].source == CharacterSource::Measured)
            s.measured.insert(ops.signatures[k].text + ": " + characterName(chars[k].character));
    return s;
}

std::string missingFrom(const std::set<std::string>& want, const std::set<std::string>& have) {
    std::string out;
    for (const auto& w : want)
        if (!have.count(w)) out += (out.empty() ? "" : ", ") + w;
    return out;
}

}  // namespace

TEST_CASE("ascend db: the text and the database export of a rank folder agree on its shape", "[real][ascenddb]") {
    requireSharedTraces();
    // The msinsight test data holds both exports of the same script, level and rank, captured
    // in two runs: the same streams, operators, collectives, counters and step, not the same
    // times. (No folder holds both; a folder that does opens the database, see below.)
    const std::string base = test::sharedTraces() + "/ascend-msinsight/test/data/pytorch/";
    for (const char* rank :
         {"level0/rank0_ascend_pt", "level1/rank0_ascend_pt", "level2/rank0_ascend_pt", "level2/rank1_ascend_pt"}) {
        INFO(rank);
        LoadResult text = loadOk(base + "text/" + rank);
        LoadResult db = loadOk(base + "db/" + rank);
        CHECK(formatName(text.value()->traceFormat()) == "ascend-folder");
        CHECK(formatName(db.value()->traceFormat()) == "ascend-db");
        const Shape a = shapeOf(*text.value()), b = shapeOf(*db.value());
        CHECK(a.deviceTracks == b.deviceTracks);
        CHECK(a.hcclTracks == b.hcclTracks);
        CHECK(a.collectives == b.collectives);
        CHECK(a.steps == b.steps);
        INFO("device operators only in the text export: " << missingFrom(a.deviceNames, b.deviceNames));
        INFO("device operators only in the database: " << missingFrom(b.deviceNames, a.deviceNames));
        CHECK(a.deviceNames == b.deviceNames);
        CHECK(a.waitNames == b.waitNames);
        // Every counter series of the database is one the text export has (the text export has
        // more: NPU MEM, QoS, which the reader does not take).
        INFO("counters only in the database: " << missingFrom(b.counters, a.counters));
        CHECK(missingFrom(b.counters, a.counters).empty());
        // The per-task metrics of kernel_details.csv are all in TASK_PMU_INFO, under the same names,
        // except the ones the exporter derives (cube_utilization) or takes from l2_cache.csv.
        std::set<std::string> textKeys = a.metricKeys;
        for (const char* derived : {"cube_utilization(%)", "l2_hit_rate", "l2_victim_rate"}) textKeys.erase(derived);
        INFO("metrics only in the text export: " << missingFrom(textKeys, b.metricKeys));
        CHECK(missingFrom(textKeys, b.metricKeys).empty());
        // The same signatures, and the pipe ratios call the same ones compute- or memory-bound.
        // Not at Level0: its text export has no CANN process, so a task's launch is the PyTorch op
        // and the op's input shapes split the signatures; the database has CANN_API there too.
        if (std::string(rank) == "level0/rank0_ascend_pt") continue;
        CHECK(a.signatures == b.signatures);
        CHECK(a.measured == b.measured);
        CHECK(!b.measured.empty());
    }
}

TEST_CASE("ascend db: a cancelled load says so", "[real][ascenddb]") {
    requireSharedTraces();
    LoadOptions o;
    o.progress = [](double) { return false; };
    LoadResult r = loadTrace(test::sharedTraces() +
                                 "/ascend-msinsight/test/data/pytorch/db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                                 "ascend_pytorch_profiler_0.db",
                             o);
    CHECK_FALSE(r);
    CHECK(r.cancelled());
    REQUIRE(!r.ok());
    CHECK(r.failure().kind == Failure::Kind::Cancelled);
    CHECK(r.failure().reason == "cancelled");
}

TEST_CASE("ascend db: EVENT_RECORD tasks are waits as the text export's EVENT_RECORD_SQE are", "[real][ascenddb]") {
    requireSharedTraces();
    const std::string base = test::sharedTraces() + "/ascend-msinsight/test/data/pytorch/";
    // The Level1 capture exported twice: the text export names the record task EVENT_RECORD_SQE
    // (14 of them), the database EVENT_RECORD (16). Both must be waits, for the run to get the
    // same verdicts from either export.
    auto records = [](const Trace& t, std::string_view name, std::size_t& waits) {
        std::size_t n = 0;
        waits = 0;
        for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
            const Slice& s = t.slices()[i];
            if (!s.is(kSliceDevice)) continue;
            if (t.str(s.name) != name && t.str(t.infos()[i].taskType) != name) continue;
            ++n;
            if (s.is(kSliceWait) && isWaitTask(t, i) && !isDeviceOperator(t, i)) ++waits;
        }
        return n;
    };
    LoadResult text = loadOk(base + "text/level1/rank0_ascend_pt");
    LoadResult db = loadOk(base + "db/level1/rank0_ascend_pt");
    std::size_t textWaits = 0, dbWaits = 0;
    CHECK(records(*text.value(), "EVENT_RECORD_SQE", textWaits) == 14);
    CHECK(textWaits == 14);
    CHECK(records(*db.value(), "EVENT_RECORD", dbWaits) == 16);
    CHECK(dbWaits == 16);
}

TEST_CASE("ascend db: the LLC hit rate reads as a percent from both exports, and the PyTorch ops keep their dims",
          "[real][ascenddb]") {
    requireSharedTraces();
    const std::string base = test::sharedTraces() + "/ascend-msinsight/test/data/pytorch/";
    // The text export writes the hit rate as a fraction under "Hit Rate(%)" (LLC 0 Read's first
    // sample: 0.875), the database as the percent (85.9 first): both read as percent now.
    auto hitRates = [](const Trace& t) {
        std::vector<const CounterSeries*> out;
        for (const CounterSeries& c : t.counters())
            if (c.name.rfind("LLC ", 0) == 0 && c.name.find("/Hit Rate") != std::string::npos) out.push_back(&c);
        return out;
    };
    for (const char* rank :
         {"level0/rank0_ascend_pt", "level1/rank0_ascend_pt", "level2/rank0_ascend_pt", "level2/rank1_ascend_pt"}) {
        INFO(rank);
        LoadResult text = loadOk(base + "text/" + rank);
        LoadResult db = loadOk(base + "db/" + rank);
        for (const Trace* t : {text.value().get(), db.value().get()}) {
            INFO(formatName(t->traceFormat()));
            const auto series = hitRates(*t);
            REQUIRE_FALSE(series.empty());
            double most = 0;
            for (const CounterSeries* c : series) {
                CHECK(c->unit == "%");
                for (double v : c->values) {
                    CHECK(v >= 0);
                    CHECK(v <= 100);
                    most = std::max(most, v);
                }
            }
            CHECK(most > 50);  // a real L2 hit rate, not 0.9%
        }
    }
    LoadResult text = loadOk(base + "text/level1/rank0_ascend_pt");
    for (const CounterSeries& c : text.value()->counters())
        if (c.name == "LLC 0 Read/Hit Rate") CHECK(c.values.front() == Approx(87.5));
    LoadResult db = loadOk(base + "db/level1/rank0_ascend_pt");
    for (const CounterSeries& c : db.value()->counters())
        if (c.name == "LLC 0 Read/Hit Rate") CHECK(c.values.front() == Approx(85.9));

    // Schema 1.0.0 writes PYTORCH_API's dims under inputDtypes and the types under inputShapes:
    // the op keeps the dims, as the text export's "Input Dims" ("32,1000;\r\n1000,4096").
    LoadResult l0 = loadOk(base + "db/level0/rank0_ascend_pt");
    const Trace& t = *l0.value();
    std::size_t mm = 0;
    for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
        if (t.str(t.slices()[i].name) != "aten::mm") continue;
        const std::string_view shape = t.str(t.infos()[i].shape);
        INFO(shape);
        CHECK(shape.find("float") == std::string_view::npos);
        CHECK(shape.find(',') != std::string_view::npos);
        ++mm;
    }
    CHECK(mm > 0);
}
