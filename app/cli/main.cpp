// contend-cli: headless entry point. Dispatches to one subcommand per file; links core/ only.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app/cli/cmd_analyze.h"
#include "app/cli/cmd_compare.h"
#include "app/cli/cmd_simulate.h"
#include "app/cli/commands.h"
#include "core/common/version.h"
#include "core/io/memory_budget.h"
#include "core/io/reader_table.h"

namespace {

// The formats and the ranks of a cluster come from the format table (core/io/reader_table.h).
std::string usageText() {
    return "usage: contend-cli <command> [options]\n"
           "\n"
           "Finds operator contention in AI-model profiling traces. A TRACE is a file or folder in one\n"
           "of these formats (JSON plain or gzip):\n" +
           contend::formatLines() +
           "\n"
           "commands:\n"
           "  info TRACE [--json]      what the trace holds: format (and for a database the GPUs or\n"
           "                           NPUs, exporter or schema version, which export of a folder was\n"
           "                           read), events per phase or table, operators, tracks,\n"
           "                           counter series, flows, time span, import warnings\n"
           "  analyze TRACE [TRACE...] [--coefficient K] [--overlap R] [--config FILE] [--json OUT|-]\n"
           "                [--markdown OUT] [--csv DIR]\n"
           "                           operators slowed by contention: anomalies with causes (measured,\n"
           "                           estimated or unknown, with the evidence), contention windows,\n"
           "                           clusters of tiny operators, notes, and what to try; several\n"
           "                           TRACEs are captures of one workload analysed together\n"
           "  annotate TRACE --out FILE  TRACE again with the findings added as a \"Contend findings\"\n"
           "                           process, for Perfetto UI / chrome://tracing\n"
           "  compare BASE NEW ...     what a change did: anomalies/windows/clusters resolved, persisting\n"
           "                           and new, operator changes, bottleneck shift; --fail-on-regression,\n"
           "                           --junit FILE and --summary-md FILE for CI (docs/ci.md)\n"
           "  trend RUN RUN [RUN...]   anomaly scores and bottleneck share over several runs\n"
           "  simulate SCENARIO ...    write a simulated contended trace with its ground truth\n"
           "                           (--ranks N --slow-rank R --out DIR: a cluster, one per rank)\n"
           "  merge REPORT... --out CLUSTER.json\n"
           "                           per-rank analyze --json reports folded into a cluster report:\n"
           "                           step and compute time per rank, slow ranks, the late rank of\n"
           "                           each collective and the finding on it that explains it\n"
           "  cluster DIR --out CLUSTER.json [--jobs N]\n"
           "                           analyse each rank trace of a folder, N at a time, then merge\n"
           "  bench-load TRACE [--repeat N] [--cancel]\n"
           "                           load a trace N times and print throughput (MB/s, operators/s), model size and\n"
           "                           peak RSS; --cancel also measures how fast a cancelled load stops\n"
           "  bench-analyze TRACE [--repeat N]\n"
           "                           time the analysis (prepare, re-threshold, longest wait for a\n"
           "                           cancel) next to loading\n"
           "  bench-memory [--mib N]   what new memory costs this machine to touch (MB/s): cold, after an\n"
           "                           idle spell (a VM's host takes freed memory back), and warm\n"
           "\n"
           "global option (any command that reads a trace):\n"
           "  --max-memory SIZE        most memory a load may use (\"8G\", \"512M\"; 0 for no limit).\n"
           "                           Default: CONTEND_MAX_MEMORY if set, else three quarters of the\n"
           "                           memory available (MemAvailable, or the container's limit). A\n"
           "                           bigger trace stops with a message.\n"
           "\n"
           "Run 'contend-cli <command> --help' for the options of a command; 'contend-cli --version'\n"
           "prints the version and the git commit this build is of.\n"
           "Exit codes: 0 ok, 1 check failed, 2 usage error, 3 unreadable or invalid input,\n"
           "4 partial or damaged input under --strict (analyze, compare).\n";
}

}  // namespace

namespace contend::cli {
double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

bool parseNumber(const char* s, double& out) {
    errno = 0;
    char* end = nullptr;
    out = std::strtod(s, &end);
    return errno == 0 && end != s && *end == '\0' && std::isfinite(out);
}

std::string parseThresholdOption(const std::string& option, const char* value, AnalysisSettings& settings) {
    const bool coefficient = option == "--coefficient";
    double v = 0;
    if (value && parseNumber(value, v) &&
        (coefficient ? Thresholds::coefficientInRange(v) : Thresholds::overlapRatioInRange(v))) {
        (coefficient ? settings.coefficient : settings.overlapRatio) = v;
        return {};
    }
    std::string message = coefficient ? coefficientRangeText(option) : overlapRatioRangeText(option);
    if (value) message += std::string(" (got '") + value + "')";
    return message;
}

LoadOptions& cliLoadOptions() {
    static LoadOptions options;
    return options;
}
}  // namespace contend::cli

int main(int argc, char** argv) {
    using namespace contend::cli;
    // Take the global options off the command line, wherever they are.
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        std::string value;
        if (a == "--max-memory") {
            if (i + 1 >= argc) {
                std::fputs("contend-cli: --max-memory needs a size (\"8G\", \"512M\", 0 for no limit)\n", stderr);
                return kExitUsage;
            }
            value = argv[++i];
        } else if (a.rfind("--max-memory=", 0) == 0) {
            value = a.substr(13);
        } else {
            argv[kept++] = argv[i];
            continue;
        }
        auto bytes = contend::parseMemorySize(value);
        if (!bytes) {
            std::fprintf(stderr, "contend-cli: --max-memory '%s' is not a size (\"8G\", \"512M\", 0 for no limit)\n",
                         value.c_str());
            return kExitUsage;
        }
        cliLoadOptions().memoryLimitBytes = *bytes;
    }
    argc = kept;
    argv[argc] = nullptr;
    if (argc < 2) {
        std::fputs(usageText().c_str(), stderr);
        return kExitUsage;
    }
    std::string cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::fputs(usageText().c_str(), stdout);
        return kExitOk;
    }
    if (cmd == "--version") {
        std::printf("contend-cli %s\n", contend::versionLine().c_str());
        return kExitOk;
    }
    if (cmd == "info") return runInfo(argc - 1, argv + 1);
    if (cmd == "analyze") return runAnalyze(argc - 1, argv + 1);
    if (cmd == "compare") return runCompare(argc - 1, argv + 1);
    if (cmd == "annotate") return runAnnotate(argc - 1, argv + 1);
    if (cmd == "trend") return runTrend(argc - 1, argv + 1);
    if (cmd == "simulate") return runSimulate(argc - 1, argv + 1);
    if (cmd == "merge") return runMerge(argc - 1, argv + 1);
    if (cmd == "cluster") return runCluster(argc - 1, argv + 1);
    if (cmd == "bench-load") return runBenchLoad(argc - 1, argv + 1);
    if (cmd == "bench-analyze") return runBenchAnalyze(argc - 1, argv + 1);
    if (cmd == "bench-memory") return runBenchMemory(argc - 1, argv + 1);
    std::fprintf(stderr, "contend-cli: unknown command '%s'\n\n%s", cmd.c_str(), usageText().c_str());
    return kExitUsage;
}
