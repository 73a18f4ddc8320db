#pragma once
// Simulated traces with their ground truth, for the analysis tests: written once per set of
// options into the temp folder and reused by every test case of the run.
//
//   simulated(sim::Scenario::Mixed, false, 7)                       // project X, full counters
//   simulated({.scenario = sim::Scenario::Cache, .seed = 3,
//              .counters = sim::CounterMode::None, .badRate = 0.5})  // no counters, half bad
//   simulated({.scenario = sim::Scenario::Null,
//              .counters = sim::CounterMode::Period, .periodNs = 1'000'000})  // 1 ms means
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <tuple>
#include <unistd.h>
#include <utility>

#include "core/io/load.h"
#include "core/sim/run_simulation.h"

namespace contend::test {

struct SimRun {
    TracePtr trace;
    nlohmann::json truth;
};

// What to simulate; the defaults are those of `contend-cli simulate SCENARIO`.
struct SimOptions {
    sim::Scenario scenario = sim::Scenario::Mixed;
    bool fixed = false;
    std::uint64_t seed = 1;
    sim::CounterMode counters = sim::CounterMode::Full;
    TimeNs periodNs = 0;  // CounterMode::Period: the sampling period, ns (1'000'000 = 1 ms)
    double badRate = 1;   // single-cause scenarios only (see SimulationRequest::badRate)
    int iterations = 0;   // 0: the scenario's default
    sim::OutputFormat format = sim::OutputFormat::KinetoJson;  // NsysSqlite: an Nsight Systems export
    std::string device = "simdevice";  // `simulate --device`: simdevice, proportional, small-cache, narrow
};

inline const SimRun& simulated(const SimOptions& o) {
    using Key = std::tuple<int, bool, std::uint64_t, int, TimeNs, double, int, int, std::string>;
    static std::map<Key, SimRun> cache;
    const Key key{static_cast<int>(o.scenario),
                  o.fixed,
                  o.seed,
                  static_cast<int>(o.counters),
                  o.periodNs,
                  o.badRate,
                  o.iterations,
                  static_cast<int>(o.format),
                  o.device};
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    // One folder per test process, removed with what is left in it when the process exits.
    struct ScratchDir {
        std::filesystem::path path;
        explicit ScratchDir(std::filesystem::path p) : path(std::move(p)) {}
        ScratchDir(const ScratchDir&) = delete;
        ScratchDir(ScratchDir&&) = delete;
        ScratchDir& operator=(ScratchDir&&) = delete;
        ScratchDir& operator=(const ScratchDir&) = delete;
        ~ScratchDir() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    };
    static const ScratchDir scratch{std::filesystem::temp_directory_path() /
                                    ("contend-analysis-" + std::to_string(::getpid()))};
    const std::filesystem::path& dir = scratch.path;
    std::filesystem::create_directories(dir);
    sim::SimulationRequest req;
    req.scenario = o.scenario;
    req.fixed = o.fixed;
    req.seed = o.seed;
    req.counters = o.counters;
    req.counterIntervalNs = o.periodNs;
    req.badRate = o.badRate;
    req.iterations = o.iterations;
    req.format = o.format;
    req.device = o.device;
    // One file name per cached run (the trace name says the modes; '/' becomes '_').
    std::string stem = sim::traceNameFor(req) + "_it-" + std::to_string(o.iterations) + "_" + o.device;
    for (char& c : stem)
        if (c == '/') c = '_';
    stem = (dir / stem).string();
    req.tracePath = stem + (o.format == sim::OutputFormat::NsysSqlite ? ".sqlite" : ".json");
    req.truthPath = stem + ".truth.json";
    const Result<sim::SimulationSummary> s = sim::runSimulation(req);
    if (!s) FAIL("simulation failed: " << s.failure().message());
    LoadResult lr = loadTrace(req.tracePath);
    if (!lr) FAIL("simulated trace did not load: " << lr.failure().message());
    SimRun run;
    run.trace = lr.value();
    std::ifstream f(req.truthPath);
    run.truth = nlohmann::json::parse(f);
    std::filesystem::remove(req.tracePath);
    std::filesystem::remove(req.truthPath);
    return cache.emplace(key, std::move(run)).first->second;
}

inline const SimRun& simulated(sim::Scenario scenario, bool fixed, std::uint64_t seed) {
    SimOptions o;
    o.scenario = scenario;
    o.fixed = fixed;
    o.seed = seed;
    return simulated(o);
}

}  // namespace contend::test
