#pragma once
// What the breakdowns compute (breakdowns.h): HTA's per-rank and per-stream figures, as plain
// values for the report (core/analysis/model/report.h, member `breakdowns`). Times are ns on the
// trace's clock, bandwidths GB/s (1e9 bytes per second). A section a trace cannot support is
// empty and says why in `notComputed` ("not computed: <why>" in the report), never a zero.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/trace/types.h"

namespace contend {

// Per rank (HTA get_temporal_breakdown): kernelNs is the span from the first device operation's
// start to the last one's end; idleNs the part of it with nothing running on any stream;
// computeNs the time some compute kernel runs; nonComputeNs the rest (copies, fills,
// communication, syncs running alone).
struct RankTemporal {
    int rank = -1;  // -1: the trace does not say
    TimeNs idleNs = 0;
    TimeNs computeNs = 0;
    TimeNs nonComputeNs = 0;
    TimeNs kernelNs = 0;
    bool operator==(const RankTemporal&) const = default;
};

// Per stream (HTA get_idle_time_breakdown): each gap before a device operation on its stream,
// as host wait (its launch call started after the previous operation ended), kernel wait (a gap
// under kKernelWaitNs) or other.
struct StreamIdle {
    int rank = -1;
    std::int32_t stream = -1;
    TimeNs hostWaitNs = 0;
    TimeNs kernelWaitNs = 0;
    TimeNs otherNs = 0;
    bool operator==(const StreamIdle&) const = default;
};

// Per rank (HTA get_comm_comp_overlap): the share of communication time (merged) during which a
// compute kernel runs, 0..1.
struct RankOverlap {
    int rank = -1;
    double fraction = 0;
    TimeNs commNs = 0;     // merged communication time
    TimeNs overlapNs = 0;  // of it, with compute running
    bool operator==(const RankOverlap&) const = default;
};

// Per stream (HTA get_queue_length_summary): the launched-but-not-started operations, one sample
// per change (a launch +1, a start -1); statistics over the samples as HTA's describe() gives
// them (quantiles interpolated linearly).
struct StreamQueue {
    int rank = -1;
    std::int32_t stream = -1;
    std::uint64_t samples = 0;
    double mean = 0;
    double p25 = 0;
    double p50 = 0;
    double p75 = 0;
    std::int64_t max = 0;
    // Time with the queue at or above kFullQueue (HTA get_time_spent_blocked_on_full_queue).
    TimeNs blockedOnFullQueueNs = 0;
    bool operator==(const StreamQueue&) const = default;
};

// Per copy kind as HTA names them ("Memcpy DtoD", "Memcpy HtoD", "Memcpy DtoH", "Memset", ...).
// HTA's figures (count, mean, p50, max) are over the samples of the summed bandwidth of the
// copies of that kind running at once, one sample per copy start or end, zero samples left out
// (get_memory_bw_summary). Contend's beside them: each copy's own bandwidth (bytes over its
// duration, or the profiler's figure), over the copies.
// Each copy's own bandwidth as a histogram on log-spaced bins (memory_bandwidth.h): bin i
// holds the copies with edges[i] <= GB/s < edges[i + 1]; a copy at 0 GB/s is in the first bin.
struct CopyHistogram {
    std::vector<double> edgesGbps;      // counts.size() + 1, ascending
    std::vector<std::uint64_t> counts;  // sums to the row's copies
    bool operator==(const CopyHistogram&) const = default;
};

struct CopyBandwidth {
    int rank = -1;
    std::string kind;
    std::uint64_t count = 0;  // HTA: samples
    double meanGbps = 0;
    double p50Gbps = 0;
    double maxGbps = 0;
    std::uint64_t copies = 0;  // Contend: per copy
    double copyP50Gbps = 0;
    double copyMaxGbps = 0;
    CopyHistogram histogram;  // the copies' own GB/s
    bool operator==(const CopyBandwidth&) const = default;
};

// Per kernel name (HTA get_cuda_kernel_launch_stats): the launch call's duration (CPU), the
// operation's (GPU) and the launch delay (operation start - launch end, clipped at 0); medians
// and 95th percentiles, ns; and how many ran shorter than their launch call.
struct KernelLaunch {
    std::string name;
    std::uint64_t runs = 0;
    double cpuP50Ns = 0;
    double cpuP95Ns = 0;
    double gpuP50Ns = 0;
    double gpuP95Ns = 0;
    double delayP50Ns = 0;
    double delayP95Ns = 0;
    std::uint64_t shorterThanLaunch = 0;
    TimeNs gpuTotalNs = 0;  // the order they are listed in, largest first
    bool operator==(const KernelLaunch&) const = default;
};

// Device time per user annotation (Kineto user_annotation, Nsight Systems NVTX range): each
// operation counted under the innermost annotation around its launch call.
struct AnnotationTime {
    std::string name;
    std::uint64_t kernels = 0;
    TimeNs kernelNs = 0;
    bool operator==(const AnnotationTime&) const = default;
};

// One section: its rows, or why the trace cannot give them.
template <typename Row>
struct BreakdownSection {
    std::vector<Row> rows;
    std::string notComputed;  // empty when computed
    bool computed() const { return notComputed.empty(); }
    bool operator==(const BreakdownSection&) const = default;
};

struct TraceBreakdowns {
    // Which device operations were counted: HTA's scope, those launched before the last
    // ProfilerStep when the trace has two or more steps, else all on a stream.
    std::string scope;
    std::uint64_t deviceOps = 0;  // device operations on a stream in the trace
    std::uint64_t inScope = 0;    // of them, counted
    BreakdownSection<RankTemporal> temporal;
    BreakdownSection<StreamIdle> idle;
    BreakdownSection<RankOverlap> commCompOverlap;
    BreakdownSection<StreamQueue> queueLength;
    BreakdownSection<CopyBandwidth> memoryBandwidth;
    BreakdownSection<KernelLaunch> launch;
    BreakdownSection<AnnotationTime> annotations;
    // Not analysed (a report read from a file written before the breakdowns).
    bool empty() const { return scope.empty(); }
    // Field for field (a slider step's report has the same: they do not depend on thresholds).
    bool operator==(const TraceBreakdowns&) const = default;

    // Each section's reason for not being computed (empty when it was), by its JSON name.
    std::array<std::pair<const char*, const std::string*>, 7> reasons() const {
        return {{{"temporal", &temporal.notComputed},
                 {"idle", &idle.notComputed},
                 {"comm_comp_overlap", &commCompOverlap.notComputed},
                 {"queue_length", &queueLength.notComputed},
                 {"memory_bandwidth", &memoryBandwidth.notComputed},
                 {"launch", &launch.notComputed},
                 {"annotations", &annotations.notComputed}}};
    }
};

}  // namespace contend
