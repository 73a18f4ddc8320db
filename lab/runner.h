#pragma once
// Runs a schedule: two worker threads pinned to CPUs 0 and 1 are the streams A and B; the
// calling thread plays the framework (ProfilerStep#N, cpu_op, cudaLaunchKernel, a synchronize
// after each slot). The kernels of a slot start together: both workers, once woken, spin on a
// shared arrival count until both have arrived, then read the clock and run.
#include <cstdint>
#include <vector>

#include "kernels.h"
#include "lab_types.h"

namespace lab {

struct RunnerOptions {
    KernelSizes sizes;
    std::uint64_t seed = 1;
    int warmupRounds = 2;  // untraced launches of every kind on both streams before the run
};

// Throws std::runtime_error when a worker cannot be pinned or allocated.
RunRecord runSchedule(const std::vector<Slot>& slots, const RunnerOptions& options);

}  // namespace lab
