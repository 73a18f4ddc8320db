// contend-cli analyze: which operators were slowed by contention, by what, and what it cost.
#include "app/cli/cmd_analyze.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/commands.h"
#include "core/common/atomic_write.h"
#include "core/io/load.h"
#include "core/pipeline/analyze_trace.h"
#include "core/report/single/advice.h"
#include "core/report/single/finding_rank.h"
#include "core/report/single/report_csv.h"
#include "core/report/single/report_json.h"
#include "core/trace/pool.h"
#include "core/trace/time_format.h"

namespace contend::cli {

namespace {

const char* kHelp =
    "usage: contend-cli analyze TRACE [TRACE...] [--coefficient K] [--overlap R] [--config FILE]\n"
    "                               [--json OUT|-] [--json-schema 2|3|4] [--markdown OUT|-]\n"
    "                               [--csv DIR] [--top N]\n"
    "                               [--rank-by gain|score] [--strict] [--timings]\n"
    "\n"
    "Finds the device operators slowed by contention, names the cause (bandwidth, compute,\n"
    "cache, issue, sync, lock, queue, unknown), the contention windows and the clusters of tiny\n"
    "operators, and prints a summary with what to try.\n"
    "\n"
    "Every cause says how it is known:\n"
    "  measured   hardware counters or per-operator metrics that resolve the operator (sampled\n"
    "             finely enough for it) show the resource oversubscribed while it ran\n"
    "  estimated  inferred from the trace: the operator's runs beside a given partner are slower\n"
    "             than its runs without it (one-sided Mann-Whitney test, p shown), and what the\n"
    "             two lean on (kernel name, args, Ascend task type) names the shared resource\n"
    "  unknown    nothing in the trace supports a verdict; the reason is given\n"
    "A trace where durations do not depend on what runs beside them comes out clean; notes say\n"
    "what the capture cannot support (too few steps, steps cut by the capture, rare\n"
    "signatures, dynamic shapes, coarse or missing counters, host-only traces). A trace cut\n"
    "before its end, events the reader dropped (1% or more) and operators overlapping on one\n"
    "stream are said first (notes truncated-input, damaged-input, stream-overlap) and in the\n"
    "summary's first lines.\n"
    "  --coefficient K  anomaly threshold on the robust score, 0.1 to 50 (default 3.0; raise it\n"
    "                   for a network whose operators vary a lot)\n"
    "  --overlap R      contention window threshold on the overlap ratio, 0.05 to 1 (default 0.70)\n"
    "  --config FILE    JSON mapping of counter names to resources:\n"
    "                   {\"map\": [{\"match\": \"regex\", \"resource\": \"bandwidth\",\n"
    "                              \"kind\": \"throughput\", \"peak\": 1.6e6}]}\n"
    "  --json OUT       write the contend.report/4 JSON (\"-\": stdout, instead of the summary):\n"
    "                   findings as columns, names and evidence wording once, each slice's start\n"
    "                   and duration once (docs/report-schema.md)\n"
    "  --json-schema V  write the JSON as contend.report/V: 4 (default), 3 (the findings' own\n"
    "                   times in each table; larger) or 2 (one object per finding, every name and\n"
    "                   track repeated; several times larger), for a tool that reads only that\n"
    "                   version. Contend reads all three.\n"
    "  --markdown OUT   write a Markdown report (\"-\": stdout, instead of the summary): the\n"
    "                   top 20 findings per section, then \"... and K more: see the JSON report\n"
    "                   (FILE)\", naming the --json file when one is written\n"
    "  --top N          rows per section in the summary (default 10)\n"
    "  --rank-by R      order of the anomalies, windows and clusters in the summary and the\n"
    "                   Markdown: gain (default: the end-to-end gain the what-if predicts for\n"
    "                   fixing each, from a replay of the dependency graph; then score or extra\n"
    "                   wait) or score (anomalies by score, windows and clusters by extra wait)\n"
    "  --csv DIR        also write anomalies.csv, windows.csv, clusters.csv, operators.csv,\n"
    "                   notes.csv, patterns.csv and breakdowns.csv (HTA's breakdowns) into DIR\n"
    "                   (created if missing; RFC 4180, times in ns)\n"
    "  --strict         exit 4 (after writing every output) when a note says the input is\n"
    "                   partial or damaged: truncated-input, damaged-input or stream-overlap\n"
    "  --timings        print to stderr the wall time of each stage: the load, the preparation's\n"
    "                   stages (as the app's loading centre names them; clusters and the graph\n"
    "                   are built on a second core beside the others, their wall time is the\n"
    "                   \"beside\" line, and under it HTA's breakdowns: their scope, queue series\n"
    "                   and each section), the report, the what-if, each output written, and the\n"
    "                   total with its ratio to the load\n"
    "\n"
    "Several TRACEs are several captures of the same workload analysed together: every\n"
    "signature's baseline pools its runs from all of them (what to do when one capture has too\n"
    "few steps). Captures are laid one after another in time, so nothing of one overlaps\n"
    "another; windows and clusters stay within a capture.\n";

// Streams what `produce` writes to `target` ("-" = stdout; a file atomically). Returns false
// with a message on stderr.
bool emit(const std::string& target, const std::function<void(std::ostream&)>& produce) {
    if (target == "-") {
        std::fflush(stdout);
        produce(std::cout);
        std::cout.flush();
        return true;
    }
    if (const auto failed = writeFileAtomically(target, produce)) {
        std::fprintf(stderr, "contend-cli analyze: %s\n", failed->message().c_str());
        return false;
    }
    return true;
}

std::string gainText(TimeNs gain, std::size_t iterations) {
    if (gain < 0) return "gain not computed";
    std::string t = "gain " + formatDuration(gain);
    if (iterations > 1) t += " (" + formatDuration(gain / static_cast<TimeNs>(iterations)) + "/iteration)";
    return t;
}

void printWhatIf(const Report& r, std::size_t top) {
    const WhatIfSummary& w = r.whatIf;
    if (!w.computed) return;
    std::printf(
        "\nwhat-if (dependency graph: %llu nodes, %llu edges; %zu iterations, %s in all, critical path mostly on "
        "%s):\n",
        static_cast<unsigned long long>(w.nodes), static_cast<unsigned long long>(w.edges), w.iterations,
        formatDuration(w.totalNs).c_str(), w.criticalTrack.empty() ? "-" : w.criticalTrack.c_str());
    for (std::size_t i = 0; i < std::min(top, w.resources.size()); ++i) {
        const ResourceGain& g = w.resources[i];
        const double pct = w.totalNs > 0 ? 100.0 * static_cast<double>(g.gainNs) / static_cast<double>(w.totalNs) : 0.0;
        std::printf("  fix all %-9s (extra wait %s): predicted %s, %.1f%% of the run\n", resourceName(g.resource),
                    formatDuration(g.extraWaitNs).c_str(), gainText(g.gainNs, w.iterations).c_str(), pct);
        if (const std::string why = gainAboveWait(r, g); !why.empty()) std::printf("    (%s)\n", why.c_str());
    }
    std::printf("  %zu findings re-scheduled, %zu off the critical path (gain 0)%s\n", w.replayed, w.offPath,
                w.skipped ? (", " + std::to_string(w.skipped) + " not computed (budget)").c_str() : "");
}

void printSummary(const Report& r, TimeNs traceBegin, std::size_t top, bool byGain) {
    std::printf("trace:      %s (%s, %llu %s operators, span %s)\n", r.trace.path.c_str(), r.trace.format.c_str(),
                static_cast<unsigned long long>(r.trace.operators), r.trace.scope.c_str(),
                formatDuration(r.trace.spanNs).c_str());
    // The input's own notes come first: a verdict on a partial or damaged trace says so at once.
    for (const ReportNote& n : r.notes) {
        if (n.kind == kTruncatedInputNote) std::printf("PARTIAL:    %s\n", n.text.c_str());
        if (n.kind == kDamagedInputNote) std::printf("DAMAGED:    %s\n", n.text.c_str());
        if (n.kind == kStreamOverlapNote) std::printf("OVERLAP:    %s\n", n.text.c_str());
    }
    std::printf("settings:   coefficient %.2f, overlap ratio %.2f; %zu counter series mapped%s\n",
                r.settings.coefficient, r.settings.overlapRatio, r.trace.counters.size(),
                r.trace.counters.empty() ? " (causes are estimated, none measured)" : "");
    const TimeNs anomalyWait = r.summary.anomalyWaitNs, clusterWait = r.summary.clusterWaitNs;
    std::printf("summary:    %zu anomalies, %zu contention windows, %zu clusters\n", r.summary.anomalies,
                r.summary.windows, r.summary.clusters);
    const double opPct = r.summary.operatorTimeNs > 0
                             ? 100.0 * static_cast<double>(anomalyWait) / static_cast<double>(r.summary.operatorTimeNs)
                             : 0.0;
    std::printf("extra wait: %s in anomalies (%.1f%% of %s operator time), %s in clusters' gaps; span %s\n",
                formatDuration(anomalyWait).c_str(), opPct, formatDuration(r.summary.operatorTimeNs).c_str(),
                formatDuration(clusterWait).c_str(), formatDuration(r.summary.endToEndNs).c_str());
    if (r.summary.bottleneck != Resource::None)
        std::printf("bottleneck: %s (%.0f%% of the %s extra wait with a measured or estimated cause)\n",
                    resourceName(r.summary.bottleneck), 100.0 * r.summary.bottleneckShare,
                    formatDuration(r.summary.explainedWaitNs).c_str());
    else
        std::printf("bottleneck: none shown by the evidence\n");
    bool notesHeader = false;
    for (const ReportNote& n : r.notes) {
        if (isStrictNote(n.kind)) continue;  // printed in the first lines
        if (!notesHeader) std::printf("\nnotes:\n");
        notesHeader = true;
        std::printf("  - %s\n", n.text.c_str());
    }

    printWhatIf(r, top);
    const std::size_t iters = r.whatIf.iterations;
    if (!r.anomalies.empty()) {
        const std::vector<std::size_t> order = anomalyOrder(r, byGain ? FindingRank::Gain : FindingRank::Score, top);
        std::printf("\ntop anomalies (by %s; times since the trace start):\n", byGain ? "predicted gain" : "score");
        for (std::size_t i = 0; i < std::min(top, r.anomalies.size()); ++i) {
            const Anomaly& a = r.anomalies[order[i]];
            std::printf("  #%-4u %-40.40s %-22.22s at %s: %s vs %s baseline (+%s, score %.1f), cause %s, %s\n", a.id,
                        a.name.c_str(), a.trackLabel.c_str(), formatTimeSince(a.startNs - traceBegin).c_str(),
                        formatDuration(a.durNs).c_str(), formatDuration(a.baselineNs).c_str(),
                        formatDuration(a.excessNs).c_str(), a.score, resourceName(a.cause),
                        gainText(a.gainNs, iters).c_str());

            std::printf("         %s\n", a.evidence.c_str());
        }
        if (r.anomalies.size() > top) std::printf("  ... and %s more\n", formatCount(r.anomalies.size() - top).c_str());
    }
    if (!r.windows.empty()) {
        std::vector<std::pair<TimeNs, std::size_t>> byCost;
        for (std::size_t i : windowOrder(r, byGain ? FindingRank::Gain : FindingRank::Score, top))
            byCost.push_back({windowExtraWait(r.windows[i]), i});
        std::printf("\ntop contention windows (by %s; times since the trace start):\n",
                    byGain ? "predicted gain" : "extra wait");
        for (std::size_t k = 0; k < std::min(top, byCost.size()); ++k) {
            const ContentionWindow& w = r.windows[byCost[k].second];
            std::printf(
                "  w%-4u %-9s (%s) %s at %s, overlap ratio %.2f, peak %s, %zu operators, extra wait %s, %s\n", w.id,
                resourceName(w.resource), provenanceName(w.provenance), formatDuration(w.end - w.start).c_str(),
                formatTimeSince(w.start - traceBegin).c_str(), w.overlapRatio,
                w.fromCounters ? (std::to_string(static_cast<int>(std::lround(100 * w.peakUtilization))) + "%").c_str()
                               : "n/a",
                w.ops.size(), formatDuration(byCost[k].first).c_str(), gainText(w.gainNs, iters).c_str());
            for (std::size_t j = 0; j < std::min<std::size_t>(w.ops.size(), 4); ++j)
                std::printf("         %-40.40s tid %s  +%s\n", w.ops[j].name.c_str(), w.ops[j].tid.c_str(),
                            formatDuration(w.ops[j].extraWaitNs).c_str());
            if (!w.evidence.empty()) std::printf("         %s\n", w.evidence.c_str());
        }
        if (r.windows.size() > top) std::printf("  ... and %s more\n", formatCount(r.windows.size() - top).c_str());
    }
    if (!r.clusters.empty()) {
        const std::vector<std::size_t> order = clusterOrder(r, byGain ? FindingRank::Gain : FindingRank::Score, top);
        std::printf("\nclusters of tiny operators%s:\n", byGain ? " (by predicted gain)" : "");
        for (std::size_t i = 0; i < std::min(top, r.clusters.size()); ++i) {
            const Cluster& c = r.clusters[order[i]];
            std::printf("  c%-4u %-22.22s %u ops over %s: busy %s, waiting %s, fusing saves ~%s, end to end %s\n", c.id,
                        c.trackLabel.c_str(), c.ops, formatDuration(c.end - c.start).c_str(),
                        formatDuration(c.busyNs).c_str(), formatDuration(c.waitNs).c_str(),
                        formatDuration(c.savingNs).c_str(), gainText(c.gainNs, iters).c_str());
            std::printf("         %s\n", c.evidence.c_str());
        }
        if (r.clusters.size() > top) std::printf("  ... and %s more\n", formatCount(r.clusters.size() - top).c_str());
    }
    std::vector<const SignatureStats*> sigs;
    for (const auto& s : r.operators)
        if (s.extraWaitNs > 0) sigs.push_back(&s);
    std::stable_sort(sigs.begin(), sigs.end(), [](auto* a, auto* b) { return a->extraWaitNs > b->extraWaitNs; });
    if (!sigs.empty()) {
        std::printf("\noperators by extra wait:\n");
        for (std::size_t i = 0; i < std::min(top, sigs.size()); ++i) {
            const SignatureStats& s = *sigs[i];
            std::printf("  %-50.50s x%-6llu baseline %-9s p95 %-9s %u anomalies, +%s, mostly %s\n", s.signature.c_str(),
                        static_cast<unsigned long long>(s.count), formatDuration(s.baselineNs).c_str(),
                        formatDuration(s.p95Ns).c_str(), s.anomalies, formatDuration(s.extraWaitNs).c_str(),
                        resourceName(s.dominantCause));
        }
    }
    std::array<TimeNs, kResourceCount> cost{};
    for (std::size_t k = 0; k < r.anomalies.size(); ++k)
        cost[static_cast<std::size_t>(r.anomalies.cause(k))] += std::max<TimeNs>(1, r.anomalies.excessNs(k));
    bool header = false;
    for (std::size_t i = 0; i < kResourceCount; ++i) {
        if (cost[i] == 0 || static_cast<Resource>(i) == Resource::None) continue;
        if (!header) std::printf("\nwhat to try:\n");
        header = true;
        std::printf("  - %s\n", adviceFor(static_cast<Resource>(i)));
    }
    if (!r.clusters.empty()) {
        if (!header) std::printf("\nwhat to try:\n");
        std::printf("  - %s\n", clusterAdvice());
    }
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// --timings: each stage's wall time on stderr, in the order they ran. `outputs` are the writes
// (what, ms) after the pipeline; the load is `loadMs` (every capture, pooled).
void printTimings(double loadMs, const PipelineTimes& t, const std::vector<std::pair<std::string, double>>& outputs) {
    auto line = [](const char* indent, const std::string& what, double ms) {
        std::fprintf(stderr, "%s%-*s %10.1f\n", indent, static_cast<int>(34 - std::string(indent).size()), what.c_str(),
                     ms);
    };
    std::fprintf(stderr, "timings (wall ms):\n");
    line("  ", "load", loadMs);
    line("  ", "prepare", t.prepareMs);
    line("    ", "selecting operators", t.prepare.operatorsMs);
    for (std::size_t s = 0; s < kPrepareStages; ++s)
        line("    ", prepareStageName(static_cast<PrepareStage>(s)), t.prepare.stageMs[s]);
    line("    ", "beside (second core)", t.prepare.besideMs);
    // HTA's breakdowns run beside the chain: their total, then each part.
    const BreakdownTimes& b = t.prepare.htaBreakdowns;
    line("      ", "of which HTA breakdowns", b.totalMs());
    for (std::size_t k = 0; k < BreakdownTimes::kParts; ++k)
        line("        ", std::string("breakdowns: ") + BreakdownTimes::kNames[k], b.ms[k]);
    line("  ", "report", t.reportMs);
    line("  ", "what-if", t.whatIfMs);
    double total = loadMs + t.prepareMs + t.reportMs + t.whatIfMs;
    for (const auto& [what, ms] : outputs) {
        line("  ", what, ms);
        total += ms;
    }
    line("  ", "total", total);
    if (loadMs > 0) std::fprintf(stderr, "  total / load %27.2fx\n", total / loadMs);
}

}  // namespace

int runAnalyze(int argc, char** argv) {
    std::vector<std::string> paths;
    std::string jsonOut, markdownOut, csvDir;
    AnalysisSettings settings;
    std::size_t top = 10;
    bool rankByGain = true;
    bool strict = false;
    bool timings = false;
    ReportSchemaVersion jsonSchema = ReportSchemaVersion::V4;
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "contend-cli analyze: %s\n%s", why.c_str(), kHelp);
        return kExitUsage;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char* opt) -> const char* {
            if (i + 1 >= argc) return nullptr;
            (void)opt;
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            std::fputs(kHelp, stdout);
            return kExitOk;
        } else if (a == "--coefficient" || a == "--overlap") {
            const std::string bad = parseThresholdOption(a, value(a.c_str()), settings);
            if (!bad.empty()) return usage(bad);
        } else if (a == "--config") {
            const char* v = value("--config");
            if (!v) return usage("--config needs a file");
            settings.configPath = v;
        } else if (a == "--json") {
            const char* v = value("--json");
            if (!v) return usage("--json needs a file or -");
            jsonOut = v;
        } else if (a == "--json-schema") {
            const char* v = value("--json-schema");
            const std::string version = v ? v : "";
            if (version != "2" && version != "3" && version != "4") return usage("--json-schema needs 2, 3 or 4");
            jsonSchema = version == "2"   ? ReportSchemaVersion::V2
                         : version == "3" ? ReportSchemaVersion::V3
                                          : ReportSchemaVersion::V4;
        } else if (a == "--markdown") {
            const char* v = value("--markdown");
            if (!v) return usage("--markdown needs a file or -");
            markdownOut = v;
        } else if (a == "--csv") {
            const char* v = value("--csv");
            if (!v) return usage("--csv needs a folder");
            csvDir = v;
        } else if (a == "--strict") {
            strict = true;
        } else if (a == "--timings") {
            timings = true;
        } else if (a == "--rank-by") {
            const char* v = value("--rank-by");
            const std::string how = v ? v : "";
            if (how != "gain" && how != "score") return usage("--rank-by needs gain or score");
            rankByGain = how == "gain";
        } else if (a == "--top") {
            double n = 0;
            const char* v = value("--top");
            if (!v || !parseNumber(v, n) || n < 1) return usage("--top needs a number >= 1");
            top = static_cast<std::size_t>(n);
        } else if (!a.empty() && a[0] == '-') {
            return usage("unknown option '" + a + "'");
        } else {
            paths.push_back(a);
        }
    }
    if (paths.empty()) return usage("no TRACE given");
    if (jsonOut == "-" && markdownOut == "-") return usage("only one of --json and --markdown can write to stdout");

    const auto loadStart = std::chrono::steady_clock::now();
    std::vector<TracePtr> captures;
    for (const std::string& path : paths) {
        LoadResult lr = loadTrace(path, cliLoadOptions());
        if (!lr) {
            std::fprintf(stderr, "contend-cli: %s\n", lr.failure().message().c_str());
            return kExitBadInput;
        }
        captures.push_back(lr.value());
    }
    const TracePtr pooled = poolCaptures(captures);
    captures.clear();  // the pooled trace holds its own copy
    const double loadMs = msSince(loadStart);
    // The analysis and the report weigh what they will allocate against what the load's memory
    // budget leaves (PipelineOptions::weighMemory).
    PipelineOptions options;
    options.load = cliLoadOptions();
    options.analysis = settings;
    options.analysis.lowestCoefficient = settings.coefficient;  // one report: rows above it only
    PipelineOutputs made;
    Result<Report> analysed = analyzeTrace(pooled, options, &made);
    if (!analysed) {
        std::fprintf(stderr, "contend-cli analyze: %s\n", analysed.failure().message().c_str());
        return kExitBadInput;
    }
    Report report = std::move(analysed).value();
    if (paths.size() > 1) {
        std::string list;
        for (std::size_t i = 0; i < paths.size(); ++i) list += (i ? ", " : "") + paths[i];
        report.notes.insert(report.notes.begin(),
                            {"pooled", "Pooled " + std::to_string(paths.size()) + " captures (" + list +
                                           "): baselines pool each signature's runs from all of them; times of the "
                                           "second and later captures are moved to follow the one before, 1 s apart."});
    }
    const Trace& trace = *pooled;
    std::vector<std::pair<std::string, double>> outputs;  // --timings: each write's wall time
    auto t0 = std::chrono::steady_clock::now();
    if (!jsonOut.empty()) {
        if (!emit(jsonOut, [&](std::ostream& o) { writeReportJson(o, report, &trace, jsonSchema); }))
            return kExitBadInput;
        outputs.emplace_back("json", msSince(t0));
    }
    const FindingRank rank = rankByGain ? FindingRank::Gain : FindingRank::Score;
    t0 = std::chrono::steady_clock::now();
    if (!markdownOut.empty()) {
        if (!emit(markdownOut,
                  [&](std::ostream& o) { writeReportMarkdown(o, report, trace, rank, jsonOut == "-" ? "" : jsonOut); }))
            return kExitBadInput;
        outputs.emplace_back("markdown", msSince(t0));
    }
    t0 = std::chrono::steady_clock::now();
    if (const auto failed = csvDir.empty() ? std::nullopt : writeReportCsv(report, csvDir)) {
        std::fprintf(stderr, "contend-cli analyze: %s\n", failed->message().c_str());
        return kExitBadInput;
    }
    if (!csvDir.empty()) outputs.emplace_back("csv", msSince(t0));
    t0 = std::chrono::steady_clock::now();
    if (jsonOut != "-" && markdownOut != "-") {
        printSummary(report, trace.begin(), top, rankByGain);
        std::fflush(stdout);
        outputs.emplace_back("summary", msSince(t0));
    }
    if (timings) printTimings(loadMs, made.times, outputs);
    if (strict)
        for (const ReportNote& n : report.notes)
            if (isStrictNote(n.kind)) {
                std::fprintf(stderr, "contend-cli analyze: --strict: the report has a %s note\n", n.kind.c_str());
                return kExitStrict;
            }
    return kExitOk;
}

}  // namespace contend::cli
