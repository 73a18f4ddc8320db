// contend-cli compare BASE NEW / trend RUN...: each input is a trace (file or Ascend folder),
// analysed with the same settings, or a report JSON saved by `contend-cli analyze --json`.
#include "app/cli/cmd_compare.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "core/analysis/compare/compare.h"
#include "core/common/atomic_write.h"
#include "core/io/load.h"
#include "core/io/memory_budget.h"
#include "core/pipeline/analyze_trace.h"
#include "core/report/compare/compare_checks.h"
#include "core/report/compare/compare_report.h"
#include "core/report/compare/compare_summary_md.h"
#include "core/report/compare/junit_report.h"
#include "core/report/single/report_json.h"

namespace contend::cli {

namespace {

const char* kCompareHelp =
    "usage: contend-cli compare BASE NEW [options]\n"
    "\n"
    "BASE and NEW are traces (files or Ascend folders, analysed with the same settings) or report\n"
    "JSON files saved by 'contend-cli analyze --json'. Prints which anomalies, contention windows\n"
    "and sync clusters were resolved, persist or are new, how each operator changed, the\n"
    "end-to-end change, the extra wait per resource, and whether the bottleneck moved; and\n"
    "predicted vs realised: the end-to-end gain BASE's what-if predicted for what NEW resolved\n"
    "(reports from 'analyze --json', contend.report/4, /3 or /2, carry it) against the change of\n"
    "the sum of iteration times, saying so when findings were resolved but the run did not get\n"
    "faster and where the new critical path runs.\n"
    "\n"
    "options:\n"
    "  --json OUT|-             write the contend.compare/1 JSON (atomically; - for stdout)\n"
    "  --markdown OUT|-         write a Markdown summary (for a review comment)\n"
    "  --junit OUT|-            write a JUnit XML report for CI test views: one test case per\n"
    "                           check (no new anomalies, no new contention windows, end-to-end\n"
    "                           within tolerance, no extra wait added on each resource)\n"
    "  --summary-md OUT|-       write a short Markdown for a pull-request comment: verdict,\n"
    "                           counts before -> after, failed checks, the 5 biggest changes\n"
    "                           (files are written atomically; at most one output may be -)\n"
    "  --fail-on-regression     exit 1 when a check fails: new anomalies or windows beyond the\n"
    "                           allowed counts, end-to-end time grew beyond the tolerance, or the\n"
    "                           extra wait on a resource grew by more than the tolerance times\n"
    "                           BASE's end-to-end time; says why\n"
    "  --tolerance PCT          allowed end-to-end growth in percent (default 2)\n"
    "  --max-new-anomalies N    allowed new anomalies (default 0)\n"
    "  --max-new-windows N      allowed new contention windows (default 0)\n"
    "  --coefficient K          anomaly coefficient for traces, 0.1 to 50 (default 3.0)\n"
    "  --overlap R              overlap ratio threshold for traces, 0.05 to 1 (default 0.70)\n"
    "  --config FILE            counter-to-resource mapping for traces\n"
    "  --strict                 exit 4 (after writing every output) when either side's report\n"
    "                           has a truncated-input, damaged-input or stream-overlap note;\n"
    "                           a partial side is named first in the verdict either way\n"
    "Exit codes: 0 ok, 1 regression (with --fail-on-regression), 2 usage, 3 unreadable input,\n"
    "4 partial or damaged input (with --strict; a regression's 1 comes first).\n";

const char* kTrendHelp =
    "usage: contend-cli trend RUN RUN [RUN...] [--json OUT|-] [--coefficient K] [--overlap R]\n"
    "\n"
    "Each RUN is a trace or a saved report, oldest first. Prints per run the end-to-end time,\n"
    "anomalies, windows, clusters and the bottleneck share, and per operator signature its\n"
    "highest anomaly score in each run.\n";

// A trace is analysed; anything that is not a trace but is a report JSON is read as one. The
// failure keeps the load's kind where the load's failure is the answer.
Result<Report> loadRun(const std::string& path, const AnalysisSettings& settings) {
    PipelineOptions options;
    options.load = cliLoadOptions();
    options.analysis = settings;
    options.analysis.lowestCoefficient = settings.coefficient;  // one report: rows above it only
    PipelineOutputs made;
    Result<Report> analysed = analyzeTrace(path, options, &made);
    // Loaded: the analysis' answer, whatever it is.
    if (made.trace) return analysed;
    const Failure notLoaded = analysed.failure();
    // A trace too big for memory is that, not a report to try reading whole.
    if (notLoaded.kind == Failure::Kind::OutOfMemory) return notLoaded;
    // Not a trace: a saved report? Its JSON tree takes about ten times the text.
    std::error_code sizeError;
    const std::uintmax_t size =
        std::filesystem::is_regular_file(path, sizeError) ? std::filesystem::file_size(path, sizeError) : 0;
    const std::uint64_t budget = effectiveMemoryBudget(cliLoadOptions());
    if (!sizeError && budget != kNoMemoryLimit && static_cast<double>(size) * 10.0 > static_cast<double>(budget)) {
        Failure f = notLoaded;
        f.kind = Failure::Kind::OutOfMemory;
        f.reason += " (and at " + formatBytes(size) +
                    " it is too large to read as a saved report within the memory budget of " + formatBytes(budget) +
                    ")";
        return f;
    }
    std::ifstream in(path, std::ios::binary);
    if (in) {
        std::stringstream ss;
        ss << in.rdbuf();
        nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
        if (!j.is_discarded() && j.is_object() && j.contains("schema")) {
            Result<Report> rep = reportFromJson(j);
            if (rep) {
                if (rep.value().trace.path.empty()) rep.value().trace.path = path;
                return rep;
            }
            return Failure::of(Failure::Kind::Malformed, "not a usable report: " + rep.failure().reason, path);
        }
    }
    return notLoaded;
}

bool writeOut(const std::string& target, const std::string& text, const char* what) {
    if (target == "-") {
        std::cout << text;
        return true;
    }
    if (const auto failed = writeFileAtomically(target, text)) {
        std::fprintf(stderr, "contend-cli: cannot write %s %s: %s\n", what, target.c_str(), failed->message().c_str());
        return false;
    }
    return true;
}

}  // namespace

int runCompare(int argc, char** argv) {
    std::vector<std::string> inputs;
    std::string jsonOut, mdOut, junitOut, summaryOut;
    bool failOnRegression = false;
    bool strict = false;
    CompareSettings cs;
    AnalysisSettings as;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](double& out) {
            if (i + 1 >= argc || !parseNumber(argv[i + 1], out)) {
                std::fprintf(stderr, "contend-cli compare: %s needs a number\n%s", a.c_str(), kCompareHelp);
                return false;
            }
            ++i;
            return true;
        };
        double v = 0;
        if (a == "--help" || a == "-h") {
            std::fputs(kCompareHelp, stdout);
            return kExitOk;
        } else if (a == "--json" && i + 1 < argc)
            jsonOut = argv[++i];
        else if (a == "--markdown" && i + 1 < argc)
            mdOut = argv[++i];
        else if (a == "--junit" && i + 1 < argc)
            junitOut = argv[++i];
        else if (a == "--summary-md" && i + 1 < argc)
            summaryOut = argv[++i];
        else if (a == "--fail-on-regression")
            failOnRegression = true;
        else if (a == "--strict")
            strict = true;
        else if (a == "--tolerance") {
            if (!value(v)) return kExitUsage;
            cs.endToEndTolerance = v / 100.0;
        } else if (a == "--max-new-anomalies") {
            if (!value(v) || v < 0) return kExitUsage;
            cs.maxNewAnomalies = static_cast<std::size_t>(v);
        } else if (a == "--max-new-windows") {
            if (!value(v) || v < 0) return kExitUsage;
            cs.maxNewWindows = static_cast<std::size_t>(v);
        } else if (a == "--coefficient" || a == "--overlap") {
            const std::string bad = parseThresholdOption(a, i + 1 < argc ? argv[++i] : nullptr, as);
            if (!bad.empty()) {
                std::fprintf(stderr, "contend-cli compare: %s\n%s", bad.c_str(), kCompareHelp);
                return kExitUsage;
            }
        } else if (a == "--config" && i + 1 < argc)
            as.configPath = argv[++i];
        else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "contend-cli compare: unknown option '%s'\n%s", a.c_str(), kCompareHelp);
            return kExitUsage;
        } else
            inputs.push_back(a);
    }
    if (inputs.size() != 2) {
        std::fprintf(stderr, "contend-cli compare: needs BASE and NEW\n%s", kCompareHelp);
        return kExitUsage;
    }
    const int toStdout = (jsonOut == "-") + (mdOut == "-") + (junitOut == "-") + (summaryOut == "-");
    if (toStdout > 1) {
        std::fprintf(stderr, "contend-cli compare: only one output can go to stdout\n%s", kCompareHelp);
        return kExitUsage;
    }
    const auto started = std::chrono::steady_clock::now();
    auto base = loadRun(inputs[0], as);
    if (!base) {
        std::fprintf(stderr, "contend-cli: %s\n", base.failure().message().c_str());
        return kExitBadInput;
    }
    auto now = loadRun(inputs[1], as);
    if (!now) {
        std::fprintf(stderr, "contend-cli: %s\n", now.failure().message().c_str());
        return kExitBadInput;
    }
    CompareResult r = compareReports(base.value(), now.value(), cs);
    if (!jsonOut.empty() && !writeOut(jsonOut, jsonText(compareToJson(r)), "JSON")) return kExitBadInput;
    if (!mdOut.empty() && !writeOut(mdOut, compareToMarkdown(r), "Markdown")) return kExitBadInput;
    if (!junitOut.empty()) {
        JUnitOptions jo;
        jo.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const std::time_t now = std::time(nullptr);
        char stamp[32];
        std::tm tm{};
        if (::gmtime_r(&now, &tm) && std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm)) jo.timestamp = stamp;
        if (!writeOut(junitOut, compareToJUnit(r, cs, jo), "JUnit XML")) return kExitBadInput;
    }
    if (!summaryOut.empty() && !writeOut(summaryOut, compareSummaryMarkdown(r, cs), "Markdown summary"))
        return kExitBadInput;
    if (toStdout == 0) std::cout << compareToMarkdown(r);
    if (failOnRegression) {
        // The same checks as the JUnit report, so the exit code and the test view agree.
        std::vector<std::string> why;
        for (const CompareCheck& c : compareChecks(r, cs))
            if (c.outcome == CheckOutcome::Failed) why.push_back(c.message);
        if (!why.empty()) {
            std::fprintf(stderr, "REGRESSION:\n");
            for (const auto& w : why) std::fprintf(stderr, "  - %s\n", w.c_str());
            return kExitCheckFailed;
        }
        std::fprintf(stderr, "no regression\n");
    }
    if (strict) {
        for (const auto* side : {&base.value(), &now.value()})
            for (const ReportNote& n : side->notes)
                if (isStrictNote(n.kind)) {
                    std::fprintf(stderr, "contend-cli compare: --strict: %s has a %s note\n",
                                 side == &base.value() ? "BASE" : "NEW", n.kind.c_str());
                    return kExitStrict;
                }
    }
    return kExitOk;
}

