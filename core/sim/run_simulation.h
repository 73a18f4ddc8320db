#pragma once
// One call that runs a scenario of project X and writes its trace (and ground truth), step by
// step, streaming: memory stays bounded by one step however large the trace. This is what
// `contend-cli simulate` and the sample script run.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/failure.h"
#include "core/sim/model/counter_mode.h"
#include "core/sim/model/scenario.h"
#include "core/sim/model/simulator.h"
#include "core/sim/write/trace_writer.h"

namespace contend::sim {

// The file a simulation writes: PyTorch-profiler (Kineto) Chrome-trace JSON, or an Nsight
// Systems SQLite export with GPU metrics (nsys_writer.h). What a simulation writes, not what a
// reader made of a file (that is contend::TraceFormat, core/trace/trace_format.h).
enum class OutputFormat : std::uint8_t { KinetoJson, NsysSqlite };
// "json" / "nsys-sqlite".
const char* outputFormatName(OutputFormat f);
std::optional<OutputFormat> parseOutputFormat(std::string_view text);
// The counters a format gets when none are asked for: every change for JSON; Nsight Systems'
// default GPU-metrics rate, 10 kHz (one mean per 100 us), for the SQLite export.
CounterSetting defaultCounters(OutputFormat f);

struct SimulationRequest {
    Scenario scenario = Scenario::Mixed;
    bool fixed = false;
    std::uint64_t seed = 1;
    int iterations = 0;       // 0: defaultIterations(scenario)
    std::int64_t events = 0;  // > 0: run steps until about this many kernels (overrides iterations)
    OutputFormat format = OutputFormat::KinetoJson;
    std::string tracePath;       // "-" = stdout; ".gz" suffix = gzip (JSON only)
    std::string truthPath;       // empty = none
    bool gzip = false;           // gzip the trace regardless of its suffix
    bool hostEvents = true;      // false: kernels, steps and counters only
    TimeNs counterPeriodNs = 0;  // 0: SimConfig's default (100 us with `events`)
    // Which counter events the trace holds (counter_mode.h). The device runs the same in every
    // mode (it always samples at full resolution), so kernels and truth ops do not change.
    CounterMode counters = CounterMode::Full;
    TimeNs counterIntervalNs = 0;  // Period: one sample per series per this many ns (> 0)
    // Measurement noise on written counter values, percentage points; < 0: SimConfig's default
    // (0.4). Tests set 0 to compare modes exactly. Never moves an operator.
    double counterNoise = -1;
    // Probability that a step runs the scenario's site bad, decided per (seed, step): single-
    // cause scenarios only (bandwidth, sync-cluster, cache, lock); 1 = every step (the default,
    // unchanged bytes). Any other value for mixed or null is an error. --fixed overrides it.
    double badRate = 1.0;
    // The simulated device (device_model.h, devicePreset): "simdevice", the device the
    // analysis' rules were written against, or one they were not.
    std::string device = "simdevice";
};

struct SimulationSummary {
    int iterations = 0;
    std::uint64_t ops = 0;
    TraceCounts counts;
    std::uint64_t traceBytes = 0;  // uncompressed JSON bytes, or the database's size
    TimeNs endToEndNs = 0;         // first step begins -> last step ends
    double seconds = 0;            // wall time
};

// The summary of a simulation written, or why it was not: kind Invalid for a request outside
// what the simulator accepts (requestProblem, a workload step that does not validate),
// Unreadable for a file that cannot be written (the reason names it).
Result<SimulationSummary> runSimulation(const SimulationRequest& request);

// "contend-sim/mixed/seed-7" or "contend-sim/mixed-fixed/seed-7": the trace's traceName. Modes
// other than the defaults add parts: ".../seed-7/bad-0.5", ".../seed-7/counters-none",
// ".../seed-7/bad-0.25/counters-1000us".
std::string traceNameFor(const SimulationRequest& request);

}  // namespace contend::sim
