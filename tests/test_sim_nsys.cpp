// `contend-cli simulate --format nsys-sqlite` (core/sim/write/nsys_writer.h): the simulated run written as
// an Nsight Systems SQLite export, read back by the Nsight reader with nothing special for it.
//  * the same seed as Kineto JSON and as SQLite holds the same kernels (name, stream, start,
//    duration, correlation), each linked to its cudaLaunchKernel; the reader's counts per table
//    equal what the writer wrote; steps come from NVTX; the GPU metrics are the Nsight names;
//    the file is byte-identical for a seed, written atomically, refused for stdout and gzip;
//  * quality, against the simulator's truth (truth ops matched to slices by (stream, start_ns)):
//    mixed and the single-cause scenarios at a bad-step rate of 0.5, seeds 1-5, each written as
//    Kineto JSON with full counters, as SQLite with GPU metrics at 10 kHz (Nsight's default), at
//    20 kHz, and as JSON with no counters. On the SQLite runs the causes marked measured agree
//    with the truth for >= 0.90 of the true positives that carry one; recall, precision and cause
//    accuracy are never below what no counters give; at 20 kHz the bandwidth contention (two
//    ~110 us kernels) is measured for >= 0.90 of its true positives (DRAM read + write summed as
//    one bus: either alone never reaches the busy mark). At 10 kHz a 100 us mean straddles those
//    kernels: a cause is measured where a straddling sample's mean bounds the run's part of it
//    busy ("measured (bounded from ...)"), or where the samples pooled over every occurrence of
//    the same overlap prove it saturated ("measured on the pattern: ..."), for >= 0.90 of them
//    (6 of 114 before the bounds, 40 with them, 112 pooled). Nsight samples no L2 hit rate
//    and the simulator's lock waits show in no counter: those causes stay estimated in SQLite.
//    Sync clusters come out as the truth has them, measured, in every format.
//  * null (nothing shared), SQLite at 10 and 20 kHz, seeds 1-5: at most 0.5% of operators
//    flagged, windows at most 0.05%, no bottleneck.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>

#include "analysis_sim.h"
#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/sim/write/nsys_writer.h"
#include "core/trace/conventions.h"
#include "test_support.h"

using namespace contend;
using contend::test::SimOptions;
using contend::test::simulated;
namespace fs = std::filesystem;

