#pragma once
// Simulated project X traces with their ground truth, for the analysis tests: written once per
// (scenario, fixed, seed) into the temp folder and reused by every test case of the run.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "core/io/load.h"
#include "core/sim/run_simulation.h"

namespace contend::test {

struct SimRun {
    TracePtr trace;
    nlohmann::json truth;
};

inline const SimRun& simulated(sim::Scenario scenario, bool fixed, std::uint64_t seed) {
    static std::map<std::tuple<int, bool, std::uint64_t>, SimRun> cache;
    const auto key = std::make_tuple(static_cast<int>(scenario), fixed, seed);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    const auto dir = std::filesystem::temp_directory_path() / ("contend-analysis-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string stem = (dir / (std::string(sim::scenarioName(scenario)) + (fixed ? "-fixed-" : "-") +
                                     std::to_string(seed)))
                                 .string();
    sim::SimulationRequest req;
    req.scenario = scenario;
    req.fixed = fixed;
    req.seed = seed;
    req.tracePath = stem + ".json";
    req.truthPath = stem + ".truth.json";
    const sim::SimulationSummary s = sim::runSimulation(req);
    if (!s.ok) FAIL("simulation failed: " << s.error);
    LoadResult lr = loadTrace(req.tracePath);
    if (!lr) FAIL("simulated trace did not load: " << lr.error->message());
    SimRun run;
    run.trace = lr.trace;
    std::ifstream f(req.truthPath);
    run.truth = nlohmann::json::parse(f);
    std::filesystem::remove(req.tracePath);
    std::filesystem::remove(req.truthPath);
    return cache.emplace(key, std::move(run)).first->second;
}

}  // namespace contend::test
