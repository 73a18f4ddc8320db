#pragma once
// The one way from a trace to its report, for every caller (contend-cli analyze, compare,
// annotate and cluster, the benches, the app's load thread and its re-thresholds):
//
//   load     loadTrace (a path; skipped for a trace already loaded)          LoadOptions
//   prepare  prepareAnalysis (everything the thresholds do not change)       AnalysisSettings
//   report   buildReport at the settings' coefficient and overlap ratio
//   what-if  predictGains: the findings' predicted gains, critical paths, slack
//
// Every stage's failure is the Result's Failure, with its kind (a load's Unreadable or
// NotATrace, a config file's Malformed, the memory budget's OutOfMemory); a cancel, from the
// load's progress or from keepGoing, is a Failure of kind Cancelled. An exception from a stage
// (bad_alloc included) becomes a Failure too (OutOfMemory, or Internal with its text), so a
// caller never sees one.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/engine.h"
#include "core/analysis/model/report.h"
#include "core/analysis/model/thresholds.h"
#include "core/common/failure.h"
#include "core/io/load_options.h"

namespace contend {

using PreparedAnalysisPtr = std::shared_ptr<const PreparedAnalysis>;

// Milliseconds each stage took (0 for one that did not run).
struct PipelineTimes {
    double loadMs = 0;
    double prepareMs = 0;
    PrepareTimes prepare;  // prepareMs by stage (engine.h)
    double reportMs = 0;   // buildReport
    double whatIfMs = 0;   // predictGains
};

struct PipelineOptions {
    // For a path: progress (its false cancels the load), memory budget, side files. Its memory
    // budget is also the one the analysis weighs itself against (weighMemory).
    LoadOptions load;
    // The config file and the thresholds (coefficient, overlapRatio) of the report.
    AnalysisSettings analysis;
    // The analysis and the first report weigh what they will allocate against what the load's
    // memory budget leaves (memory_estimate.h) and fail with OutOfMemory instead of running the
    // machine out of memory. Off where the budget is shared out otherwise (a cluster's ranks).
    bool weighMemory = true;
    // The predicted gains (whatif.h); off, the report's what-if is left empty (annotate, a
    // cluster's ranks).
    bool whatIf = true;
    // Asked between and inside the analysis' stages and between the what-if's replays: false
    // stops with a Cancelled failure. (The load is cancelled through load.progress.)
    std::function<bool()> keepGoing;
    // Told as each stage of the preparation starts (engine.h).
    PrepareProgress prepareProgress;
    // Told with the loaded trace before it is analysed (the app indexes its timeline here); a
    // Failure returned stops the pipeline with it.
    std::function<std::optional<Failure>(const TracePtr&)> loaded;
    // Told with the prepared analysis before the report is built.
    std::function<void(const PreparedAnalysisPtr&)> prepared;
    // Keep the what-if's replays in PipelineOutputs::whatIfCache, for re-thresholds of the same
    // prepared analysis (the app's slider).
    bool keepWhatIfCache = false;
};

// What the pipeline made on the way, for a caller that keeps working on it: set as each stage
// ends, so after a failure they say how far it got (trace null: the load failed).
struct PipelineOutputs {
    TracePtr trace;
    PreparedAnalysisPtr prepared;
    std::shared_ptr<WhatIfCache> whatIfCache;  // with keepWhatIfCache
    PipelineTimes times;
};

// Loads `path` and analyses it.
Result<Report> analyzeTrace(const std::string& path, const PipelineOptions& options, PipelineOutputs* out = nullptr);
// Analyses a trace already loaded (several captures pooled, a simulated run); options.load
// gives only the memory budget.
Result<Report> analyzeTrace(TracePtr trace, const PipelineOptions& options, PipelineOutputs* out = nullptr);

// The report stages alone, on an analysis already prepared (a re-threshold): buildReport at
// `thresholds`, then the what-if unless `whatIf` is false. `cache` (optional, made for this
// analysis' dependency graph) answers replays already run; `keepGoing` as above.
struct ReportStageOptions {
    bool whatIf = true;
    std::function<bool()> keepGoing;
    WhatIfCache* cache = nullptr;
    PipelineTimes* times = nullptr;  // reportMs and whatIfMs
};
Result<Report> reportOf(const PreparedAnalysis& prepared, const Thresholds& thresholds,
                        const ReportStageOptions& options = {});

}  // namespace contend
