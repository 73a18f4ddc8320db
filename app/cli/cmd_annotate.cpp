// contend-cli annotate: the user's trace with Contend's findings added, for their trace viewer.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/cli/commands.h"
#include "core/io/load.h"
#include "core/pipeline/analyze_trace.h"
#include "core/report/single/annotate.h"

namespace contend::cli {

namespace {

const char* kAnnotateHelp =
    "usage: contend-cli annotate TRACE --out ANNOTATED.json[.gz] [--coefficient K] [--overlap R]\n"
    "                                [--config FILE]\n"
    "\n"
    "Writes TRACE again with Contend's findings added, in the Chrome trace-event format that\n"
    "Perfetto UI, chrome://tracing and Contend read. The original events are copied byte for byte\n"
    "(same ts, dur and args); a process \"Contend findings\" is added with:\n"
    "  contention windows  slices named by resource and extra wait (args: operators, extra wait,\n"
    "                      provenance, evidence), one thread per lane so no two overlap, and a\n"
    "                      flow from each window to each of its operators\n"
    "  sync clusters       slices with their operators, gaps, saving and evidence\n"
    "  contention patterns slices over each run a pattern counts (a run in one pattern only):\n"
    "                      victim beside partner, slowdown and its CI, p-value, cost, cause,\n"
    "                      provenance, the run's excess; one thread per lane\n"
    "  anomalies           instants at each flagged operator's start (score, cause, provenance,\n"
    "                      baseline, excess, evidence)\n"
    "A .gz name writes gzip. The file is written as a temporary and renamed when complete.\n"
    "Options as for 'contend-cli analyze'. Exit codes: 0 ok, 2 usage, 3 unreadable input or\n"
    "unwritable output.\n";

}  // namespace

int runAnnotate(int argc, char** argv) {
    std::string path, out;
    AnalysisSettings settings;
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "contend-cli annotate: %s\n%s", why.c_str(), kAnnotateHelp);
        return kExitUsage;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--help" || a == "-h") {
            std::fputs(kAnnotateHelp, stdout);
            return kExitOk;
        } else if (a == "--out") {
            if (!v) return usage("--out needs a file");
            out = v;
            ++i;
        } else if (a == "--coefficient" || a == "--overlap") {
            const std::string bad = parseThresholdOption(a, v, settings);
            if (!bad.empty()) return usage(bad);
            ++i;
        } else if (a == "--config") {
            if (!v) return usage("--config needs a file");
            settings.configPath = v;
            ++i;
        } else if (!a.empty() && a[0] == '-') {
            return usage("unknown option '" + a + "'");
        } else if (path.empty()) {
            path = a;
        } else {
            return usage("more than one TRACE given");
        }
    }
    if (path.empty()) return usage("no TRACE given");
    if (out.empty()) return usage("no --out given");
    // The report without the what-if: the annotations carry the findings, not their gains.
    PipelineOptions options;
    options.load = cliLoadOptions();
    options.analysis = settings;
    options.analysis.lowestCoefficient = settings.coefficient;  // one report: rows above it only
    options.whatIf = false;
    PipelineOutputs made;
    const Result<Report> analysed = analyzeTrace(path, options, &made);
    if (!analysed) {
        std::fprintf(stderr, "contend-cli%s: %s\n", made.trace ? " annotate" : "",
                     analysed.failure().message().c_str());
        return kExitBadInput;
    }
    const Report& report = analysed.value();
    const Trace& trace = *made.trace;
    const Result<Annotated> res = writeAnnotatedTrace(trace, report, out);
    if (!res) {
        std::fprintf(stderr, "contend-cli annotate: %s\n", res.failure().message().c_str());
        return kExitBadInput;
    }
    std::fprintf(stderr,
                 "annotated %s -> %s: %llu events added (%zu anomalies, %zu windows, %zu clusters, %zu patterns)\n",
                 trace.source().path.c_str(), out.c_str(), static_cast<unsigned long long>(res->addedEvents),
                 report.anomalies.size(), report.windows.size(), report.clusters.size(), report.patterns.size());
    return kExitOk;
}

}  // namespace contend::cli
