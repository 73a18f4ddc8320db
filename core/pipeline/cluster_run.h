#pragma once
// Opening a folder of ranks (docs/cluster.md): finding its rank traces, then loading and
// analysing them N at a time under the memory budget, each trace dropped as soon as its report is
// cut down to what merge keeps (a RankInput), so ranks stream through. `contend-cli cluster` and
// the app's cluster window both run this; merging is mergeRanks (core/analysis/ranks/rank_merge.h).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/analysis/ranks/rank_merge.h"
#include "core/io/load.h"

namespace contend {

// Rank traces under `dir`: the folders that are one rank by their name (isRankFolder,
// core/io/reader_table.h: Ascend's *_ascend_pt; not looked into further) and JSON files (*.json,
// *.json.gz; not our reports, truths or the files profilers write beside their traces) outside
// them, up to three levels deep, sorted by path.
std::vector<std::string> findRankTraces(const std::string& dir);

// True when `dir` is a folder of several ranks: not itself one rank's own profiler folder
// (isOwnTraceFolder, core/io/reader_table.h) and with at least two rank traces under it. The app
// opens such a folder as a cluster, any other as one trace.
bool isClusterFolder(const std::string& dir);

struct ClusterRunOptions {
    int jobs = 2;      // ranks loaded and analysed at once
    LoadOptions load;  // each load gets 1/jobs of its memory budget
    AnalysisSettings analysis;
    // Asked between read chunks and analysis stages, from the worker threads: false cancels.
    std::function<bool()> keepGoing;
    // After each rank (from a worker thread): ranks finished so far, of how many, which.
    std::function<void(std::size_t done, std::size_t total, const std::string& trace)> rankDone;
    // With each rank's full report while its trace is still held (from a worker thread): e.g.
    // write it. A non-empty return is an error that stops the run.
    std::function<std::string(const Report&, const Trace&)> onReport;
};

// The ranks, sorted by rank (trace = the trace's absolute path), or the first failure, naming
// the file (a rank's load or analysis failure keeps its kind; Cancelled when keepGoing stopped
// the run).
using ClusterRunResult = Result<std::vector<RankInput>>;

ClusterRunResult analyseRanks(const std::vector<std::string>& traces, const ClusterRunOptions& options);

// Sorts by rank and checks every input has a rank and no two share one; the error names the
// files ("a.json and b.json are both rank 3"), "" when fine.
std::string checkRanks(std::vector<RankInput>& inputs);

}  // namespace contend
