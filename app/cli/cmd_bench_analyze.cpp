// contend-cli bench-analyze: how long the analysis takes next to loading, as numbers.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/cmd_analyze.h"
#include "app/cli/commands.h"
#include "core/analysis/breakdowns/breakdowns.h"
#include "core/pipeline/analyze_trace.h"

namespace contend::cli {

namespace {

const char* kHelp =
    "usage: contend-cli bench-analyze TRACE [--repeat N]\n"
    "\n"
    "Runs the analysis pipeline on TRACE N times: load, prepare the analysis (baselines,\n"
    "pressures, causes, candidate windows, clusters, dependency graph), the report and the\n"
    "what-if (predicted gains) at the defaults; then re-thresholds it (buildReport) at several\n"
    "coefficient/overlap values, each N times (at least 5), and prints the median times\n"
    "(re-thresholds: wall, and this thread's CPU time, which other processes on a shared machine\n"
    "do not inflate). Ends with one line\n"
    "  prepare_ms=X rethreshold_ms=Y load_ms=Z operators=N cancel_gap_ms=G depgraph_ms=D whatif_ms=W\n"
    "where rethreshold_ms is the slowest of the medians over the values tried and cancel_gap_ms\n"
    "the longest stretch of the preparation between two checks for a cancel (the app's Cancel\n"
    "button waits at most that long), depgraph_ms the dependency graph's part of the preparation\n"
    "and whatif_ms the replays. Before it, each part of HTA's breakdowns (core/analysis/breakdowns;\n"
    "part of prepare: the scope, the queue series, each section; medians of N runs, at least 3)\n"
    "beside the analysis' time (prepare + what-if), and breakdowns_ms their sum; then the app's\n"
    "breakdowns over a range selected on the timeline, over the middle 10% of the trace and over\n"
    "all of it (medians of at least 5), beside the basis they share (computed once per trace).\n";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// This thread's CPU time, ms: on a shared machine the wall time of a step also counts the
// time other processes held the core.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Each part of the breakdowns on `trace` (computeBreakdowns as the analysis runs it, `repeat`
// times, medians per part) beside the analysis' time; then the app's range breakdowns (from the
// trace's basis, computed once) over the middle 10% of the trace and over all of it. Returns the
// sum of the parts' medians, ms.
double printBreakdownTimes(const Trace& trace, double analysisMs, int repeat) {
    using Clock = std::chrono::steady_clock;
    std::array<std::vector<double>, BreakdownTimes::kParts> parts;
    TraceBreakdowns whole;
    for (int r = 0; r < repeat; ++r) {
        BreakdownTimes times;
        std::vector<breakdowns::QueueSeries> series;
        whole = computeBreakdowns(trace, series, &times);
        for (std::size_t p = 0; p < parts.size(); ++p) parts[p].push_back(times.ms[p]);
    }
    double total = 0;
    std::string line;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const double ms = medianOf(parts[p]);
        total += ms;
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s%s %.1f ms (%.2f%%)", line.empty() ? "" : ", ", BreakdownTimes::kNames[p], ms,
                      analysisMs > 0 ? 100.0 * ms / analysisMs : 0.0);
        line += buf;
    }
    std::printf("breakdowns:  %s (median of %d); %llu of %llu device operations in scope\n", line.c_str(), repeat,
                static_cast<unsigned long long>(whole.inScope), static_cast<unsigned long long>(whole.deviceOps));
    std::printf("breakdowns:  %.1f ms in all, %.2f%% of the analysis (prepare + what-if, %.1f ms)\n", total,
                analysisMs > 0 ? 100.0 * total / analysisMs : 0.0, analysisMs);
    // The app's Breakdowns tab over a range selected on the timeline: the basis once per trace,
    // then each range from it.
    auto t0 = Clock::now();
    const BreakdownBasis basis = breakdownBasis(trace);
    const double basisMs = msSince(t0);
    const TimeNs span = trace.end() - trace.begin();
    for (const double share : {0.1, 1.0}) {
        breakdowns::TimeRange range;
        range.begin = trace.begin() + static_cast<TimeNs>(static_cast<double>(span) * (0.5 - share / 2));
        range.end = range.begin + static_cast<TimeNs>(static_cast<double>(span) * share);
        std::vector<double> ms;
        TraceBreakdowns b;
        for (int r = 0; r < std::max(repeat, 5); ++r) {
            t0 = Clock::now();
            b = computeBreakdowns(trace, basis, range);
            ms.push_back(msSince(t0));
        }
        std::printf(
            "breakdowns:  over a range of %.0f%% of the trace (the app's): %.1f ms (median of %d), %llu operations; "
            "the basis (scope, queue series) once per trace %.1f ms\n",
            share * 100, medianOf(ms), std::max(repeat, 5), static_cast<unsigned long long>(b.inScope), basisMs);
    }
    return total;
}

}  // namespace

