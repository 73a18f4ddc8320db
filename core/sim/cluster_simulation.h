#pragma once
// A simulated cluster: one Kineto trace per rank of a data-parallel job (dp_workload.h), whose
// AllReduce kernels wait for the slowest rank. Contention (bandwidth) is injected on one rank,
// the slow rank, in the steps its site runs bad; the others run the good form. The ground truth
// (contend.cluster-truth/1) names the culprit rank, the iterations it delayed (it reached the
// site's AllReduce last) and the contention window on its own clock.
//
// How collectives wait: in each step, bucket by bucket, every rank's step is probed to find when
// it reaches the bucket's AllReduce (Simulator::probe); the AllReduce then ends on every rank at
// the latest arrival plus the bucket's transfer time (drawn per (seed, step), the same on every
// rank), so its kernel lasts end - own arrival: long on the ranks that waited, short on the last
// one. Every rank's steps then run for real with those durations. Rank clocks are one clock.
// Pass 1 does this for all ranks in lock step without writing; pass 2 writes one rank at a time
// (re-running it with the durations found), so only one trace file is open at a time.
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/failure.h"
#include "core/sim/model/counter_mode.h"
#include "core/sim/model/scenario.h"
#include "core/trace/types.h"

namespace contend::sim {

struct ClusterRequest {
    Scenario scenario = Scenario::Bandwidth;  // Bandwidth (a slow rank may be set) or Null
    int ranks = 8;
    int slowRank = -1;  // -1: no rank contended (the null cluster)
    std::uint64_t seed = 1;
    int iterations = 24;
    double badRate = 0.5;  // the probability a step of the slow rank runs the site bad
    std::string outDir;    // rank-NN.json(.gz) and cluster-truth.json are written here
    bool gzip = false;
    CounterMode counters = CounterMode::Full;
    TimeNs counterIntervalNs = 0;
};

struct ClusterSummary {
    std::vector<std::string> files;  // per rank, in rank order
    std::string truthPath;
    int delayedIterations = 0;
    double seconds = 0;
};

// The files written, or why not: kind Invalid for a request outside what a cluster accepts,
// Unreadable for a folder or file that cannot be written (the reason names it).
Result<ClusterSummary> runClusterSimulation(const ClusterRequest& request);

// "rank-07.json" (two digits at least; as many as the largest rank needs).
std::string rankFileName(int rank, int ranks, bool gzip);

}  // namespace contend::sim
