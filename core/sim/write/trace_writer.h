#pragma once
// Writes simulated steps as a Chrome-trace JSON in the shape PyTorch's profiler (Kineto) writes:
// a GPU process (pid 0) with one thread per stream, a host process with the Python thread
// (ProfilerStep#N annotations, cpu_op events, cudaLaunchKernel / sync runtime calls), "ac2g"
// flows from each launch to its kernel, and four counter tracks ("C" events) on the GPU process.
// Streams step by step to an OutputSink; counts what it wrote for the ground truth and tests.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/sim/model/counter_mode.h"
#include "core/sim/model/sim_result.h"
#include "core/sim/model/simulator.h"
#include "core/sim/model/workload.h"
#include "core/sim/write/counter_resampler.h"
#include "core/sim/write/json_text.h"
#include "core/sim/write/trace_output.h"

namespace contend::sim {

// Names of the counter tracks and their arg keys (the key carries the unit).
struct CounterName {
    const char* name;
    const char* key;
};
inline constexpr std::array<CounterName, kSeriesCount> kCounterNames{{
    {"DRAM Bandwidth", "Utilization(%)"},
    {"Compute Units", "Utilization(%)"},
    {"L2 Cache", "Hit Rate(%)"},
    {"Issue Slots", "Utilization(%)"},
}};

class TraceWriter : public TraceOutput {
  public:
    struct Options {
        std::string traceName;   // written as "traceName"; keep it free of paths for stable bytes
        bool hostEvents = true;  // cpu_op, runtime calls and flows; off gives kernel-only traces
        std::int32_t hostPid = 4242;
        std::int32_t hostTid = 4242;
        // Which counter events to write (counter_mode.h). Period mode averages the simulator's
        // full-resolution samples, with noise drawn from a stream seeded by counterNoiseSeed.
        CounterSetting counters;
        std::uint64_t counterNoiseSeed = 0;
        // One rank of a cluster: written as Kineto's "distributedInfo" (backend nccl); -1: none.
        std::int32_t rank = -1;
        std::int32_t worldSize = 0;
    };

    TraceWriter(OutputSink& sink, const SimConfig& config, const std::vector<StreamInfo>& streams, Options options);

    bool begin() override;  // header, device properties, process/thread metadata
    bool write(const Iteration& it, const IterationResult& result) override;
    bool finish() override;  // last counter samples, closes the JSON, flushes (the sink is its owner's)

    const TraceCounts& counts() const override { return m_counts; }
    std::uint64_t bytes() const override { return m_out.bytes(); }

  private:
    void open(char phase);  // starts an event: separator, '{"ph": "<phase>"', counts it
    void hostX(const char* cat, std::string_view name, TimeNs ts, TimeNs dur);
    void kernel(const OpSpec& spec, const OpRecord& rec);
    void flow(std::int64_t id, const OpRecord& rec, std::int32_t stream);
    void counters(const IterationResult& r);
    void counterEvents(const std::vector<CounterSample>& samples);

    const SimConfig& m_config;
    const std::vector<StreamInfo>& m_streams;
    Options m_options;
    JsonText m_out;
    TraceCounts m_counts;
    std::array<std::uint64_t, 128> m_phaseCount{};  // by phase character, folded at finish()
    bool m_first = true;
    std::int64_t m_evIdx = 0;  // Kineto's running "Ev Idx" of host events
    CounterStream m_counterStream;
    TimeNs m_lastStepEnd = 0;
};

}  // namespace contend::sim
