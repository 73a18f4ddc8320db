#pragma once
// The analysis result: plain values, no pointers into windows, serialisable to the
// "contend.report/3" JSON contract (core/report). Produced by the analysis engine from an
// immutable Trace plus AnalysisSettings; read by contend-cli, the widgets and compare.
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/model/anomaly.h"
#include "core/analysis/model/anomaly_list.h"
#include "core/analysis/model/thresholds.h"
#include "core/analysis/model/window_list.h"
#include "core/common/shared_vector.h"
#include "core/common/version.h"
#include "core/trace/types.h"

namespace contend {

struct AnalysisSettings {
    double coefficient = Thresholds::kDefaultCoefficient;    // anomaly threshold on the score
    double overlapRatio = Thresholds::kDefaultOverlapRatio;  // window threshold on overlap / shorter busy time
    Thresholds thresholds() const { return {coefficient, overlapRatio}; }
    std::string configPath;  // optional counter-to-resource mapping file (JSON)
    // Bytes the analysis may still allocate (the memory budget less what the process holds);
    // 0 = no limit. Not written to reports.
    std::uint64_t memoryHeadroomBytes = 0;
    // The lowest coefficient the prepared analysis will be reported at: anomaly rows are made
    // only for the operators scored above it (a caller that reports once, at its own
    // coefficient: contend-cli; at 10M Kineto kernels the rows of every operator slower than
    // its baseline were 650 MB). Unset, every such operator gets a row, for the slider. Not
    // written to reports.
    double lowestCoefficient = -std::numeric_limits<double>::infinity();
};

struct Cluster {
    std::uint32_t id = 0;
    std::uint32_t track = 0;
    std::uint32_t firstSlice = 0;  // slices [firstSlice, lastSlice] on the track (device order)
    std::uint32_t lastSlice = 0;
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint32_t ops = 0;
    TimeNs busyNs = 0;
    TimeNs waitNs = 0;    // gaps: barriers, launch overhead
    TimeNs savingNs = 0;  // estimated saving of fusing the run into one operator
    // Measured when host sync calls (cudaStreamSynchronize, ...) or device wait tasks
    // fill its gaps (a barrier is seen); unknown when the trace cannot say why the device
    // waited (launch overhead, host work, or a barrier it did not record). Only measured
    // clusters count as sync in the bottleneck.
    Provenance provenance = Provenance::Unknown;
    std::uint32_t syncGaps = 0;  // gaps with a sync call or wait task in them
    std::string evidence;
    // Slice-independent copies (see Anomaly).
    std::string pid;
    std::string tid;
    std::string trackLabel;
    TimeNs gainNs = -1;  // since report/2: predicted end-to-end gain of fusing it
};

// One run of a contention pattern (patterns.h).
struct PatternRun {
    std::uint32_t slice = 0;
    // Its row in the prepared analysis's anomaly list (engine.h; kNone: it is never an anomaly,
    // or the report was read from a file): an anomaly at a report's coefficient when the row is
    // below the pattern's flaggedRows (ContentionPattern::flagged). Not written to files.
    std::uint32_t row = kNone;
    TimeNs startNs = 0;  // the slice's start and duration (slice-independent copies)
    TimeNs durNs = 0;
    TimeNs excessNs = 0;          // its share of the slowdown: dur x s / (1 + s) (pattern_excess.h; patterns.h)
    bool counted = false;         // its excess counts in this pattern's countedCostNs (a run counts in one)
    std::uint32_t track = kNone;  // the slice's track (kNone when not known); not written to files
};

// A contention pattern (findings/patterns.h): a signature's runs beside a partner (a signature,
// a kind of operator, a counter) against its runs apart, with the slowdown, its confidence, its
// cost and its cause. Reported whether or not any single run is an anomaly.
struct ContentionPattern {
    std::uint32_t id = 0;
    std::uint32_t signature = 0;  // the victim: index into Report::operators
    std::string victim;           // the victim signature's kernel name
    std::string partner;          // the partner's kernel name, or a kind ("memory-bound", "counter: dram")
    std::string factor;           // "partner", "character", "serialised", "counter"
    std::uint32_t runsBeside = 0;
    std::uint32_t runsApart = 0;
    double slowdown = 0;     // Hodges-Lehmann ratio beside / apart, less 1
    double slowdownLow = 0;  // its 95% confidence interval
    double slowdownHigh = 0;
    double pValue = 1;         // one-sided Mann-Whitney, FDR-adjusted (Benjamini-Hochberg) over every factor tested
    TimeNs costNs = 0;         // sum over the runs beside of their excess (the pattern's systematic cost)
    TimeNs countedCostNs = 0;  // the same over the runs counted here (none counted twice)
    // Of countedCostNs, the runs that are not anomalies at the report's coefficient: what the
    // summary adds to the anomalies' extra wait (threshold-dependent; summarise fills it).
    TimeNs unflaggedCostNs = 0;
    Resource cause = Resource::Unknown;
    Provenance provenance = Provenance::Unknown;
    std::string evidence;
    std::uint32_t concurrency = 0;  // k: operators running at once (the run and its partners)
    double lostShare = -1;          // median extra time over overlapped time; -1 when not judged
    // The runs beside, in trace order. Shared by the reports built from one prepared analysis
    // (shared_vector.h): a slider step copies no run.
    SharedVector<PatternRun> runs;
    // The runs apart the statistics used (patterns.h: alone, else the reference sample, else
    // the rest), their slices in trace order; runsApart of them. Not written to files: a
    // report read back has none.
    SharedVector<std::uint32_t> apartSlices;
    // The runs whose row (PatternRun::row) is below this are anomalies at the report's
    // coefficient (buildReport sets it to the anomaly count; 0 in a report read from a file).
    std::uint32_t flaggedRows = 0;
    bool flagged(const PatternRun& run) const { return run.row < flaggedRows; }
};

struct SignatureStats {
    std::uint32_t id = 0;
    std::string signature;  // name plus shape/grid when present
    std::string name;
    std::string opType;  // coarse type for the per-type view: "conv", "matmul", ...
    std::uint64_t count = 0;
    TimeNs totalNs = 0;
    TimeNs baselineNs = 0;
    TimeNs p50Ns = 0;
    TimeNs p95Ns = 0;
    TimeNs maxNs = 0;
    double meanNs = 0;
    std::uint32_t anomalies = 0;
    TimeNs extraWaitNs = 0;
    Resource dominantCause = Resource::None;
    // Baseline from the runs exposed to none of the partners the data shows slow it (rule
    // "contrast"); false when every run is the reference or it is not judged.
    bool baselineFromSolo = false;
    std::string baselineRule;  // baselineRuleName(), "" in older reports
    Breakdown breakdown;       // sum over occurrences
};

// The per-operator-type view ("matmul", "conv", "memcpy", ...), summed over signatures.
struct TypeStats {
    std::string type;
    std::uint64_t count = 0;
    TimeNs totalNs = 0;
    std::uint32_t anomalies = 0;
    TimeNs extraWaitNs = 0;
    Resource dominantCause = Resource::None;
};

// The per-thread (per-track) view of the fine level.
struct TrackStats {
    std::uint32_t track = 0;
    std::string pid;
    std::string tid;
    std::string label;
    std::uint64_t operators = 0;
    TimeNs busyNs = 0;
    std::uint32_t anomalies = 0;
    TimeNs extraWaitNs = 0;
};

struct IterationStats {
    std::uint32_t index = 0;  // N of ProfilerStep#N (or order)
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint32_t anomalies = 0;
    TimeNs extraWaitNs = 0;
    bool cut = false;  // the capture cut it (notes.h); its runs are out of the baselines
    // Since report/2 (depgraph.h): the iteration's time in the dependency graph (its critical
    // path: the latest end of its nodes less the one before, ns; -1 when not computed) and the
    // track holding most of that path.
    TimeNs criticalPathNs = -1;
    std::string criticalTrack;
};

struct ReportSummary {
    TimeNs endToEndNs = 0;
    std::size_t anomalies = 0;
    std::size_t windows = 0;
    std::size_t clusters = 0;
    TimeNs extraWaitNs = 0;
    Resource bottleneck = Resource::None;
    double bottleneckShare = 0;  // bottleneck's share of the evidence-backed extra wait, 0..1
    // The device (or host) time the extra wait was measured on: the sum of the analysed
    // operators' durations, ns. Extra wait is a part of it, never of the end-to-end span.
    TimeNs operatorTimeNs = 0;
    // Extra wait whose cause is measured or estimated (the bottleneck share's whole).
    TimeNs explainedWaitNs = 0;
    // ExtraWaitNs split: the anomalies' excess (a part of operatorTimeNs) and the
    // clusters' estimated saving (gaps between operators, outside their time).
    TimeNs anomalyWaitNs = 0;
    TimeNs clusterWaitNs = 0;
    // The patterns' cost of runs that are not anomalies (patterns.h: each run counted once;
    // an anomaly's excess is already in anomalyWaitNs).
    TimeNs patternWaitNs = 0;
    std::array<TimeNs, kResourceCount> extraWaitByResource{};
};

struct ReportTraceInfo {
    std::string path;
    std::string format;
    std::uint64_t events = 0;
    std::uint64_t operators = 0;
    std::uint64_t tracks = 0;
    TimeNs spanNs = 0;
    std::vector<std::string> counters;  // counter series labels that were mapped to resources
    // "device" (device operators analysed, the default) or "host" (the trace has no
    // device operators, so host slices were analysed instead).
    std::string scope = "device";
};

// What the data can and cannot support, said once per kind (a one-step capture, steps cut
// by the capture, signatures seen too few times, dynamic shapes, counters too coarse, a host-only
// trace...). `kind` is a stable key for tools; `text` is for people.
struct ReportNote {
    std::string kind;
    std::string text;
};

// The notes on the input itself (analysis/findings/input_notes.h), first in a report's notes:
//   truncated-input  the file was cut before its end: the report rests on what was kept
//   damaged-input    the reader dropped events (or kept them without names) beyond a threshold
//   stream-overlap   device operators at once on one stream (duplicates, clock trouble)
inline constexpr const char* kTruncatedInputNote = "truncated-input";
inline constexpr const char* kDamagedInputNote = "damaged-input";
inline constexpr const char* kStreamOverlapNote = "stream-overlap";
// A partial input: the verdicts rest on part of what was captured (truncated-input,
// damaged-input). `cluster` and `merge` mark such a rank; `compare` names such a side.
bool isPartialInputNote(std::string_view kind);
// What `analyze --strict` and `compare --strict` fail on: a partial input or a stream overlap.
bool isStrictNote(std::string_view kind);
// The first note of `notes` that says the input is partial, or nullptr.
const ReportNote* partialInputNote(const std::vector<ReportNote>& notes);

// Since report/2 (whatif.h): the what-if over the dependency graph. Gains are end to end over
// the whole run (the sum of the iteration times), ns; per iteration is that over the iterations.
struct ResourceGain {
    Resource resource = Resource::None;
    TimeNs extraWaitNs = 0;  // all the extra wait it caused (summary.extraWaitByResource)
    TimeNs gainNs = 0;       // predicted gain of removing all of it at once
};
struct WhatIfSummary {
    bool computed = false;
    TimeNs totalNs = 0;  // the graph's span: the sum of the iteration times
    std::size_t iterations = 0;
    std::uint64_t nodes = 0, edges = 0;
    std::string criticalTrack;            // the track holding most of the critical path, all iterations
    TimeNs criticalDeviceNs = 0;          // device time on the critical paths
    std::size_t replayed = 0;             // findings re-scheduled
    std::size_t offPath = 0;              // findings whose operators all had slack: gain 0 without a replay
    std::size_t skipped = 0;              // findings left at -1 when the replay budget ran out
    std::vector<ResourceGain> resources;  // by gain, largest first
    TimeNs allGainNs = -1;                // every anomaly at its baseline and every cluster fused, at once
};

// One rank of a distributed job, for `contend-cli merge` (collectives.h). Collectives are
// in start order; `name` indexes collectiveNames.
struct CollectiveRun {
    std::uint32_t iteration = 0;  // IterationStats::index of the step it ran in
    std::uint32_t name = 0;
    TimeNs startNs = 0;  // on the trace's own clock
    TimeNs durNs = 0;
};

struct ReportDistributed {
    int rank = -1;      // -1: the trace does not say
    int worldSize = 0;  // 0: unknown
    std::vector<std::string> collectiveNames;
    std::vector<CollectiveRun> collectives;
    bool empty() const { return rank < 0 && collectives.empty(); }
};

struct Report {
    ReportTraceInfo trace;
    std::vector<ReportNote> notes;
    AnalysisSettings settings;
    ReportSummary summary;
    AnomalyList anomalies;  // sorted by score, highest first (anomaly_list.h)
    WindowList windows;     // in start order (window_list.h)
    std::vector<Cluster> clusters;
    std::vector<ContentionPattern> patterns;  // by cost, largest first (findings/patterns.h)
    std::vector<SignatureStats> operators;
    std::vector<IterationStats> iterations;
    std::vector<TypeStats> types;     // per operator type, by extra wait then time
    std::vector<TrackStats> threads;  // per track that holds analysed operators
    WhatIfSummary whatIf;             // since report/2
    ReportDistributed distributed;    // rank and collectives (empty for one process)
    TraceBreakdowns breakdowns;       // HTA's breakdowns (analysis/breakdowns/breakdowns.h)
    // Who wrote it, for a report read from a file (reportFromJson); not known for one built here
    // or written before 0.7.0. A report written again records the build writing it instead.
    Producer producer;
};

}  // namespace contend
