// contend-cli merge and cluster: per-rank reports folded into a cluster report
// (core/analysis/ranks/rank_merge.h); cluster also finds and analyses the ranks of a folder.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "core/common/atomic_write.h"
#include "core/io/load.h"
#include "core/io/reader_table.h"
#include "core/pipeline/cluster_run.h"
#include "core/report/ranks/cluster_report.h"
#include "core/report/single/report_json.h"

namespace contend::cli {

namespace fs = std::filesystem;

namespace {

// The rank words come from the format table (core/io/reader_table.h).
std::string mergeHelp() {
    return "usage: contend-cli merge REPORT [REPORT...] --out CLUSTER.json [--markdown FILE|-] [--k K]\n"
           "                         [--min-excess F]\n"
           "\n"
           "Folds per-rank reports (contend-cli analyze --json of each rank's trace) into a cluster\n"
           "report (contend.cluster/1): per step and rank the step time, the wait in collectives and\n"
           "the compute time (step less wait) and the (max-min)/mean spread of compute; per collective\n"
           "(matched across ranks by name and order in each step) the rank that arrived last (the\n"
           "shortest kernel: the others wait in theirs), by how much, and how long the others waited.\n"
           "A collective is held up when its last rank came later than the next one by more than\n"
           "K x 1.4826 x the MAD of the others' waits and F x the step's median compute (K 5, F 0.01\n"
           "by default); its cause is the finding of the late rank's own report in the step before it\n"
           "with the most extra wait. A rank is slow in a step when it held up a collective there or\n"
           "its compute exceeds the median by K x 1.4826 x max(MAD, F x median).\n"
           "Reads the reports only, one at a time: no trace.\n"
           "Each report must carry its rank (distributed.rank, from the trace's " +
           rankFromWords() +
           ");\n"
           "ranks must be distinct.\n"
           "Exit codes: 0 ok, 2 usage error, 3 unreadable or invalid report.\n";
}

std::string clusterHelp() {
    return "usage: contend-cli cluster DIR [--jobs N] [--reports DIR] --out CLUSTER.json\n"
           "                           [--markdown FILE|-] [--k K] [--min-excess F]\n"
           "\n"
           "Opens a folder of per-rank traces, searched three levels deep:\n"
           "  " +
           rankLayoutWords("\n  ") +
           "\n"
           "Each rank is loaded and analysed on its own, N at a time (--jobs, default 2), each\n"
           "load under 1/N of the memory budget (--max-memory), and dropped once its report is\n"
           "built, so ranks stream through; then the reports are merged as by 'contend-cli merge'.\n"
           "--reports DIR also writes each rank's report there (rank-R.report.json). A trace without a\n"
           "rank, or two traces of one rank, is an error naming them.\n"
           "Exit codes: 0 ok, 2 usage error, 3 unreadable or invalid input.\n";
}

int usage(const char* cmd, const std::string& message) {
    std::fprintf(stderr, "contend-cli %s: %s\n(see 'contend-cli %s --help')\n", cmd, message.c_str(), cmd);
    return kExitUsage;
}

struct Outputs {
    std::string json;
    std::string markdown;
    RankMergeSettings settings;
};

// Parses the options merge and cluster share; returns -1 when `arg` was one (i advanced), 0
// when it was not, else an exit code.
int sharedOption(const char* cmd, int argc, char** argv, int& i, Outputs& o) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    double x = 0;
    if (a == "--out" || a == "-o") {
        const char* v = value();
        if (!v || !*v) return usage(cmd, "--out needs a file name");
        o.json = v;
    } else if (a == "--markdown") {
        const char* v = value();
        if (!v || !*v) return usage(cmd, "--markdown needs a file name (or '-')");
        o.markdown = v;
    } else if (a == "--k") {
        const char* v = value();
        if (!v || !parseNumber(v, x) || x <= 0) return usage(cmd, "--k needs a positive number");
        o.settings.k = x;
    } else if (a == "--min-excess") {
        const char* v = value();
        if (!v || !parseNumber(v, x) || x < 0 || x >= 1) return usage(cmd, "--min-excess needs a share in [0, 1)");
        o.settings.minExcess = x;
    } else {
        return 0;
    }
    return -1;
}

bool emit(const char* cmd, const std::string& path, const std::string& text) {
    if (path == "-") {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return true;
    }
    const auto failed = writeFileAtomically(path, text);
    if (!failed) return true;
    std::fprintf(stderr, "contend-cli %s: %s\n", cmd, failed->message().c_str());
    return false;
}

int finish(const char* cmd, std::vector<RankInput> inputs, const Outputs& o) {
    if (const std::string bad = checkRanks(inputs); !bad.empty()) {
        std::fprintf(stderr, "contend-cli %s: %s\n", cmd, bad.c_str());
        return kExitBadInput;
    }
    const ClusterReport c = mergeRanks(std::move(inputs), o.settings);
    if (!emit(cmd, o.json, jsonText(clusterToJson(c)))) return kExitBadInput;
    if (!o.markdown.empty() && !emit(cmd, o.markdown, clusterToMarkdown(c))) return kExitBadInput;
    if (o.json != "-" && o.markdown != "-") {
        std::size_t held = 0, explained = 0;
        for (const ClusterCollective& k : c.collectives) {
            held += k.heldUp;
            explained += k.heldUp && k.hasCause;
        }
        std::fprintf(stderr, "%s: %zu ranks, %zu steps, %zu collectives, %zu held up by a slow rank (%zu explained)\n",
                     cmd, c.ranks.size(), c.iterations.size(), c.collectives.size(), held, explained);
        for (const ClusterNote& n : c.notes)
            if (n.kind == "partial-rank") std::fprintf(stderr, "  PARTIAL: %s\n", n.text.c_str());
        for (const SlowRank& s : c.slowRanks)
            std::fprintf(stderr, "  slow rank %d in %zu steps\n", s.rank, s.iterations.size());
    }
    return kExitOk;
}

}  // namespace

