#pragma once
// The cluster merge: per-rank reports (contend.report/1 with "distributed") folded into one view
// of the job, without any trace. Pure functions over small values: a rank's report is cut down to
// a RankInput (its steps, its collectives, its findings) as soon as it is read, so merging N
// reports holds N RankInputs, not N reports.
//
// The rules (docs/cluster.md):
//  - Collectives are matched across ranks per step by name and order: the k-th collective of a
//    name (Ascend's hcom_allReduce__271_0_1 counts as hcom_allReduce) in step i on every rank
//    that has it. A collective's kernel ends when its slowest peer has arrived, so the rank that
//    arrived last has the shortest kernel; rank r waited dur_r - min dur (clock-free).
//    late_by: the second-shortest minus the shortest, how much later than the next rank it came.
//  - Step time per rank and step is the step's span; compute time is the span less the rank's
//    waits in that step's matched collectives (a synchronised step hides the straggler in its
//    span, and shows it in what the others waited).
//  - A collective is held up when its last rank came later than the next-latest by more than
//    k * 1.4826 * MAD of the other ranks' waits (their spread of arrivals) and by more than
//    minExcess of the step's median compute (k = 5, minExcess = 1% by default; 3 ranks at least).
//  - Slow ranks, per step: compute > median + k * 1.4826 * max(MAD, minExcess * median) over the
//    ranks that have the step (3 at least), or the rank held up one of the step's collectives.
//    The compute test alone is blunt (every rank's compute carries the noise of all its waits);
//    the collective test sees one arrival against the others'. The msprof-analyze spread
//    (max - min) / mean of compute is reported for every step.
//  - A held-up collective's cause is the late rank's finding (a contention window, else an
//    anomaly) between the step's start and the collective's start with the most extra wait
//    (a delay early in the step carries to every later collective): "rank 5 arrived 103 us late
//    at AllReduce #2 in step 3 because its layer_norm kernel was slowed by a bandwidth window
//    there".
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/model/report.h"

