// contend-cli simulate: write a simulated contended trace (and its ground truth).
#include "app/cli/cmd_simulate.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "core/sim/cluster_simulation.h"
#include "core/sim/model/device_model.h"
#include "core/sim/run_simulation.h"

namespace contend::cli {

namespace {

constexpr int kOk = 0;
constexpr int kUsage = 2;
constexpr int kIoError = 3;

const char* kSimulateHelp =
    "usage: contend-cli simulate SCENARIO [--fixed] [--seed N] [--iterations N | --events N]\n"
    "                            --out TRACE [--format json|nsys-sqlite] [--truth FILE]\n"
    "                            [--gzip] [--device-only]\n"
    "                            [--counters full|none|PERIOD_US] [--sample-us N]\n"
    "                            [--bad-rate P] [--device D] [--quiet]\n"
    "       contend-cli simulate bandwidth|null --ranks N [--slow-rank R] --out DIR [--seed N]\n"
    "                            [--iterations N] [--bad-rate P] [--gzip] [--counters MODE]\n"
    "\n"
    "Simulates project X (a vision network: convolutions, matmuls, small activations, a\n"
    "pre-processing stream; one ProfilerStep#N per iteration) on a device whose streams share\n"
    "DRAM bandwidth, compute units, L2 cache, issue/launch, sync barriers and locks, and writes\n"
    "a PyTorch-profiler (Kineto) shaped trace with counter tracks, or the same run as an Nsight\n"
    "Systems SQLite export with GPU metrics (--format nsys-sqlite).\n"
    "\n"
    "scenarios:\n"
    "  bandwidth      a normalisation and a layout transform land on each other on two streams\n"
    "  sync-cluster   24 tiny element-wise metric ops, each behind its own stream sync\n"
    "  cache          an FPN feature-map op beside a convolution chain overflows the L2 cache\n"
    "  lock           two low-utilisation atomic kernels wait on a shared lock\n"
    "  mixed          all of the above at realistic rates, plus controls that must not be\n"
    "                 flagged (the biggest matmul, a naturally variable NMS, an overlap that fits)\n"
    "  null           not project X: four streams busy with overlapping kernels (matmuls,\n"
    "                 element-wise, reductions, softmax, layer norm) whose demands always fit, so\n"
    "                 nothing is contended; durations vary per kernel signature (narrow, uniform,\n"
    "                 heavy-tailed, bimodal). --fixed gives the same kernels and times\n"
    "\n"
    "options:\n"
    "  --fixed          simulate the scenario's fixed twin (staggered, fused, re-tiled, unlocked)\n"
    "  --seed N         random seed (default 1); the same seed gives byte-identical output\n"
    "  --iterations N   profiler steps (default 24 for mixed and null, 12 otherwise)\n"
    "  --events N       run steps until about N kernels, for large benchmark traces\n"
    "  --out TRACE      trace file to write; '-' writes to stdout; a .gz name writes gzip\n"
    "  --format F       json (default): Kineto Chrome-trace JSON;\n"
    "                   nsys-sqlite: what 'nsys export --type sqlite' writes (schema 3.25):\n"
    "                   CUPTI_ACTIVITY_KIND_KERNEL / RUNTIME / SYNCHRONIZATION, NVTX_EVENTS\n"
    "                   (ProfilerStep#N, framework ops), StringIds, TARGET_INFO_GPU, session\n"
    "                   start, and GPU_METRICS + TARGET_INFO_GPU_METRICS (SMs Active, SM Issue,\n"
    "                   DRAM Read/Write Bandwidth, GPC Clock Frequency; no L2 hit rate, which\n"
    "                   Nsight does not sample). Needs a file: no stdout, no gzip\n"
    "  --truth FILE     ground truth JSON (contend.truth/1): every operator's solo and actual\n"
    "                   duration, slowdown and cause; sync clusters; lock waits; counts\n"
    "  --gzip           gzip the trace whatever its name\n"
    "  --device-only    leave out host events (cpu_op, launches, flows): smaller traces\n"
    "  --counters MODE  counter tracks, as different profilers write them (kernels and truth\n"
    "                   are the same in every mode):\n"
    "                     full       a sample at every change and every --sample-us (default\n"
    "                                for json)\n"
    "                     none       no counter events (like PyTorch/Kineto on a CUDA GPU)\n"
    "                     PERIOD_US  one sample per track every PERIOD_US us (e.g. 1000), at\n"
    "                                the period's start, holding the time-weighted mean over it\n"
    "                                (like Ascend's HBM/LLC or Kineto's PM sampling); the\n"
    "                                default for nsys-sqlite is 100 (Nsight's 10 kHz)\n"
    "  --sample-us N    full counters: re-sample unchanged values every N us (default 10, 100\n"
    "                   with --events); the other modes average what full mode would sample\n"
    "  --bad-rate P     bandwidth, sync-cluster, cache, lock: the probability (0..1) that a step\n"
    "                   runs the contended form, decided per seed and step (default 1: every\n"
    "                   step); an error for mixed and null. --fixed still fixes every step\n"
    "  --device D       the simulated device: simdevice (default; the device Contend's rules were\n"
    "                   written against: max-min fair sharing, 40 MiB L2), proportional (DRAM and\n"
    "                   compute units split in proportion to what each operator asks, so a small\n"
    "                   ask beside a large one is slowed too), small-cache (a 10 MiB L2) or\n"
    "                   narrow (half the DRAM bandwidth: pairs that fit on simdevice contend,\n"
    "                   and the largest streamers are slower alone). To check the analysis on\n"
    "                   physics it was not tuned on\n"
    "  --quiet          no summary on stderr\n"
    "\n"
    "clusters (--ranks N): a data-parallel training job on N ranks, one Kineto trace per rank\n"
    "(DIR/rank-NN.json, with distributedInfo.rank) with four NCCL AllReduce kernels a step that\n"
    "wait for the slowest rank. bandwidth with --slow-rank R: rank R's augmentation kernel lands\n"
    "on a layer-norm backward in the steps its site runs bad (--bad-rate, default 0.5 here), so\n"
    "the third AllReduce waits for it; every other rank runs the good form. null, or bandwidth\n"
    "without --slow-rank: no rank is contended. DIR/cluster-truth.json (contend.cluster-truth/1)\n"
    "names the culprit rank, the iterations it delayed and its contention window.\n"
    "  --ranks N        ranks in the cluster (2..4096); --out is then a folder\n"
    "  --slow-rank R    the rank the contention is injected on (bandwidth only)\n"
    "\n"
    "Files are written to a temporary next to FILE and renamed when complete.\n"
    "Exit codes: 0 ok, 2 usage error, 3 I/O error.\n";

bool parseCount(std::string_view text, std::int64_t min, std::int64_t& out) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < min) return false;
    out = v;
    return true;
}

