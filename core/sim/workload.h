#pragma once
// What runs on the simulated device: one profiler step (iteration) at a time, as the host issues
// it. Operators are listed in host program order; each names its stream, how much work it is
// (its solo duration before jitter), what it demands of the device, and what it must wait for.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/device_model.h"
#include "core/trace/types.h"

namespace contend::sim {

// Launch geometry, written as Kineto kernel args. Different shapes of the same kernel name give
// different (name, grid, block) signatures, as in real traces.
struct KernelShape {
    std::array<std::int32_t, 3> grid{1, 1, 1};
    std::array<std::int32_t, 3> block{128, 1, 1};
    std::int32_t registers = 32;     // registers per thread
    std::int32_t sharedMemory = 0;   // bytes per block
};

struct OpSpec {
    std::string name;    // kernel name, e.g. "conv2d_3x3_fwd"
    std::string hostOp;  // the framework op that launched it, e.g. "aten::conv2d"
    std::int32_t stream = 7;
    TimeNs workNs = 0;         // solo duration before jitter, ns
    double jitterSigma = 0.02; // relative standard deviation of the work
    OpDemand demand;
    std::int32_t lock = -1;    // index into Iteration::locks, -1 when it takes no lock
    // A sync barrier in front: the host synchronises the stream before launching it, and the
    // stream stays idle DeviceConfig::barrierNs after the previous operator ends.
    bool barrier = false;
    // Operators earlier in this iteration that must finish before it starts (an event wait
    // across streams). Indices into Iteration::ops, each smaller than this operator's own.
    std::vector<std::uint32_t> after;
    KernelShape shape;
    // Why the scenario put it there, copied to the ground truth: "" for plain network ops,
    // "injected:<kind>" for the contention a scenario plants, "fixed:<kind>" for its remedy,
    // "control:<kind>" for operators that must not be flagged.
    std::string tag;
};

struct Iteration {
    int index = 0;
    std::vector<OpSpec> ops;
    std::vector<std::string> locks;  // lock names, e.g. "cu_group_3.accum_lock"
};

// A device stream as written in the trace (tid and thread_name).
struct StreamInfo {
    std::int32_t id = 7;
    std::string label;  // what it carries, for READMEs and the truth: "main", "preprocess", ...
};

// Checks an iteration against the rules above (indices, demands <= 1, positive work). Returns
// an empty string when it is valid, else the first problem found.
std::string validate(const Iteration& it, const std::vector<StreamInfo>& streams);

}  // namespace contend::sim
