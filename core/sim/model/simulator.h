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

#include "core/sim/model/device_model.h"
#include "core/sim/model/sim_config.h"
#include "core/sim/model/sim_result.h"
#include "core/sim/model/workload.h"

namespace contend::sim {

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
