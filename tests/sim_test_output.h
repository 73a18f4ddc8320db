#pragma once
// Helpers of the simulator mode tests (test_sim_modes.cpp, test_sim_null.cpp): run a
// simulation into temp files and read its trace back as lines, JSON and counter tracks.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/sim/run_simulation.h"
#include "test_support.h"

namespace contend::test {

inline std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

// A simulation written to temp files, read back as text and JSON.
struct Output {
    sim::SimulationSummary summary;
    std::string trace;  // the trace's bytes
    std::string truth;  // the truth's bytes
};

inline Output run(sim::SimulationRequest req, const std::string& name) {
    TempFile trace(name + ".json"), truth(name + ".truth.json");
    req.tracePath = trace.path();
    req.truthPath = truth.path();
    Output out;
    Result<sim::SimulationSummary> summary = sim::runSimulation(req);
    INFO((summary ? std::string() : summary.failure().message()));
    REQUIRE(summary.ok());
    out.summary = summary.value();
    out.trace = slurp(trace.path());
    out.truth = slurp(truth.path());
    return out;
}

inline sim::SimulationRequest request(sim::Scenario s, std::uint64_t seed, int iterations) {
    sim::SimulationRequest req;
    req.scenario = s;
    req.seed = seed;
    req.iterations = iterations;
    return req;
}

// The trace's lines other than counter events and its traceName: every event is on a line of
// its own, so this is every non-counter event, byte for byte (but for its trailing comma).
inline std::vector<std::string> nonCounterLines(const std::string& trace) {
    std::vector<std::string> lines;
    std::istringstream in(trace);
    for (std::string line; std::getline(in, line);) {
        if (line.find("{\"ph\": \"C\"") != std::string::npos || line.find("\"traceName\"") != std::string::npos)
            continue;
        if (!line.empty() && line.back() == ',')
            line.pop_back();  // the separator depends on what follows (a counter or not)
        lines.push_back(line);
    }
    return lines;
}

// One counter track read back from a trace: sample times (ns) and values (tenths of a percent).
struct Readings {
    std::vector<TimeNs> t;
    std::vector<std::int64_t> v;
};

inline std::map<std::string, Readings> counterTracks(const std::string& trace) {
    std::map<std::string, Readings> tracks;
    const nlohmann::json doc = nlohmann::json::parse(trace);
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] != "C") continue;
        Readings& tr = tracks[e["name"].get<std::string>()];
        tr.t.push_back(std::llround(e["ts"].get<double>() * 1000.0));
        tr.v.push_back(std::llround(e["args"].begin()->get<double>() * 10.0));
    }
    return tracks;
}

}  // namespace contend::test
