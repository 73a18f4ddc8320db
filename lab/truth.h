#pragma once
// The measured truth of a run: each kind's solo baseline is the median of its runs alone in the
// same run; each kernel's excess = duration / solo median - 1; the overlap with its partner is
// the intersection of their intervals. The physics table pools excess per (victim, partner).
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "lab_types.h"
#include "names.h"

namespace lab {

struct MachineInfo {
    std::string cpuModel;
    int cpus = 0;
    std::size_t l2Bytes = 0, l3Bytes = 0;
    std::string loadStart, loadEnd;  // /proc/loadavg's first three fields
    // /proc/stat's steal time of all CPUs (ms; -1 when unreadable): what the hypervisor ran
    // instead of this machine's vCPUs, at the start and the end of the run.
    double stealStartMs = -1, stealEndMs = -1;
};
MachineInfo readMachine();
std::string readLoadAvg();
double readStealMs();

// A kernel was off its CPU (its thread preempted, or its vCPU stolen) for at least this share
// of its duration: its excess is partly the host's, not its partner's.
inline constexpr double kOffCpuShare = 0.05;

struct OpTruth {
    std::int64_t soloNs = 0;  // 0 when the kind never ran alone
    double slowdown = 0;      // dur / solo - 1
    std::int64_t overlapNs = 0;
    std::int64_t offCpuNs = 0;  // dur - its thread's CPU time, clipped at 0
};

struct PhysicsRow {
    Kind victim, partner;
    Schedule schedule;
    std::string cause;
    int runs = 0;
    double median = 0, p10 = 0, p90 = 0;  // excess
    double slowed = 0;                    // share of runs > 20% slower
    double overlap = 0;                   // median overlap / duration
    double offCpu = 0;                    // share of runs off their CPU >= kOffCpuShare of it
};

struct SoloRow {
    Kind kind;
    int runs = 0;
    std::int64_t medianNs = 0;
    double p10 = 0, p90 = 0;  // excess of the solo runs against their own median
    double offCpu = 0;        // share of runs off their CPU >= kOffCpuShare of it
};

struct Truth {
    std::vector<OpTruth> ops;  // parallel to RunRecord::kernels
    std::array<std::int64_t, kKinds> soloNs{};
    std::vector<PhysicsRow> physics;
    std::vector<SoloRow> solo;
};

Truth measureTruth(const RunRecord& run);

void printPhysics(std::ostream& out, const Truth& truth);

struct TruthContext {
    std::uint64_t seed = 1;
    std::string variant;  // "pytorch" or "neutral", plus "+counters"
    NameStyle names = NameStyle::PyTorch;
    bool counters = false;
    bool quick = false;
    int steps = 0;
    std::int64_t clockOffset = 0;  // trace ns = monotonic ns + clockOffset
    MachineInfo machine;
};

// contend.truth/1 as far as it applies, with the lab's fields. Returns false on a write error.
bool writeTruth(const std::string& path, const RunRecord& run, const Truth& truth, const TruthContext& ctx);
bool writePhysics(const std::string& path, const Truth& truth, const TruthContext& ctx);

}  // namespace lab
