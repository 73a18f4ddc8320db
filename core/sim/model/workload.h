#pragma once
// What runs on the simulated device: one profiler step (iteration) at a time, as the host issues
// it. Operators are listed in host program order; each names its stream, how much work it is
// (its solo duration before jitter), what it demands of the device, and what it must wait for.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/model/device_model.h"
#include "core/trace/types.h"

namespace contend::sim {

class Rng;  // rng.h

// Launch geometry, written as Kineto kernel args. Different shapes of the same kernel name give
// different (name, grid, block) signatures, as in real traces.
struct KernelShape {
    std::array<std::int32_t, 3> grid{1, 1, 1};
    std::array<std::int32_t, 3> block{128, 1, 1};
    std::int32_t registers = 32;    // registers per thread
    std::int32_t sharedMemory = 0;  // bytes per block
};

// How an operator's work varies from step to step: the shape of its duration distribution when it
// runs alone. Every kind is drawn with +, -, *, / and sqrt only (portable bytes, see rng.h).
enum class JitterKind : std::uint8_t {
    Normal,   // work * (1 + sigma N(0,1)), N clamped at +-3 (rng.h): the default, narrow
    Uniform,  // work * U(1 - spread, 1 + spread): wide, flat
    Pareto,   // work * min(cap, 1 / sqrt(U)): Pareto alpha 2 from `work` up, median 1.41x
    Bimodal,  // work * (secondMode with probability secondShare, else 1) * (1 + sigma N(0,1))
};

// Parameters of the kinds other than Normal (relative factors, no unit).
struct JitterShape {
    double spread = 0.5;        // Uniform: half-width
    double cap = 8.0;           // Pareto: largest factor, so no draw is absurd
    double secondMode = 1.6;    // Bimodal: factor of the second (data-dependent) mode
    double secondShare = 0.25;  // Bimodal: probability of the second mode
};

struct OpSpec {
    std::string name;    // kernel name, e.g. "conv2d_3x3_fwd"
    std::string hostOp;  // the framework op that launched it, e.g. "aten::conv2d"
    std::int32_t stream = 7;
    TimeNs workNs = 0;          // solo duration before jitter, ns
    double jitterSigma = 0.02;  // relative standard deviation of the work (Normal, Bimodal)
    JitterKind jitterKind = JitterKind::Normal;
    JitterShape jitterShape;
    OpDemand demand;
    std::int32_t lock = -1;  // index into Iteration::locks, -1 when it takes no lock
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

// The jittered work of one launch of `op`, ns (at least 1), drawn from `rng` by its JitterKind.
// Normal consumes exactly what the simulator always drew, so traces from before the other kinds
// keep their bytes.
TimeNs drawWorkNs(const OpSpec& op, Rng& rng);

// Checks an iteration against the rules above (indices, demands <= 1, positive work). Returns
// an empty string when it is valid, else the first problem found.
std::string validate(const Iteration& it, const std::vector<StreamInfo>& streams);

}  // namespace contend::sim