namespace contend {

struct RankFinding {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    Resource resource = Resource::Unknown;
    Provenance provenance = Provenance::Unknown;
    std::string op;  // the operator that paid most (window) or the anomaly's name
    TimeNs extraWaitNs = 0;
    bool window = false;  // a contention window (else an anomaly outside any window)
};

// Why a rank's breakdowns are absent from the cluster report: each section the cluster report
// carries (temporal, comm_comp_overlap, idle, queue_length, by their JSON names) that the rank's
// report did not compute, with its reason as that report gives it.
struct RankNotComputed {
    int rank = -1;
    std::vector<std::pair<std::string, std::string>> sections;  // (section, why), in that order
    // The reason for `section`, or nullptr when it was computed.
    const std::string* why(const std::string& section) const;
};

// The sections a cluster report carries of each rank's breakdowns, by their JSON names.
inline constexpr const char* kRankBreakdownSections[] = {"temporal", "comm_comp_overlap", "idle", "queue_length"};

struct RankInput {
    int rank = -1;
    std::string source;  // the report (or trace) it came from
    std::string trace;   // the rank's trace as its report names it (report.trace.path); may be empty
    std::vector<IterationStats> iterations;
    ReportDistributed distributed;
    std::vector<RankFinding> findings;
    // The report's note that its input was partial (a truncated-input or damaged-input note,
    // report.h), or empty for a whole one: merge marks the rank and says the verdict rests on it.
    std::string partial;
    // HTA's per-rank breakdowns of its report (core/analysis/breakdowns), its rank set to `rank`.
    std::vector<RankTemporal> temporal;
    std::vector<RankOverlap> commCompOverlap;
    // Its per-stream idle time and queue length rows, as its report has them (rank set as above);
    // empty when its report did not compute them.
    std::vector<StreamIdle> idle;
    std::vector<StreamQueue> queueLength;
    // Of those sections, the ones its report did not compute, with why (RankNotComputed::sections).
    std::vector<std::pair<std::string, std::string>> notComputed;
};

// Keeps of a report what merge reads. `rankOverride` >= 0 replaces the report's rank.
RankInput rankInputFromReport(const Report& report, std::string source, int rankOverride = -1);

struct RankMergeSettings {
    double k = 5.0;           // robust spreads beyond the median
    double minExcess = 0.01;  // and at least this share of the median
};

struct RankStep {
    int rank = 0;
    TimeNs stepNs = 0;
    TimeNs waitNs = 0;
    TimeNs computeNs = 0;
    bool slowCompute = false;  // its compute time failed the step's test
    bool slow = false;         // that, or it held up a collective of the step
};

struct ClusterIteration {
    std::uint32_t index = 0;
    std::vector<RankStep> ranks;  // by rank
    TimeNs medianComputeNs = 0;
    TimeNs madComputeNs = 0;
    TimeNs thresholdNs = 0;  // 0 when fewer than 3 ranks (no test)
    double spread = 0;       // (max - min) / mean of compute
};

struct CollectiveCause {
    RankFinding finding;
    std::string text;
};

struct ClusterCollective {
    std::uint32_t iteration = 0;
    std::string name;           // as the late rank's report writes it
    std::string key;            // the name matched on
    std::uint32_t ordinal = 0;  // k-th of its key in the step
    std::uint32_t ranks = 0;    // ranks that ran it
    int lateRank = -1;
    TimeNs lateByNs = 0;
    TimeNs maxWaitNs = 0;
    TimeNs meanWaitNs = 0;
    TimeNs lateStartNs = 0;  // the late rank's kernel start, on its clock
    TimeNs spreadNs = 0;     // 1.4826 x MAD of the other ranks' waits (0 under 3 ranks)
    bool heldUp = false;
    bool hasCause = false;
    CollectiveCause cause;
};

struct SlowRank {
    int rank = 0;
    std::vector<std::uint32_t> iterations;
    TimeNs excessNs = 0;  // sum over those steps of compute - median
};

struct ClusterNote {
    std::string kind;
    std::string text;
};

struct ClusterReport {
    RankMergeSettings settings;
    std::vector<int> ranks;
    std::vector<std::string> sources;
    std::vector<std::string> traces;  // per rank, its trace ("" when unknown: an older report)
    // Per rank, the note saying its input was partial (RankInput::partial), "" for a whole one;
    // a partial rank also gets a "partial-rank" note, first among the notes.
    std::vector<std::string> partial;
    std::vector<std::size_t> collectivesPerRank;
    std::vector<ClusterIteration> iterations;
    std::vector<ClusterCollective> collectives;
    std::vector<SlowRank> slowRanks;
    std::vector<ClusterNote> notes;
    // HTA's temporal breakdown and communication/computation overlap per rank, for the ranks
    // whose reports have them, in rank order.
    std::vector<RankTemporal> temporal;
    std::vector<RankOverlap> commCompOverlap;
    // HTA's idle time and queue length per stream, every rank's report rows as they are (the rank
    // numbered as merged), in rank order then the report's stream order; a rank whose report did
    // not compute them (or a cluster report written before them) has none.
    std::vector<StreamIdle> idle;
    std::vector<StreamQueue> queueLength;
    // Per rank whose report did not compute one of those sections, why (rank order); none in a
    // cluster report written before it (a rank without rows then does not say why).
    std::vector<RankNotComputed> breakdownsNotComputed;
    // Who wrote it, for a report read from a file (clusterFromJson); not known for one merged here
    // or written before 0.7.0. clusterToJson records the build writing it instead.
    Producer producer;
};

// Ranks must be distinct; the caller numbers ranks that lack one. Order does not matter.
ClusterReport mergeRanks(std::vector<RankInput> ranks, const RankMergeSettings& settings = {});

// The name collectives are matched on: Ascend's "hcom_allReduce__271_0_1" -> "hcom_allReduce".
std::string collectiveKey(const std::string& name);

}  // namespace contend
