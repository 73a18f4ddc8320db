#include "core/pipeline/analyze_trace.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <new>
#include <utility>

#include "core/analysis/inputs/memory_estimate.h"
#include "core/analysis/whatif/whatif.h"
#include "core/io/load.h"
#include "core/io/memory_budget.h"

namespace contend {

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// What the load's memory budget leaves now: 0 when there is no limit, at least 1 when it is spent.
std::uint64_t headroom(const LoadOptions& load) {
    const std::uint64_t budget = effectiveMemoryBudget(load);
    if (budget == kNoMemoryLimit) return 0;
    const std::uint64_t held = residentMemoryBytes();
    return budget > held ? budget - held : 1;
}

// `stage` run with its exceptions as Failures: bad_alloc is OutOfMemory, any other Internal.
template <class T, class F>
Result<T> guarded(F&& stage) {
    try {
        return stage();
    } catch (const std::bad_alloc& e) {
        return Failure::of(Failure::Kind::OutOfMemory, e.what());
    } catch (const std::exception& e) {
        return Failure::of(Failure::Kind::Internal, e.what());
    }
}

}  // namespace

Result<Report> reportOf(const PreparedAnalysis& prepared, const Thresholds& thresholds,
                        const ReportStageOptions& options) {
    return guarded<Report>([&]() -> Result<Report> {
        auto t0 = std::chrono::steady_clock::now();
        Report report = buildReport(prepared, thresholds.coefficient, thresholds.overlapRatio);
        if (options.times) options.times->reportMs = msSince(t0);
        if (!options.whatIf) return report;
        WhatIfSettings whatIf;
        whatIf.keepGoing = options.keepGoing;
        whatIf.cache = options.cache;
        t0 = std::chrono::steady_clock::now();
        std::optional<Failure> stopped = predictGains(prepared, report, whatIf);
        if (options.times) options.times->whatIfMs = msSince(t0);
        if (stopped) return *std::move(stopped);
        return report;
    });
}

Result<Report> analyzeTrace(TracePtr trace, const PipelineOptions& o, PipelineOutputs* out) {
    PipelineOutputs local;
    PipelineOutputs& made = out ? *out : local;
    made.trace = trace;
    if (o.loaded)
        if (std::optional<Failure> stop = o.loaded(trace)) return *std::move(stop);
    AnalysisSettings settings = o.analysis;
    if (o.weighMemory) settings.memoryHeadroomBytes = headroom(o.load);
    auto t0 = std::chrono::steady_clock::now();
    Result<PreparedAnalysisPtr> prepared = guarded<PreparedAnalysisPtr>(
        [&] { return prepareAnalysis(std::move(trace), settings, o.keepGoing, o.prepareProgress); });
    made.times.prepareMs = msSince(t0);
    if (!prepared) return prepared.failure();
    made.prepared = std::move(prepared).value();
    const PreparedAnalysis& p = *made.prepared;
    made.times.prepare = p.prepareTimes();
    if (o.prepared) o.prepared(made.prepared);
    if (o.keepGoing && !o.keepGoing()) return Failure::cancelled();
    // The report weighs itself too: at a low coefficient it can be larger than the analysis.
    if (const std::uint64_t left = o.weighMemory ? headroom(o.load) : 0; left != 0) {
        const std::uint64_t need = reportBytes(p, settings.coefficient, settings.overlapRatio);
        if (need > left) {
            char k[32];
            std::snprintf(k, sizeof k, "%g", settings.coefficient);
            return Failure::of(Failure::Kind::OutOfMemory,
                               analysisMemoryMessage(std::string("the report at coefficient ") + k, need, left));
        }
    }
    if (o.keepWhatIfCache) made.whatIfCache = std::make_shared<WhatIfCache>(p.dependencyGraphPtr());
    ReportStageOptions stage;
    stage.whatIf = o.whatIf;
    stage.keepGoing = o.keepGoing;
    stage.cache = made.whatIfCache.get();
    stage.times = &made.times;
    return reportOf(p, settings.thresholds(), stage);
}

Result<Report> analyzeTrace(const std::string& path, const PipelineOptions& o, PipelineOutputs* out) {
    const auto t0 = std::chrono::steady_clock::now();
    LoadResult loaded = guarded<TracePtr>([&]() -> LoadResult { return loadTrace(path, o.load); });
    if (out) out->times.loadMs = msSince(t0);
    if (!loaded) {
        Failure f = loaded.failure();
        // An exception from the reader is about this file.
        if (f.file.empty() && (f.kind == Failure::Kind::Internal || f.kind == Failure::Kind::OutOfMemory))
            f.file = path;
        return f;
    }
    return analyzeTrace(std::move(loaded).value(), o, out);
}

}  // namespace contend