int usage(const std::string& message) {
    std::fprintf(stderr, "contend-cli simulate: %s\n(see 'contend-cli simulate --help')\n", message.c_str());
    return kUsage;
}

int runCluster(const contend::sim::SimulationRequest& req, int ranks, int slowRank, bool haveBadRate, bool quiet) {
    using namespace contend::sim;
    if (!req.truthPath.empty()) return usage("a cluster writes its truth to DIR/cluster-truth.json: drop --truth");
    if (req.events > 0 || req.fixed || !req.hostEvents)
        return usage("--events, --fixed and --device-only do not apply to a cluster");
    if (req.device != "simdevice") return usage("--device does not apply to a cluster (its ranks run the simdevice)");
    if (req.format != OutputFormat::KinetoJson) return usage("a cluster writes Kineto JSON traces only: drop --format");
    if (req.tracePath == "-") return usage("a cluster needs a folder for --out");
    if (slowRank >= ranks) return usage("--slow-rank must be below --ranks");
    ClusterRequest q;
    q.scenario = req.scenario;
    q.ranks = ranks;
    q.slowRank = slowRank;
    q.seed = req.seed;
    if (req.iterations > 0) q.iterations = req.iterations;
    if (haveBadRate) q.badRate = req.badRate;
    q.outDir = req.tracePath;
    q.gzip = req.gzip;
    q.counters = req.counters;
    q.counterIntervalNs = req.counterIntervalNs;
    const Result<ClusterSummary> s = runClusterSimulation(q);
    if (!s) {
        std::fprintf(stderr, "contend-cli simulate: %s\n", s.failure().message().c_str());
        return s.failure().kind == Failure::Kind::Unreadable ? kIoError : kUsage;
    }
    if (!quiet)
        std::fprintf(stderr,
                     "simulate: cluster %s seed %llu: %d ranks, slow rank %s, %d steps, %d "
                     "delayed; %.2f s -> %s (truth: %s)\n",
                     std::string(scenarioName(q.scenario)).c_str(), static_cast<unsigned long long>(q.seed), q.ranks,
                     slowRank >= 0 ? std::to_string(slowRank).c_str() : "none", q.iterations, s->delayedIterations,
                     s->seconds, q.outDir.c_str(), s->truthPath.c_str());
    return kOk;
}

}  // namespace