int runBenchAnalyze(int argc, char** argv) {
    std::string path;
    int repeat = 3;
    if (int rc = parseBenchArgs(argc, argv, kHelp, path, repeat); rc >= 0) return rc;
    // Each repeat runs the whole pipeline (core/pipeline/analyze_trace.h), which times its
    // stages; the last run's trace and prepared analysis are kept for the re-thresholds.
    std::vector<double> loads, prepares, whatIfs;
    PipelineOutputs made;
    Report report;
    double gapMs = 0;
    for (int r = 0; r < repeat; ++r) {
        made = {};  // one run's trace and analysis in memory at a time
        bool preparing = false;
        auto last = std::chrono::steady_clock::now();
        // The app's Cancel is honoured at these checks: the longest stretch between two of them
        // during the preparation is the longest a cancel can wait during the analysis.
        auto check = [&] {
            const auto now = std::chrono::steady_clock::now();
            if (preparing) gapMs = std::max(gapMs, std::chrono::duration<double, std::milli>(now - last).count());
            last = now;
        };
        PipelineOptions options;
        options.load = cliLoadOptions();
        options.weighMemory = false;
        options.keepGoing = [&] {
            check();
            return true;
        };
        options.loaded = [&](const TracePtr&) -> std::optional<Failure> {
            preparing = true;
            last = std::chrono::steady_clock::now();
            return std::nullopt;
        };
        options.prepared = [&](const PreparedAnalysisPtr&) {
            check();
            preparing = false;
        };
        Result<Report> result = analyzeTrace(path, options, &made);
        if (!result) {
            std::fprintf(stderr, "contend-cli: %s\n", result.failure().message().c_str());
            return kExitBadInput;
        }
        report = std::move(result).value();
        loads.push_back(made.times.loadMs);
        prepares.push_back(made.times.prepareMs);
        whatIfs.push_back(made.times.whatIfMs);
    }
    const TracePtr& trace = made.trace;
    const std::shared_ptr<const PreparedAnalysis>& prepared = made.prepared;
    std::printf("load:        %.1f ms (median of %d), %zu slices, %zu counter series\n", medianOf(loads), repeat,
                trace->slices().size(), trace->counters().size());
    const std::size_t ops = prepared->operators().size();
    const double prepMs = medianOf(prepares);
    std::printf(
        "prepare:     %.1f ms (median of %d), %zu operators, %zu signatures, %zu overlap pairs, %zu window candidates"
        " -> %.2f M operators/s\n",
        prepMs, repeat, ops, prepared->operators().signatures.size(), prepared->overlaps().pairCount(),
        prepared->windowCandidates().size(), prepMs > 0 ? static_cast<double>(ops) / prepMs / 1000.0 : 0.0);
    std::printf("prepare:     longest stretch between cancel checks %.1f ms\n", gapMs);
    const std::pair<double, double> settings[] = {{2.0, 0.5},  {3.0, 0.7}, {4.0, 0.8}, {6.0, 0.9},
                                                  {20.0, 0.7}, {3.0, 0.3}, {0.5, 0.7}, {0.5, 0.3}};
    double worst = 0;
    for (const auto& [k, ratio] : settings) {
        std::vector<double> times, cpu;
        Report rethresholded;
        ReportStageOptions stage;
        stage.whatIf = false;
        for (int r = 0; r < std::max(repeat, 5); ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            const double c0 = threadCpuMs();
            rethresholded = std::move(reportOf(*prepared, {k, ratio}, stage)).value();
            cpu.push_back(threadCpuMs() - c0);
            times.push_back(msSince(t0));
        }
        const double m = medianOf(times);
        worst = std::max(worst, m);
        std::printf(
            "rethreshold: coefficient %.1f overlap %.2f: %.2f ms (cpu %.2f ms) -> %zu anomalies, %zu windows, %zu "
            "clusters\n",
            k, ratio, m, medianOf(cpu), rethresholded.anomalies.size(), rethresholded.windows.size(),
            rethresholded.clusters.size());
    }
    // The what-if at the default thresholds: the graph is built in prepare (its share shown),
    // the replays after the re-threshold.
    const DependencyGraph& g = prepared->dependencyGraph();
    const double whatIfMs = medianOf(whatIfs);
    std::printf("depgraph:    %.1f ms of prepare, %zu nodes, %zu edges, %zu iterations\n", g.seconds * 1000.0, g.size(),
                g.edgeCount(), g.iterations.size());
    std::printf(
        "what-if:     %.1f ms (median of %d): %zu findings re-scheduled, %zu off the critical path, %zu not computed\n",
        whatIfMs, repeat, report.whatIf.replayed, report.whatIf.offPath, report.whatIf.skipped);
    const double breakdownsMs = printBreakdownTimes(*trace, prepMs + whatIfMs, std::max(repeat, 3));
    std::printf(
        "prepare_ms=%.1f rethreshold_ms=%.2f load_ms=%.1f operators=%zu cancel_gap_ms=%.1f depgraph_ms=%.1f "
        "whatif_ms=%.1f breakdowns_ms=%.1f\n",
        prepMs, worst, medianOf(loads), ops, gapMs, g.seconds * 1000.0, whatIfMs, breakdownsMs);
    return kExitOk;
}

}  // namespace contend::cli
