#pragma once
// Clusters of tiny operators: runs of short operators on one track whose gaps (sync barriers,
// launch overhead) add up to more than their busy time, so the device mostly waits.
//
// Rule. On each track, operators no longer than maxOpNs form runs; a run ends at a longer
// operator or at a gap longer than maxGapNs (idle time, not overhead: the host was doing
// something else). Wait tasks (EVENT_WAIT_SQE, Notify Wait) inside a run count as gap. A run
// of at least minOps operators is a cluster when waitNs (the sum of the gaps between its
// operators) > busyNs (the sum of their durations). A tightly packed run (gaps shorter than the
// operators, or at most one timer tick) is not a cluster: fusing it would save little.
// Saving of fusing the run into one operator: the gaps it removes, less the one launch gap
// the fused operator still pays (the median gap): savingNs = waitNs - median gap.
#include <cstdint>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/analysis/model/report.h"

namespace contend {

struct SyncClusterSettings {
    TimeNs maxOpNs = 50'000;    // "tiny": at most 50 us
    TimeNs maxGapNs = 100'000;  // a gap over 100 us is idle time (not a barrier or a launch)
    std::uint32_t minOps = 4;
    // Timer resolution, ns: a gap no longer than one tick is no evidence of a barrier (traces
    // in whole microseconds show 1 us gaps between back-to-back kernels).
    TimeNs resolutionNs = 1;
};

// Clusters in start order (track, then time), ids from 0; slice-independent fields are left for
// the engine.
std::vector<Cluster> findClusters(const Trace& trace, const OperatorSet& ops, const SyncClusterSettings& settings = {});

// Says how each cluster is known: measured when sync calls on a host thread (cudaStreamSynchronize,
// cudaDeviceSynchronize, cudaEventSynchronize, cudaStreamWaitEvent, aclrtSynchronize...) or
// device wait tasks overlap at least half of its gaps (a barrier is seen in them); unknown
// otherwise (the device waited, but the trace does not say for what: launch overhead, host work,
// or a barrier it did not record). Fills provenance, syncGaps and evidence.
void judgeClusterEvidence(const Trace& trace, const OperatorSet& ops, std::vector<Cluster>& clusters);

}  // namespace contend
