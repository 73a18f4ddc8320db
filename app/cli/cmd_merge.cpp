// contend-cli merge and cluster: per-rank reports folded into a cluster report
// (core/analysis/cluster_merge.h); cluster also finds and analyses the ranks of a folder.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/commands.h"
#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "core/report/atomic_write.h"
#include "core/report/cluster_report.h"
#include "core/report/report_json.h"

namespace contend::cli {

namespace fs = std::filesystem;

namespace {

const char* kMergeHelp =
    "usage: contend-cli merge REPORT [REPORT...] --out CLUSTER.json [--markdown FILE|-] [--k K]\n"
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
    "Each report must carry its rank (distributed.rank, from Kineto's distributedInfo or an\n"
    "Ascend profiler_info_N.json); ranks must be distinct.\n"
    "Exit codes: 0 ok, 2 usage error, 3 unreadable or invalid report.\n";

const char* kClusterHelp =
    "usage: contend-cli cluster DIR [--jobs N] [--reports DIR] --out CLUSTER.json\n"
    "                           [--markdown FILE|-] [--k K] [--min-excess F]\n"
    "\n"
    "Opens a folder of per-rank traces: Kineto files (*.json, *.json.gz with distributedInfo.rank)\n"
    "and Ascend rank folders (*_ascend_pt with profiler_info_N.json), searched three levels\n"
    "deep. Each rank is loaded and analysed on its own, N at a time (--jobs, default 2), each\n"
    "load under 1/N of the memory budget (--max-memory), and dropped once its report is\n"
    "built, so ranks stream through; then the reports are merged as by 'contend-cli merge'.\n"
    "--reports DIR also writes each rank's report there (rank-R.report.json). A trace without a\n"
    "rank, or two traces of one rank, is an error naming them.\n"
    "Exit codes: 0 ok, 2 usage error, 3 unreadable or invalid input.\n";

int usage(const char* cmd, const std::string& message) {
    std::fprintf(stderr, "contend-cli %s: %s\n(see 'contend-cli %s --help')\n", cmd, message.c_str(), cmd);
    return kExitUsage;
}

struct Outputs {
    std::string json;
    std::string markdown;
    ClusterSettings settings;
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
    std::string error;
    if (writeFileAtomically(path, text, &error)) return true;
    std::fprintf(stderr, "contend-cli %s: %s\n", cmd, error.c_str());
    return false;
}

int finish(const char* cmd, std::vector<RankInput> inputs, const Outputs& o) {
    std::sort(inputs.begin(), inputs.end(), [](const RankInput& a, const RankInput& b) { return a.rank < b.rank; });
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].rank < 0) {
            std::fprintf(stderr,
                         "contend-cli %s: %s: no rank (the trace has no distributedInfo.rank or "
                         "profiler_info_N.json)\n",
                         cmd, inputs[i].source.c_str());
            return kExitBadInput;
        }
        if (i && inputs[i].rank == inputs[i - 1].rank) {
            std::fprintf(stderr, "contend-cli %s: %s and %s are both rank %d\n", cmd, inputs[i - 1].source.c_str(),
                         inputs[i].source.c_str(), inputs[i].rank);
            return kExitBadInput;
        }
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
        for (const SlowRank& s : c.slowRanks)
            std::fprintf(stderr, "  slow rank %d in %zu steps\n", s.rank, s.iterations.size());
    }
    return kExitOk;
}

bool isRankFolder(const fs::path& p) {
    const std::string n = p.filename().string();
    return n.size() > 10 && n.compare(n.size() - 10, 10, "_ascend_pt") == 0;
}

bool isTraceFile(const fs::path& p) {
    const std::string n = p.filename().string();
    auto ends = [&](const char* s) {
        const std::string e(s);
        return n.size() > e.size() && n.compare(n.size() - e.size(), e.size(), e) == 0;
    };
    // Not traces: our own truth and report files, and the JSON side files profilers write.
    if (n == "cluster-truth.json" || ends(".report.json") || ends(".truth.json") || n.rfind("profiler_info", 0) == 0 ||
        n == "profiler_metadata.json" || n == "communication.json" || n == "communication_matrix.json")
        return false;
    return ends(".json") || ends(".json.gz");
}

// Rank traces under `dir`: *_ascend_pt folders (not looked into further) and JSON files outside
// them, up to three levels deep, sorted by path.
std::vector<std::string> findRankTraces(const fs::path& dir, int depth = 0) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (e.is_directory(ec)) {
            if (isRankFolder(e.path()))
                out.push_back(e.path().string());
            else if (depth < 2) {
                auto sub = findRankTraces(e.path(), depth + 1);
                out.insert(out.end(), sub.begin(), sub.end());
            }
        } else if (e.is_regular_file(ec) && isTraceFile(e.path())) {
            out.push_back(e.path().string());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

int runMerge(int argc, char** argv) {
    Outputs o;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(kMergeHelp, stdout);
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
        std::string error;
        auto in = readRankReport(p, &error);
        if (!in) {
            std::fprintf(stderr, "contend-cli merge: %s\n", error.c_str());
            return kExitBadInput;
        }
        inputs.push_back(std::move(*in));
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
            std::fputs(kClusterHelp, stdout);
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
    jobs = std::min<int>(jobs, static_cast<int>(traces.size()));
    LoadOptions load = cliLoadOptions();
    const std::uint64_t budget = effectiveMemoryBudget(load);
    if (budget != kNoMemoryLimit) load.memoryLimitBytes = std::max<std::uint64_t>(budget / jobs, 1);

    std::vector<std::optional<RankInput>> results(traces.size());
    std::vector<std::string> errors(traces.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&]() {
        for (std::size_t k; (k = next++) < traces.size();) {
            LoadResult lr = loadTrace(traces[k], load);
            if (!lr) {
                errors[k] = lr.error ? lr.error->message() : traces[k] + ": cannot load the trace";
                continue;
            }
            std::string error;
            AnalysisSettings settings;
            auto prepared = prepareAnalysis(lr.trace, settings, &error);
            if (!prepared) {
                errors[k] = traces[k] + ": " + error;
                continue;
            }
            const Report report = buildReport(*prepared, settings.coefficient, settings.overlapRatio);
            if (!reportsDir.empty()) {
                const std::string name = "rank-" + std::to_string(report.distributed.rank) + ".report.json";
                if (!writeFileAtomically((fs::path(reportsDir) / name).string(),
                                         jsonText(reportToJson(report, *lr.trace)), &error)) {
                    errors[k] = error;
                    continue;
                }
            }
            results[k] = rankInputFromReport(report, traces[k]);
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(jobs));
    for (int j = 0; j < jobs; ++j) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
    std::vector<RankInput> inputs;
    for (std::size_t k = 0; k < traces.size(); ++k) {
        if (!errors[k].empty()) {
            std::fprintf(stderr, "contend-cli cluster: %s\n", errors[k].c_str());
            return kExitBadInput;
        }
        inputs.push_back(std::move(*results[k]));
    }
    return finish("cluster", std::move(inputs), o);
}

}  // namespace contend::cli
