#pragma once
// What a simulation is configured with: the device, the host's costs, the clock's start, the
// counters' sampling and the truth's thresholds. Apart from the engine (simulator.h) so that the
// truth's rules (attribution.h) read it without depending on the engine that calls them.
#include "core/sim/model/device_model.h"
#include "core/trace/types.h"

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

}  // namespace contend::sim
