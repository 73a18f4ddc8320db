#pragma once
// The lab's shared vocabulary: kernel kinds, the schedule's slots and what a run records. Plain
// values only; every other lab file includes this one.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lab {

// Each kind is a real loop on one CPU (kernels.h) and contends on one resource by design.
enum class Kind : std::uint8_t {
    Copy,    // STREAM copy, non-temporal stores: DRAM bandwidth
    Scale,   // STREAM scale, non-temporal stores: DRAM bandwidth
    Triad,   // STREAM triad, non-temporal stores: DRAM bandwidth
    Gather,  // random-index sum over a buffer >> LLC: DRAM bandwidth / memory-level parallelism
    L3Sum,   // sum over an L3-resident buffer: the shared L3 a streaming partner evicts
    L2Sum,   // sum over an L2-resident buffer: private L2, the "partner that fits" control
    Fma,     // in-register multiply-add chains: the control that nothing slows
    Lock,    // spinlocked read-modify-write over 16 cache lines shared by both streams
};
inline constexpr std::size_t kKinds = 8;
inline constexpr std::array<Kind, kKinds> kAllKinds = {Kind::Copy,  Kind::Scale, Kind::Triad, Kind::Gather,
                                                       Kind::L3Sum, Kind::L2Sum, Kind::Fma,   Kind::Lock};

// The resource a kind would contend on (its "character"); "none" for the in-register control.
const char* kindKey(Kind k);       // "copy", "scale", ... (stable, for the truth's tag and physics)
const char* kindResource(Kind k);  // "bandwidth", "cache", "compute", "lock"

// Why two kernels that run together slow each other, from the lab's design (not from timings).
enum class Schedule : std::uint8_t { Alone, Competing, NonCompeting };
const char* scheduleName(Schedule s);  // "alone", "competing", "non-competing"

// One launch of the schedule: a kernel on stream A and/or one on stream B, started together.
struct Slot {
    int step = 0;
    bool onA = false, onB = false;
    Kind kindA = Kind::Fma, kindB = Kind::Fma;
    Schedule schedule = Schedule::Alone;
    std::string causeA = "none", causeB = "none";  // design cause for the kernel on A / on B
};

struct Stream {
    int id;   // the trace's stream id (tid of the device track)
    int cpu;  // the CPU its worker is pinned to
};
inline constexpr std::array<Stream, 2> kStreams = {Stream{7, 0}, Stream{13, 1}};

// What the run measured for one kernel (times in ns on the trace's clock).
struct KernelRecord {
    int slot = 0;
    int step = 0;
    int streamIndex = 0;  // 0 = A, 1 = B
    Kind kind = Kind::Fma;
    std::int64_t correlation = 0;
    std::int64_t externalId = 0;
    std::int64_t cpuStart = 0, cpuEnd = 0;        // the cpu_op on the host thread
    std::int64_t launchStart = 0, launchEnd = 0;  // its cudaLaunchKernel
    std::int64_t start = 0, end = 0;              // the kernel on its worker
    std::int64_t onCpuNs = 0;                     // its worker's thread CPU time over [start, end]
    std::uint64_t dramBytes = 0;                  // the bytes it moved to/from DRAM (0 when cache-resident)
    int partner = -1;                             // index of the kernel beside it in the same slot
    Schedule schedule = Schedule::Alone;
    std::string cause = "none";
    double checksum = 0;  // the loop's result, kept so no loop is optimised away
};

struct HostEvent {  // runtime calls with no kernel (cudaDeviceSynchronize after each slot)
    std::string name;
    std::int64_t start = 0, end = 0;
    std::int64_t correlation = 0;
};

struct StepRecord {
    int index = 0;
    std::int64_t start = 0, end = 0;
    std::int64_t externalId = 0;
};

struct RunRecord {
    std::vector<KernelRecord> kernels;
    std::vector<HostEvent> syncs;
    std::vector<StepRecord> steps;
    std::int64_t hostPid = 0, hostTid = 0;
};

}  // namespace lab
