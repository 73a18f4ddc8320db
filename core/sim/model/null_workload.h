#pragma once
// The null scenario's workload: a busy four-stream device on which nothing is shared. Every
// stream is kept busy with back-to-back kernels (the host issues them faster than the streams
// drain them), so kernels on different streams overlap most of the time; yet each stream's
// demands fit inside a quarter-ish of the device (the four streams' largest bandwidth,
// compute and issue demands each sum to 0.9 at most, their largest working sets to 38 MiB of
// the 40 MiB L2; no cache sensitivity, locks, barriers or waits). So the device model never
// slows anything: every operator runs at rate 1 and the truth says slowdown 0, cause none.
//
// What varies is each kernel's own duration, drawn per signature (name, grid, block) from one
// of four shapes (workload.h JitterKind), tagged in the truth:
//   control:null-narrow   normal, sigma 6%
//   control:null-uniform  work * U(0.5, 1.5)
//   control:null-heavy    Pareto alpha 2 from `work` up, capped at 8x
//   control:null-bimodal  25% of launches at 1.6x (a data-dependent second mode), 3% jitter
// It is the control for analyses that look for contention: whatever they find here is false.
// The workload is the same every step and has no fixed twin ("--fixed" changes only the name).
#include <cstdint>
#include <vector>

#include "core/sim/model/workload.h"

namespace contend::sim {

class NullWorkload {
  public:
    static constexpr int kLayers = 5;  // repeats of each stream's layer of kernels per step

    static const std::vector<StreamInfo>& streams();
    Iteration build(int step) const;
};

}  // namespace contend::sim