int runSimulate(int argc, char** argv) {
    using namespace contend::sim;
    SimulationRequest req;
    bool haveScenario = false;
    bool quiet = false;
    bool haveIterations = false;
    bool haveCounters = false;
    bool haveBadRate = false;
    std::int64_t ranks = 0;
    std::int64_t slowRank = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&](std::string_view& out) {
            if (i + 1 >= argc) return false;
            out = argv[++i];
            return true;
        };
        std::string_view v;
        std::int64_t n = 0;
        if (arg == "--help" || arg == "-h") {
            std::fputs(kSimulateHelp, stdout);
            return kOk;
        } else if (arg == "--fixed") {
            req.fixed = true;
        } else if (arg == "--gzip") {
            req.gzip = true;
        } else if (arg == "--device-only") {
            req.hostEvents = false;
        } else if (arg == "--quiet") {
            quiet = true;
        } else if (arg == "--seed") {
            std::uint64_t seed = 0;
            if (!value(v)) return usage("--seed needs a value");
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
            if (ec != std::errc() || end != v.data() + v.size())
                return usage("--seed needs a non-negative integer, not '" + std::string(v) + "'");
            req.seed = seed;
        } else if (arg == "--iterations") {
            if (!value(v) || !parseCount(v, 1, n) || n > 10'000'000)
                return usage("--iterations needs a positive integer");
            req.iterations = static_cast<int>(n);
            haveIterations = true;
        } else if (arg == "--events") {
            if (!value(v) || !parseCount(v, 1, n)) return usage("--events needs a positive integer");
            req.events = n;
        } else if (arg == "--sample-us") {
            if (!value(v) || !parseCount(v, 1, n) || n > 1'000'000)
                return usage("--sample-us needs a positive integer (microseconds)");
            req.counterPeriodNs = n * 1000;
        } else if (arg == "--device") {
            if (!value(v) || !devicePreset(v))
                return usage(std::string("--device needs one of ") + devicePresetNames());
            req.device = std::string(v);
        } else if (arg == "--bad-rate") {
            double rate = -1;
            const bool ok = value(v) && [&] {
                const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), rate);
                return ec == std::errc() && end == v.data() + v.size();
            }();
            if (!ok || !(rate >= 0.0 && rate <= 1.0)) return usage("--bad-rate needs a probability between 0 and 1");
            req.badRate = rate;
            haveBadRate = true;
        } else if (arg == "--ranks") {
            if (!value(v) || !parseCount(v, 2, n) || n > 4096) return usage("--ranks needs an integer from 2 to 4096");
            ranks = n;
        } else if (arg == "--slow-rank") {
            if (!value(v) || !parseCount(v, 0, n)) return usage("--slow-rank needs a rank (a non-negative integer)");
            slowRank = n;
        } else if (arg == "--counters") {
            const auto setting = value(v) ? parseCounterSetting(v) : std::nullopt;
            if (!setting) return usage("--counters needs full, none or a period in microseconds (e.g. 1000)");
            req.counters = setting->mode;
            req.counterIntervalNs = setting->periodNs;
            haveCounters = true;
        } else if (arg == "--format") {
            const auto format = value(v) ? parseOutputFormat(v) : std::nullopt;
            if (!format) return usage("--format needs json or nsys-sqlite");
            req.format = *format;
        } else if (arg == "--out" || arg == "-o") {
            if (!value(v) || v.empty()) return usage("--out needs a file name (or '-')");
            req.tracePath = std::string(v);
        } else if (arg == "--truth") {
            if (!value(v) || v.empty()) return usage("--truth needs a file name");
            req.truthPath = std::string(v);
        } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
            return usage("unknown option '" + std::string(arg) + "'");
        } else if (!haveScenario) {
            const auto s = parseScenario(arg);
            if (!s)
                return usage("unknown scenario '" + std::string(arg) +
                             "' (bandwidth, sync-cluster, cache, lock, mixed, null)");
            req.scenario = *s;
            haveScenario = true;
        } else {
            return usage("unexpected argument '" + std::string(arg) + "'");
        }
    }
    if (!haveScenario) return usage("which scenario? (bandwidth, sync-cluster, cache, lock, mixed, null)");
    if (req.tracePath.empty()) return usage("--out TRACE is required");
    if (slowRank >= 0 && ranks == 0) return usage("--slow-rank needs --ranks");
    if (ranks > 0) return runCluster(req, static_cast<int>(ranks), static_cast<int>(slowRank), haveBadRate, quiet);
    if (haveIterations && req.events > 0) return usage("--iterations and --events exclude each other");
    if (req.badRate != 1.0 && !isSingleCause(req.scenario))
        return usage("--bad-rate applies to bandwidth, sync-cluster, cache and lock only");
    if (req.truthPath == "-" || (req.truthPath == req.tracePath)) return usage("--truth needs its own file");
    if (req.format == OutputFormat::NsysSqlite && (req.tracePath == "-" || req.gzip))
        return usage("--format nsys-sqlite writes a database file: no '-' (stdout), no --gzip");
    if (!haveCounters) {
        const CounterSetting c = defaultCounters(req.format);
        req.counters = c.mode;
        req.counterIntervalNs = c.periodNs;
    }

    const Result<SimulationSummary> s = runSimulation(req);
    if (!s) {
        std::fprintf(stderr, "contend-cli simulate: %s\n", s.failure().message().c_str());
        return s.failure().kind == Failure::Kind::Unreadable ? kIoError : kUsage;
    }
    if (!quiet) {
        // Non-default modes: ", bad-rate 0.5, counters 1000us".
        std::string modes;
        if (req.badRate != 1.0) {
            char rate[32];
            std::snprintf(rate, sizeof rate, "%g", req.badRate);
            modes += std::string(", bad-rate ") + rate;
        }
        if (req.format != OutputFormat::KinetoJson) modes += std::string(", format ") + outputFormatName(req.format);
        if (req.counters != CounterMode::Full)
            modes += ", counters " + counterSettingName({req.counters, req.counterIntervalNs});
        const double mb = static_cast<double>(s->traceBytes) / 1e6;
        std::fprintf(
            stderr,
            "simulate: %s%s seed %llu%s: %d steps, %llu kernels, %llu events "
            "(%llu counter samples, %llu flows), %.1f ms simulated; "
            "%.1f MB %s in %.2f s (%.0f MB/s) -> %s%s%s\n",
            std::string(scenarioName(req.scenario)).c_str(), req.fixed ? " --fixed" : "",
            static_cast<unsigned long long>(req.seed), modes.c_str(), s->iterations,
            static_cast<unsigned long long>(s->counts.kernels), static_cast<unsigned long long>(s->counts.events),
            static_cast<unsigned long long>(s->counts.counters), static_cast<unsigned long long>(s->counts.flows),
            static_cast<double>(s->endToEndNs) / 1e6, mb, req.format == OutputFormat::NsysSqlite ? "SQLite" : "JSON",
            s->seconds, s->seconds > 0 ? mb / s->seconds : 0.0, req.tracePath == "-" ? "stdout" : req.tracePath.c_str(),
            req.truthPath.empty() ? "" : ", truth -> ", req.truthPath.c_str());
    }
    return kOk;
}

}  // namespace contend::cli