int runTrend(int argc, char** argv) {
    std::vector<std::string> inputs;
    std::string jsonOut;
    AnalysisSettings as;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(kTrendHelp, stdout);
            return kExitOk;
        } else if (a == "--json" && i + 1 < argc)
            jsonOut = argv[++i];
        else if (a == "--coefficient" || a == "--overlap") {
            const std::string bad = parseThresholdOption(a, i + 1 < argc ? argv[++i] : nullptr, as);
            if (!bad.empty()) {
                std::fprintf(stderr, "contend-cli trend: %s\n%s", bad.c_str(), kTrendHelp);
                return kExitUsage;
            }
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "contend-cli trend: bad option '%s'\n%s", a.c_str(), kTrendHelp);
            return kExitUsage;
        } else
            inputs.push_back(a);
    }
    if (inputs.size() < 2) {
        std::fprintf(stderr, "contend-cli trend: needs at least two runs\n%s", kTrendHelp);
        return kExitUsage;
    }
    std::vector<Report> reports;
    for (const auto& in : inputs) {
        auto r = loadRun(in, as);
        if (!r) {
            std::fprintf(stderr, "contend-cli: %s\n", r.failure().message().c_str());
            return kExitBadInput;
        }
        reports.push_back(std::move(r).value());
    }
    Trend t = trendOf(reports);
    if (!jsonOut.empty() && !writeOut(jsonOut, jsonText(trendToJson(t)), "JSON")) return kExitBadInput;
    if (jsonOut != "-") std::cout << trendToText(t);
    return kExitOk;
}

}  // namespace contend::cli
