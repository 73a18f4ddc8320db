#pragma once
// The event-driven engine. Runs one profiler step at a time: the host thread issues the step's
// operators in program order (dispatch, launch, stream syncs for barriers, a device sync at the
// end), each stream runs its launched operators in order, and whenever the set of running
// operators changes the device model re-divides the device. Between two such moments every rate
// is constant, so time jumps straight to the next event: an operator finishing, a launch
// arriving, a barrier expiring, the host's next call, or a counter sample falling due.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/sim/device_model.h"
#include "core/sim/sim_result.h"
#include "core/sim/workload.h"

namespace contend::sim {

// Host-side costs, ns. The barrier cost (DeviceConfig::barrierNs) is chosen larger than
// syncReturn + dispatch + launch + launchLatency even at +3 sigma jitter, so the gap a barrier
// leaves on its stream is exactly barrierNs.
struct HostConfig {
    TimeNs dispatchNs = 3000;       // framework overhead before the launch call
    TimeNs launchNs = 4000;         // the cudaLaunchKernel call itself
    TimeNs postNs = 600;            // after the launch returns, still inside the cpu_op
    TimeNs launchLatencyNs = 1500;  // launch returned -> kernel may start on the device
    TimeNs syncReturnNs = 1000;     // stream/device drained -> sync call returns
    TimeNs opGapNs = 800;           // between two framework ops on the host
    TimeNs stepLeadNs = 5000;       // ProfilerStep begins -> first dispatch
    TimeNs stepGapNs = 40000;       // one step's end -> the next step's begin (data loader)
    double jitter = 0.05;           // relative sigma of every host cost above except the gaps
};

struct SimConfig {
    DeviceConfig device;
    HostConfig host;
    TimeNs startNs = 1'000'000'000;  // first ProfilerStep begins at ts = 1,000,000 us
    // A counter track is re-sampled at least this often even when its value holds, ns; values
    // are also sampled at every moment they change (operator boundaries).
    TimeNs counterPeriodNs = 10000;
    // Measurement noise on written counter values: sigma in percentage points, drawn from its
    // own random stream (so it never moves an operator). The model itself stays exact.
    double counterNoise = 0.4;
    int minClusterOps = 4;         // barrier runs at least this long are sync clusters
    double causeThreshold = 0.02;  // slower than solo by more than this names a cause
};

class Simulator {
  public:
    Simulator(SimConfig config, std::vector<StreamInfo> streams, std::uint64_t seed);
    ~Simulator();
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    const SimConfig& config() const { return m_config; }
    const DeviceModel& model() const { return m_model; }
    const std::vector<StreamInfo>& streams() const { return m_streams; }

    // Simulates the next step. Steps follow each other on one clock; ids keep counting.
    // The result stays valid until the next call.
    const IterationResult& run(const Iteration& it);

    // Simulates the next step as run() would, then forgets it: the clock, ids and counter state
    // stay as they were, so run() with the same iteration gives the same result. The cluster
    // runner probes when each rank reaches its collectives before it fixes their durations.
    IterationResult probe(const Iteration& it);

    TimeNs nextStepStart() const { return m_nextStart; }

  private:
    class Step;
    SimConfig m_config;
    DeviceModel m_model;
    std::vector<StreamInfo> m_streams;
    std::uint64_t m_seed;
    TimeNs m_nextStart;
    std::int64_t m_nextCorrelation = 1;
    std::int64_t m_nextExternal = 1;
    // Counter emission state carried across steps: last value written and when, per series.
    std::array<std::int16_t, kSeriesCount> m_lastValue{};
    std::array<TimeNs, kSeriesCount> m_lastSample{};
    IterationResult m_result;
};

}  // namespace contend::sim
