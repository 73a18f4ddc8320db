#pragma once
// What the simulator says happened in one profiler step: when each operator was launched,
// started and ended, how long it would have taken alone, and why it was slower; the sync
// clusters and lock waits; and the device counters sampled over time. The trace writer and the
// ground-truth writer both read this; nothing here is recomputed from the written trace.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/trace/types.h"

namespace contend::sim {

enum class Cause : std::uint8_t { None, Bandwidth, Compute, Cache, Sync, Lock };
// "none", "bandwidth", "compute", "cache", "sync", "lock": the words of the ground truth.
inline std::string_view causeName(Cause c) {
    switch (c) {
    case Cause::None: return "none";
    case Cause::Bandwidth: return "bandwidth";
    case Cause::Compute: return "compute";
    case Cause::Cache: return "cache";
    case Cause::Sync: return "sync";
    case Cause::Lock: return "lock";
    }
    return "none";
}

// Where an operator's time beyond its solo duration went, ns (indices of OpRecord::loss).
enum LossKind : std::uint8_t { kLossBandwidth, kLossCompute, kLossCache, kLossLock, kLossKinds };

inline constexpr TimeNs kNoTime = kTimeMin;

struct OpRecord {
    // Host side: the framework op (cpu_op) and the launch call inside it.
    TimeNs cpuStart = 0;
    TimeNs cpuDur = 0;
    TimeNs launchStart = 0;
    TimeNs launchDur = 0;
    std::int64_t correlation = 0;  // of the launch; the kernel and the flow carry it too
    std::int64_t externalId = 0;   // of the cpu_op
    // A cudaStreamSynchronize before the launch (barrier operators only).
    TimeNs syncStart = kNoTime;
    TimeNs syncDur = 0;
    std::int64_t syncCorrelation = -1;

    // Device side.
    TimeNs arrival = 0;  // the launch reached its stream (earliest possible start)
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs workNs = 0;     // jittered work, ns at solo speed
    TimeNs soloNs = 0;     // its duration alone on the device
    TimeNs barrierNs = 0;  // stream idle time its barrier cost (0 without one)
    TimeNs lockWaitStart = kNoTime;
    TimeNs lockWaitNs = 0;                  // spinning inside the kernel for a lock someone else held
    std::int32_t lockHolder = -1;           // op index (in the step) holding the lock when it began waiting
    std::array<double, kLossKinds> loss{};  // ns lost to each cause while it ran
    double hitNsSum = 0;                    // integral of its hit rate over its running time (hit * ns)
    TimeNs runningNs = 0;                   // time actually progressing (not spinning)
    Cause cause = Cause::None;

    TimeNs dur() const { return end - start; }
    double hitRate() const { return runningNs > 0 ? hitNsSum / static_cast<double>(runningNs) : 0; }
};

// The four counter tracks, in the order they are written.
enum class Series : std::uint8_t { Bandwidth, Compute, HitRate, Issue };
inline constexpr int kSeriesCount = 4;

struct CounterSample {
    TimeNs t = 0;
    Series series = Series::Bandwidth;
    std::int16_t tenths = 0;  // value in tenths of a percent, 0..1000 (integer: exact output)
    std::int16_t exact = 0;   // the model's value before measurement noise, tenths (what the
                              // period mode averages; never written to the trace)
};

// A run of consecutive barrier operators on one stream.
struct SyncCluster {
    std::int32_t stream = 0;
    TimeNs start = 0;           // when the first barrier began (first op start - its barrier)
    TimeNs end = 0;             // end of the last operator
    std::uint32_t firstOp = 0;  // op index in the step
    std::uint32_t ops = 0;
    TimeNs busyNs = 0;     // sum of the operators' durations
    TimeNs barrierNs = 0;  // sum of their barriers
};

struct LockWait {
    std::uint32_t op = 0;      // the waiter, op index in the step
    std::uint32_t holder = 0;  // who held the lock when it began waiting
    std::int32_t lock = 0;     // index into Iteration::locks
    TimeNs start = 0;
    TimeNs waitNs = 0;
};

struct IterationResult {
    int index = 0;
    TimeNs stepStart = 0;  // ProfilerStep#N begins (host)
    TimeNs stepEnd = 0;    // the closing device sync returned
    std::int64_t stepExternalId = 0;
    TimeNs deviceSyncStart = 0;
    TimeNs deviceSyncDur = 0;
    std::int64_t deviceSyncCorrelation = 0;
    std::vector<OpRecord> ops;           // parallel to Iteration::ops
    std::vector<CounterSample> samples;  // in time order
    std::vector<SyncCluster> clusters;
    std::vector<LockWait> lockWaits;
};

}  // namespace contend::sim
