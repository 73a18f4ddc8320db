#pragma once
// Compare two analysis reports (before / after a fix): which anomalies, windows and clusters were
// resolved, which persist, which are new; how each operator signature changed; how end-to-end time
// and the extra wait per resource moved, and whether the bottleneck shifted to another resource.
// A pure function of two Reports, so it works on fresh analyses and on saved report JSON alike.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/breakdowns/figures.h"
#include "core/analysis/model/report.h"

namespace contend {

struct CompareSettings {
    double operatorTolerance = 0.05;  // mean duration change below this is "=" (relative)
    double endToEndTolerance = 0.02;  // end-to-end growth beyond this is a regression (relative)
    std::size_t maxNewAnomalies = 0;  // more new anomalies than this is a regression
    std::size_t maxNewWindows = 0;    // more new contention windows than this is a regression
};

// Where an item sits in its run: which iteration (0-based position among the run's iterations,
// -1 when the trace has none) and the offset from that iteration's start (or the trace's).
struct RunPlace {
    int iteration = -1;
    TimeNs offsetNs = 0;
};

struct AnomalyDiff {
    std::string signature;
    std::string name;
    RunPlace place;
    bool inBase = false, inNew = false;
    Anomaly base;            // valid when inBase
    Anomaly now;             // valid when inNew
    double scoreChange = 0;  // now.score - base.score for persisting ones
};

struct WindowDiff {
    Resource resource = Resource::Unknown;
    std::string ops;  // operator names joined with " + ", sorted
    RunPlace place;
    bool inBase = false, inNew = false;
    ContentionWindow base, now;
};

struct ClusterDiff {
    std::string tid;
    RunPlace place;
    bool inBase = false, inNew = false;
    Cluster base, now;
};

// A contention pattern (findings/patterns.h) matched by its victim and partner. Each side carries
// the pattern with its costliest run only (its slice is that run's trace's own), where a viewer
// shows the pattern.
struct PatternDiff {
    std::string victim;
    std::string partner;
    bool inBase = false, inNew = false;
    ContentionPattern base, now;
};

enum class OpChange { Faster, Slower, Same, New, Gone };
const char* opChangeSymbol(OpChange c);  // "-", "+", "=", "new", "gone"

struct OperatorDiff {
    std::string signature;
    std::string name;
    OpChange change = OpChange::Same;
    double meanChange = 0;  // relative change of the mean duration (now/base - 1)
    bool inBase = false, inNew = false;
    SignatureStats base, now;
};

template <typename T>
struct Partition {
    std::vector<T> resolved;    // only in base
    std::vector<T> persisting;  // in both
    std::vector<T> added;       // only in new
};

// The bottleneck is weighed by its extra wait, not only by its share: a resource with 100% of
// a 70 us remainder is not where the time goes. The new run's bottleneck counts when its extra
// wait is at least kBottleneckFloor of the base's extra wait (and 1 us); below that the base's
// bottleneck went away and nothing took its place.
struct BottleneckShift {
    static constexpr double kBottleneckFloor = 0.1;
    Resource baseResource = Resource::None;
    double baseShare = 0;
    TimeNs baseWaitNs = 0;  // the base bottleneck's extra wait (summary.extraWaitByResource)
    Resource newResource = Resource::None;
    double newShare = 0;
    TimeNs newWaitNs = 0;   // the new run's bottleneck's extra wait
    TimeNs floorNs = 0;     // what the new bottleneck's extra wait must reach to count
    bool shifted = false;   // moved to another resource that counts
    bool wentAway = false;  // the base had one; the new run has none that counts
    std::string text;       // "bandwidth 2.1 ms (64%) -> compute 400 us (51%)"
};

// What the base's what-if predicted for the findings the new run resolved, against what
// happened end to end (whatif.h). For each resource: its whole-resource gain in the base times
// the share of its extra wait that was resolved (resolved anomalies' excess; sync also resolved
// clusters' saving), so findings of one resource are not summed past their joint gain.
// Realised: the base's total (sum of the iteration times) less the new one's; end to end when a
// report has no what-if (report/1).
struct GainCheck {
    bool available = false;  // the base carries the what-if
    TimeNs predictedNs = 0;
    TimeNs realisedNs = 0;  // > 0: the new run is faster
    TimeNs baseTotalNs = 0, newTotalNs = 0;
    // Per iteration: the totals over each run's iteration count (the what-if's, else the
    // report's iterations; at least 1). Realised per iteration is the fall of the mean
    // iteration time, which is realisedNs / iterations when both runs have as many.
    std::size_t baseIterations = 1, newIterations = 1;
    TimeNs predictedPerIterationNs = 0;
    TimeNs realisedPerIterationNs = 0;
    std::array<TimeNs, kResourceCount> predictedByResource{};
    std::size_t resolvedWindows = 0, resolvedClusters = 0, resolvedAnomalies = 0;
    std::string newCriticalTrack;  // where the new run's critical path runs mostly
    bool notFaster = false;        // findings resolved, the run not faster (<= kNotFasterShare)
    std::string text;              // plain words
};
inline constexpr double kNotFasterShare = 0.001;  // of the base total

struct CompareResult {
    TimeNs baseEndToEnd = 0, newEndToEnd = 0;
    double endToEndChange = 0;  // relative: new/base - 1
    TimeNs baseExtraWait = 0, newExtraWait = 0;
    std::array<TimeNs, kResourceCount> baseByResource{}, newByResource{};
    BottleneckShift bottleneck;
    std::string verdict;  // plain words
    GainCheck gain;       // predicted vs realised
    Partition<AnomalyDiff> anomalies;
    Partition<WindowDiff> windows;
    Partition<ClusterDiff> clusters;
    Partition<PatternDiff> patterns;          // resolved: the cost beside that partner went away
    std::vector<OperatorDiff> operators;      // by |change in total time|, largest first
    std::vector<BreakdownChange> breakdowns;  // HTA's breakdowns, per figure (breakdowns/figures.h)
    std::string basePath, newPath;
    // Which side rests on a partial input: that side's truncated-input or damaged-input note
    // ("kind: text", report.h), "" for a whole one. The verdict starts by saying so.
    std::string basePartial, newPartial;
};

CompareResult compareReports(const Report& base, const Report& now, const CompareSettings& settings = {});

// Reasons the new run regressed under the settings (empty when it did not).
std::vector<std::string> regressions(const CompareResult& r, const CompareSettings& settings);

// Trend over several runs in order: per run the headline numbers, and per signature its highest
// anomaly score in each run (NaN where it had no anomaly or did not run).
struct TrendRun {
    std::string path;
    TimeNs endToEndNs = 0;
    std::size_t anomalies = 0, windows = 0, clusters = 0;
    TimeNs extraWaitNs = 0;
    Resource bottleneck = Resource::None;
    double bottleneckShare = 0;
};
struct TrendSeries {
    std::string signature;
    std::vector<double> maxScore;  // one per run
};
struct Trend {
    std::vector<TrendRun> runs;
    std::vector<TrendSeries> signatures;  // signatures anomalous in at least one run
};
Trend trendOf(const std::vector<Report>& reports);

}  // namespace contend
