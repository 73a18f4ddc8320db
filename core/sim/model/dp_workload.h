#pragma once
// The cluster simulation's workload: one data-parallel training step per profiler step, the same
// on every rank. Stream 7 runs forward (gemm + element-wise per layer) and backward in
// kBuckets gradient buckets (dgrad and wgrad gemms, a layer-norm backward and a grad cast per
// layer); after each bucket an NCCL AllReduce on stream 24 (the comm stream) reduces it while
// the next bucket computes; the optimizer waits for the last AllReduce. Stream 13 runs one
// augmentation kernel for the next batch (bandwidth-heavy, 0.85 of peak DRAM).
//
// The contention site (bandwidth): in its bad form the augmentation kernel is released right as
// bucket kSiteBucket's layer-norm backward (0.85 of peak) starts, so both get about half the
// bandwidth and run ~1.7x slower, and that bucket reaches its AllReduce late. In its good form
// it runs beside the forward layers (gemms and GELUs at 0.12 of peak: 0.97 fits). The AllReduce kernels demand
// nothing of the device here (their time is the wait for peers plus a fixed transfer), so they
// never slow a neighbour. Work and demands are fixed; durations vary by 2% jitter per launch.
#include <cstdint>
#include <vector>

#include "core/sim/model/workload.h"

namespace contend::sim {

class DataParallelWorkload {
  public:
    static constexpr std::int32_t kComputeStream = 7;
    static constexpr std::int32_t kAuxStream = 13;
    static constexpr std::int32_t kCommStream = 24;
    static constexpr int kBuckets = 4;
    static constexpr int kSiteBucket = 2;  // the bucket whose AllReduce the bad form delays
    static constexpr const char* kAllReduceName =
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";

    static const std::vector<StreamInfo>& streams();

    // One step. `bad`: the contention site runs its bad form. `allReduceWorkNs`: the kBuckets
    // AllReduce kernels' work (their durations, ns: the cluster runner sets them so each ends
    // when the slowest rank has arrived plus the transfer); empty: a nominal 1 us each.
    Iteration build(int step, bool bad, const std::vector<TimeNs>& allReduceWorkNs) const;

    // Indices into Iteration::ops of the step built with the same `bad`: the AllReduce of each
    // bucket, and the two kernels of the site (augmentation, layer-norm backward of kSiteBucket).
    struct Layout {
        std::vector<std::uint32_t> allReduce;
        std::uint32_t augment = 0;
        std::uint32_t siteNorm = 0;
        std::uint32_t siteCast = 0;
    };
    static Layout layout(bool bad);
};

}  // namespace contend::sim