namespace {

using Key = std::pair<std::int64_t, TimeNs>;  // (stream, start_ns)

struct Score {
    std::size_t slowed = 0, found = 0;                               // truth slowdown > 20%, of them flagged
    std::size_t flagged = 0, real = 0;                               // flagged, of them truth slowdown > 5%
    std::size_t causeRight = 0;                                      // true positives with the truth's cause
    std::size_t measured = 0, measuredRight = 0;                     // true positives marked measured, of them right
    std::map<std::string, std::size_t> truePositivesOf, measuredOf;  // by the truth's cause
    void add(const Score& o) {
        slowed += o.slowed, found += o.found, flagged += o.flagged, real += o.real;
        causeRight += o.causeRight, measured += o.measured, measuredRight += o.measuredRight;
        for (const auto& [k, v] : o.truePositivesOf) truePositivesOf[k] += v;
        for (const auto& [k, v] : o.measuredOf) measuredOf[k] += v;
    }
    static double share(std::size_t a, std::size_t b) {
        return b ? static_cast<double>(a) / static_cast<double>(b) : 1.0;
    }
    double recall() const { return share(found, slowed); }
    double precision() const { return share(real, flagged); }
    double cause() const { return share(causeRight, real); }
    double measuredShare() const { return share(measured, real); }
    double measuredAgree() const { return share(measuredRight, measured); }
};

Score score(const Trace& t, const nlohmann::json& truth, const Report& r) {
    std::map<Key, const nlohmann::json*> ops;
    for (const auto& o : truth["ops"]) ops[{o["stream"].get<std::int64_t>(), o["start_ns"].get<TimeNs>()}] = &o;
    Score s;
    std::set<Key> flagged;
    for (const Anomaly& a : r.anomalies) {
        const Key k{t.infos()[a.slice].stream, t.slices()[a.slice].start};
        flagged.insert(k);
        auto it = ops.find(k);
        REQUIRE(it != ops.end());
        ++s.flagged;
        const nlohmann::json& o = *it->second;
        if (o["slowdown"].get<double>() <= 0.05) continue;
        ++s.real;
        const std::string truthCause = o["cause"].get<std::string>();
        const bool right = truthCause == resourceName(a.cause);
        ++s.truePositivesOf[truthCause];
        if (right) ++s.causeRight;
        if (a.provenance == Provenance::Measured) {
            ++s.measured;
            ++s.measuredOf[truthCause];
            if (right) ++s.measuredRight;
        }
    }
    for (const auto& [k, o] : ops)
        if ((*o)["slowdown"].get<double>() > 0.2) {
            ++s.slowed;
            if (flagged.count(k)) ++s.found;
        }
    return s;
}

struct Format {
    const char* name;
    sim::OutputFormat format;
    sim::CounterMode counters;
    TimeNs periodNs;
};
const Format kJsonFull{"json full counters", sim::OutputFormat::KinetoJson, sim::CounterMode::Full, 0};
const Format kSqlite10k{"nsys-sqlite 10 kHz", sim::OutputFormat::NsysSqlite, sim::CounterMode::Period, 100'000};
const Format kSqlite20k{"nsys-sqlite 20 kHz", sim::OutputFormat::NsysSqlite, sim::CounterMode::Period, 50'000};
const Format kJsonNone{"json no counters", sim::OutputFormat::KinetoJson, sim::CounterMode::None, 0};

SimOptions options(sim::Scenario scenario, const Format& f, std::uint64_t seed, double badRate, int iterations) {
    SimOptions o;
    o.scenario = scenario;
    o.seed = seed;
    o.counters = f.counters;
    o.periodNs = f.periodNs;
    o.badRate = badRate;
    o.iterations = iterations;
    o.format = f.format;
    return o;
}

std::string causesText(const std::map<std::string, std::size_t>& m) {
    std::string s;
    for (const auto& [k, v] : m) s += (s.empty() ? "" : " ") + k + " " + std::to_string(v);
    return s.empty() ? "-" : s;
}

std::string fileBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

Result<sim::SimulationSummary> simulateTo(sim::SimulationRequest req, const std::string& path) {
    req.tracePath = path;
    return sim::runSimulation(req);
}

}  // namespace

TEST_CASE("nsys-sqlite simulate: the run as JSON and as an Nsight export read back alike", "[sim-nsys][sim]") {
    test::TempFile json("sim-nsys.json"), db("sim-nsys.sqlite"), again("sim-nsys-again.sqlite");
    sim::SimulationRequest req;
    req.scenario = sim::Scenario::Mixed;
    req.seed = 3;
    req.iterations = 6;
    REQUIRE(simulateTo(req, json.path()).ok());
    req.format = sim::OutputFormat::NsysSqlite;
    const sim::CounterSetting c = sim::defaultCounters(req.format);
    CHECK(c.mode == sim::CounterMode::Period);
    CHECK(c.periodNs == 100'000);  // Nsight's 10 kHz
    req.counters = c.mode;
    req.counterIntervalNs = c.periodNs;
    const Result<sim::SimulationSummary> s = simulateTo(req, db.path());
    INFO((s ? std::string() : s.failure().message()));
    REQUIRE(s.ok());
    CHECK_FALSE(contend::test::leftTemporary(db.path()));
    REQUIRE(simulateTo(req, again.path()).ok());
    CHECK(fileBytes(db.path()) == fileBytes(again.path()));  // same seed, same bytes

    LoadResult lj = loadTrace(json.path());
    LoadResult ls = loadTrace(db.path());
    INFO((!ls.ok() ? ls.failure().message() : std::string()));
    REQUIRE(lj);
    REQUIRE(ls);
    const Trace& tj = *lj.value();
    const Trace& ts = *ls.value();
    CHECK(formatName(ts.traceFormat()) == "nsys-sqlite");
    // The reader's counts per table are the writer's.
    for (const char* table : {"kernel", "runtime", "sync", "nvtx", "gpu_metrics"}) {
        INFO(table);
        REQUIRE(s->counts.phases.count(table));
        CHECK(ts.stats().phases.at(table) == s->counts.phases.at(table));
    }
    CHECK(s->counts.kernels == s->ops);

    // The same kernels, each linked to its launch.
    std::map<Key, std::uint32_t> kernels;
    for (std::uint32_t i = 0; i < tj.slices().size(); ++i)
        if (tj.str(tj.slices()[i].category) == "kernel") kernels[{tj.infos()[i].stream, tj.slices()[i].start}] = i;
    std::size_t matched = 0, steps = 0;
    for (std::uint32_t i = 0; i < ts.slices().size(); ++i) {
        const Slice& sl = ts.slices()[i];
        if (sl.is(kSliceStep)) ++steps;
        if (ts.str(sl.category) != "kernel") continue;
        auto it = kernels.find({ts.infos()[i].stream, sl.start});
        REQUIRE(it != kernels.end());
        const Slice& js = tj.slices()[it->second];
        CHECK(ts.str(sl.name) == tj.str(js.name));
        CHECK(sl.dur == js.dur);
        CHECK(ts.infos()[i].correlation == tj.infos()[it->second].correlation);
        REQUIRE(ts.infos()[i].launch != kNone);
        CHECK(ts.str(ts.slices()[ts.infos()[i].launch].name) == "cudaLaunchKernel");
        ++matched;
    }
    CHECK(matched == kernels.size());
    CHECK(steps == 6);

    // GPU metrics under Nsight's names, one sample per metric per 100 us.
    const auto& names = sim::NsysWriter::metricNames();
    REQUIRE(ts.counters().size() == names.size());
    for (const CounterSeries& cs : ts.counters()) {
        INFO(cs.name);
        CHECK(std::find(names.begin(), names.end(), cs.name) != names.end());
        CHECK(cs.pid == "GPU 0");
        CHECK(cs.times.size() == ts.counters()[0].times.size());
        for (std::size_t k = 1; k < cs.times.size(); ++k) CHECK(cs.times[k] - cs.times[k - 1] == 100'000);
    }
    std::map<std::string, std::string> details(ts.source().details.begin(), ts.source().details.end());
    CHECK(details["GPU 0"].find("108 SMs") != std::string::npos);
    CHECK(details["exported by"].find("schema 3.25.0") != std::string::npos);

    // The analysis maps them: compute, issue and (read + write) bandwidth; the clock is no resource.
    const Report r = contend::test::analyzeOk(ls.value(), AnalysisSettings{});
    std::set<std::string> mapped(r.trace.counters.begin(), r.trace.counters.end());
    CHECK(mapped.count("SMs Active [Throughput %] % -> compute (utilization)"));
    CHECK(mapped.count("SM Issue [Throughput %] % -> issue (utilization)"));
    CHECK(mapped.count("DRAM Read Bandwidth [Throughput %] % -> bandwidth (utilization)"));
    CHECK(mapped.count("DRAM Write Bandwidth [Throughput %] % -> bandwidth (utilization)"));
    CHECK(mapped.size() == 4);
}

TEST_CASE("nsys-sqlite simulate: counter modes, and what it refuses", "[sim-nsys][sim]") {
    test::TempFile db("sim-nsys-modes.sqlite");
    sim::SimulationRequest req;
    req.scenario = sim::Scenario::Lock;
    req.iterations = 2;
    req.format = sim::OutputFormat::NsysSqlite;
    req.counters = sim::CounterMode::None;
    Result<sim::SimulationSummary> s = simulateTo(req, db.path());
    REQUIRE(s.ok());
    LoadResult none = loadTrace(db.path());
    REQUIRE(none);
    CHECK(none.value()->counters().empty());  // no GPU-metrics tables, as without --gpu-metrics-devices
    CHECK(s->counts.counters == 0);
    req.counters = sim::CounterMode::Full;
    s = simulateTo(req, db.path());
    REQUIRE(s.ok());
    LoadResult full = loadTrace(db.path());
    REQUIRE(full);
    REQUIRE_FALSE(full.value()->counters().empty());
    CHECK(full.value()->stats().phases.at("gpu_metrics") == s->counts.counters);
    req.hostEvents = false;
    s = simulateTo(req, db.path());
    REQUIRE(s.ok());
    LoadResult deviceOnly = loadTrace(db.path());
    REQUIRE(deviceOnly);
    CHECK(deviceOnly.value()->stats().phases.count("runtime") == 0);
    CHECK(deviceOnly.value()->stats().phases.at("nvtx") == 2);  // the two ProfilerStep ranges, kept
    CHECK(deviceOnly.value()->stats().phases.at("kernel") == s->counts.kernels);

    Result<sim::SimulationSummary> out = simulateTo(req, "-");
    REQUIRE_FALSE(out.ok());
    CHECK(out.failure().kind == Failure::Kind::Invalid);
    CHECK(out.failure().message().find("not stdout") != std::string::npos);
    out = simulateTo(req, db.path() + ".gz");
    REQUIRE_FALSE(out.ok());
    CHECK(out.failure().kind == Failure::Kind::Invalid);
    CHECK(out.failure().message().find("gzip") != std::string::npos);
    const std::string missing = (fs::temp_directory_path() / "no-such-dir-contend" / "x.sqlite").string();
    out = simulateTo(req, missing);
    REQUIRE_FALSE(out.ok());
    CHECK(out.failure().kind == Failure::Kind::Unreadable);
    CHECK(out.failure().message().find(missing) != std::string::npos);
    CHECK_FALSE(contend::test::leftTemporary(missing));
}

TEST_CASE("nsys-sqlite simulate: GPU metrics give measured causes that agree with the ground truth",
          "[sim-nsys][quality][sim]") {
    struct Case {
        sim::Scenario scenario;
        double badRate;
        int iterations;
    };
    const Case cases[] = {{sim::Scenario::Mixed, 1, 0},
                          {sim::Scenario::Bandwidth, 0.5, 24},
                          {sim::Scenario::Cache, 0.5, 24},
                          {sim::Scenario::Lock, 0.5, 24}};
    Score sqliteAll;
    std::map<std::string, std::size_t> bounded;  // measured causes whose evidence is a bound, by format
    for (const Case& c : cases) {
        std::map<std::string, Score> byFormat;
        for (const Format* f : {&kJsonFull, &kSqlite10k, &kSqlite20k, &kJsonNone}) {
            Score total;
            for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
                INFO(sim::scenarioName(c.scenario) << " " << f->name << " seed " << seed);
                const auto& run = simulated(options(c.scenario, *f, seed, c.badRate, c.iterations));
                CHECK(formatName(run.trace->traceFormat()) ==
                      (f->format == sim::OutputFormat::NsysSqlite ? "nsys-sqlite" : "kineto"));
                const Report r = contend::test::analyzeOk(run.trace, AnalysisSettings{});
                total.add(score(*run.trace, run.truth, r));
                for (const Anomaly& a : r.anomalies)
                    if (a.evidence.rfind("measured (bounded from", 0) == 0) ++bounded[f->name];
                // The sync clusters: found from the SYNCHRONIZATION and runtime rows as from JSON.
                CHECK(r.clusters.size() == run.truth["clusters"].size());
                for (const Cluster& cl : r.clusters) CHECK(cl.provenance == Provenance::Measured);
            }
            std::printf(
                "sim-nsys %s (bad rate %.1f) %s, seeds 1-5: recall %.3f (%zu/%zu) precision %.3f (%zu/%zu) "
                "cause %.3f; measured %zu of %zu true positives (%s; truth: %s), %zu agree (%.3f)\n",
                std::string(sim::scenarioName(c.scenario)).c_str(), c.badRate, f->name, total.recall(), total.found,
                total.slowed, total.precision(), total.real, total.flagged, total.cause(), total.measured, total.real,
                causesText(total.measuredOf).c_str(), causesText(total.truePositivesOf).c_str(), total.measuredRight,
                total.measuredAgree());
            if (f->format == sim::OutputFormat::NsysSqlite) sqliteAll.add(total);
            byFormat[f->name] = total;
        }
        INFO(sim::scenarioName(c.scenario));
        const Score& none = byFormat[kJsonNone.name];
        for (const Format* f : {&kSqlite10k, &kSqlite20k}) {
            INFO(f->name);
            const Score& s = byFormat[f->name];
            CHECK(s.measuredAgree() >= 0.90);
            CHECK(s.recall() >= none.recall());
            CHECK(s.precision() >= std::min(0.90, none.precision()));
            CHECK(s.cause() >= none.cause());
        }
        if (c.scenario == sim::Scenario::Bandwidth) {
            const Score& s = byFormat[kSqlite20k.name];
            CHECK(s.real >= 10);
            CHECK(s.measuredShare() >= 0.90);
            // 10 kHz: the samples of every occurrence of the overlap pooled (causes.h, 2b): 0.05
            // before the bounds, 0.35 with the bounds on each run alone, 0.98 pooled.
            const Score& s10 = byFormat[kSqlite10k.name];
            CHECK(s10.measuredShare() >= 0.90);
        }
    }
    std::printf("sim-nsys all SQLite runs: measured %zu of %zu true positives, %zu agree with the truth (%.3f)\n",
                sqliteAll.measured, sqliteAll.real, sqliteAll.measuredRight, sqliteAll.measuredAgree());
    CHECK(sqliteAll.measured >= 100);
    CHECK(bounded[kSqlite10k.name] > 0);  // said as a bound where the samples straddle the run
    CHECK(bounded[kJsonFull.name] == 0);  // a sample at every change: the plain value
    CHECK(sqliteAll.measuredAgree() >= 0.90);
}

TEST_CASE("nsys-sqlite simulate: the null run flags (almost) nothing", "[sim-nsys][quality][sim]") {
    for (const Format* f : {&kSqlite10k, &kSqlite20k}) {
        for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
            INFO(f->name << " seed " << seed);
            const auto& run = simulated(options(sim::Scenario::Null, *f, seed, 1, 0));
            const Report r = contend::test::analyzeOk(run.trace, AnalysisSettings{});
            const double ops = static_cast<double>(r.trace.operators);
            REQUIRE(ops > 1000);
            REQUIRE_FALSE(run.trace->counters().empty());
            CHECK(static_cast<double>(r.anomalies.size()) <= 0.005 * ops);
            CHECK(static_cast<double>(r.windows.size()) <= 0.0005 * ops);
            CHECK(r.summary.bottleneck == Resource::None);
            std::printf("sim-nsys null %s seed %llu: %.0f operators, %zu flagged, %zu windows\n", f->name,
                        static_cast<unsigned long long>(seed), ops, r.anomalies.size(), r.windows.size());
        }
    }
}

TEST_CASE("nsys-sqlite simulate: the command line", "[sim-nsys][cli]") {
    test::TempFile db("sim-nsys-cli.sqlite");
    CHECK(test::runCli("simulate lock --iterations 2 --format nsys-sqlite --out " + db.path() + " --quiet") == 0);
    LoadResult r = loadTrace(db.path());
    REQUIRE(r);
    CHECK(formatName(r.value()->traceFormat()) == "nsys-sqlite");
    REQUIRE_FALSE(r.value()->counters().empty());
    // The 10 kHz default: one sample per metric every 100 us.
    const CounterSeries& c = r.value()->counters()[0];
    REQUIRE(c.times.size() > 2);
    CHECK(c.times[1] - c.times[0] == 100'000);
    CHECK(test::runCli("simulate lock --iterations 2 --format nsys-sqlite --counters none --out " + db.path()) == 0);
    LoadResult none = loadTrace(db.path());
    REQUIRE(none);
    CHECK(none.value()->counters().empty());
    CHECK(test::runCli("simulate lock --format nsys-sqlite --out -") == 2);
    CHECK(test::runCli("simulate lock --format nsys-sqlite --gzip --out " + db.path()) == 2);
    CHECK(test::runCli("simulate lock --format parquet --out " + db.path()) == 2);
    CHECK(test::runCli("simulate --help | grep -q 'nsys-sqlite: what'") == 0);
}