int runMerge(int argc, char** argv) {
    Outputs o;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(mergeHelp().c_str(), stdout);
            return kExitOk;
        }
        const int r = sharedOption("merge", argc, argv, i, o);
        if (r > 0) return r;
        if (r < 0) continue;
        if (!a.empty() && a[0] == '-') return usage("merge", "unknown option '" + a + "'");
        paths.push_back(a);
    }
    if (paths.empty()) return usage("merge", "no REPORT given");
    if (o.json.empty()) return usage("merge", "--out CLUSTER.json is required");
    std::vector<RankInput> inputs;
    for (const std::string& p : paths) {
        auto in = readRankReport(p);
        if (!in) {
            std::fprintf(stderr, "contend-cli merge: %s\n", in.failure().message().c_str());
            return kExitBadInput;
        }
        inputs.push_back(std::move(in).value());
    }
    return finish("merge", std::move(inputs), o);
}

int runCluster(int argc, char** argv) {
    Outputs o;
    std::string dir, reportsDir;
    int jobs = 2;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(clusterHelp().c_str(), stdout);
            return kExitOk;
        }
        const int r = sharedOption("cluster", argc, argv, i, o);
        if (r > 0) return r;
        if (r < 0) continue;
        if (a == "--jobs" || a == "-j") {
            double n = 0;
            if (i + 1 >= argc || !parseNumber(argv[++i], n) || n < 1 || n > 256 || n != static_cast<int>(n))
                return usage("cluster", "--jobs needs an integer from 1 to 256");
            jobs = static_cast<int>(n);
        } else if (a == "--reports") {
            if (i + 1 >= argc || !*argv[i + 1]) return usage("cluster", "--reports needs a folder");
            reportsDir = argv[++i];
        } else if (!a.empty() && a[0] == '-') {
            return usage("cluster", "unknown option '" + a + "'");
        } else if (dir.empty()) {
            dir = a;
        } else {
            return usage("cluster", "one DIR only (use 'merge' for a list of reports)");
        }
    }
    if (dir.empty()) return usage("cluster", "no DIR given");
    if (o.json.empty()) return usage("cluster", "--out CLUSTER.json is required");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        std::fprintf(stderr, "contend-cli cluster: %s: not a folder\n", dir.c_str());
        return kExitBadInput;
    }
    const std::vector<std::string> traces = findRankTraces(dir);
    if (traces.empty()) {
        std::fprintf(stderr, "contend-cli cluster: %s: no rank traces (*.json, *.json.gz, *_ascend_pt folders)\n",
                     dir.c_str());
        return kExitBadInput;
    }
    if (!reportsDir.empty()) fs::create_directories(reportsDir, ec);
    ClusterRunOptions run;
    run.jobs = jobs;
    run.load = cliLoadOptions();
    if (!reportsDir.empty())
        run.onReport = [&reportsDir](const Report& report, const Trace& trace) {
            const std::string name = "rank-" + std::to_string(report.distributed.rank) + ".report.json";
            const auto failed =
                writeFileAtomically((fs::path(reportsDir) / name).string(), reportJsonText(report, &trace));
            return failed ? failed->message() : std::string();
        };
    ClusterRunResult result = analyseRanks(traces, run);
    if (!result) {
        std::fprintf(stderr, "contend-cli cluster: %s\n", result.failure().message().c_str());
        return kExitBadInput;
    }
    std::vector<RankInput> inputs = std::move(result.value());
    return finish("cluster", std::move(inputs), o);
}

}  // namespace contend::cli
