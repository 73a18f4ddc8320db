// contend-cli bench-load: load throughput, peak memory and cancel latency of the readers.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

#include "app/cli/commands.h"
#include "core/io/load.h"
#include "core/io/memory_budget.h"

namespace contend::cli {

namespace {
const char* kHelp =
    "usage: contend-cli bench-load TRACE [--repeat N] [--cancel]\n"
    "\n"
    "Loads TRACE N times (default 3) into the model and prints, per run and as the median:\n"
    "wall time, throughput in MB/s of JSON (decompressed bytes; for a database, of the file) and\n"
    "of the file on disk, the model's size when reading ended, the process's peak resident memory\n"
    "relative to the file size, and operators per second (all slices, and those on device streams:\n"
    "the rate to compare across formats, e.g. a run as Kineto JSON and as an Nsight SQLite export).\n"
    "Ends with one line\n"
    "  median_mb_per_s=X peak_rss_mb=Y rss_over_file=Z rss_over_json=W median_operators_per_s=O\n"
    "  median_device_ops_per_s=D\n"
    "\n"
    "  --cancel   then cancels loads at 5%, 25%, 50%, 75% and 95% of the median load time (from\n"
    "             another thread, as the app's Cancel button does) and prints how long each took\n"
    "             to stop; ends with  cancel_latency_max_ms=X\n"
    "\n"
    "The global --max-memory SIZE applies (see contend-cli --help).\n";

double peakRssMb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

using Clock = std::chrono::steady_clock;
double msBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// Loads with a cancel requested from another thread after `delayMs`. Returns the milliseconds
// from the request to loadTrace returning, or a negative number when the load ended first.
double cancelLatency(const std::string& path, double delayMs, bool& wasCancelled) {
    std::atomic<bool> cancel{false};
    std::mutex m;
    std::condition_variable cv;
    bool finished = false;
    Clock::time_point requested{};
    std::thread watcher([&] {
        std::unique_lock<std::mutex> lock(m);
        if (cv.wait_for(lock, std::chrono::duration<double, std::milli>(delayMs), [&] { return finished; })) return;
        requested = Clock::now();
        cancel = true;
    });
    LoadOptions options = cliLoadOptions();
    options.progress = [&](double) { return !cancel.load(); };
    LoadResult r = loadTrace(path, options);
    const auto done = Clock::now();
    {
        std::lock_guard<std::mutex> lock(m);
        finished = true;
    }
    cv.notify_all();
    watcher.join();
    wasCancelled = r.cancelled();
    return cancel ? msBetween(requested, done) : -1.0;
}
}  // namespace

int parseBenchArgs(int argc, char** argv, const char* help, std::string& path, int& repeat) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(help, stdout);
            return kExitOk;
        }
        if (a == "--repeat" && i + 1 < argc)
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (path.empty() && (a.empty() || a[0] != '-'))
            path = a;
        else {
            std::fputs(help, stderr);
            return kExitUsage;
        }
    }
    if (path.empty()) {
        std::fputs(help, stderr);
        return kExitUsage;
    }
    return -1;
}

int runBenchLoad(int argc, char** argv) {
    std::string path;
    int repeat = 3;
    bool measureCancel = false;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (i > 0 && std::string(argv[i]) == "--cancel")
            measureCancel = true;
        else
            args.push_back(argv[i]);
    }
    if (int rc = parseBenchArgs(static_cast<int>(args.size()), args.data(), kHelp, path, repeat); rc >= 0) return rc;
    std::vector<double> rates, seconds, opRates, deviceRates;
    double fileMb = 0, jsonMb = 0;
    for (int r = 0; r < repeat; ++r) {
        auto t0 = Clock::now();
        LoadResult res = loadTrace(path, cliLoadOptions());
        double s = std::chrono::duration<double>(Clock::now() - t0).count();
        if (!res) {
            std::fprintf(stderr, "contend-cli: %s\n", res.failure().message().c_str());
            return kExitBadInput;
        }
        const ImportStats& st = res.value()->stats();
        jsonMb = static_cast<double>(st.bytes) / 1e6;
        fileMb = static_cast<double>(st.fileBytes) / 1e6;
        // A database has no JSON: its throughput is the file's.
        const bool database = st.bytes == 0;
        const double mb = database ? fileMb : jsonMb;
        const double ops = static_cast<double>(res.value()->slices().size()) / s;
        rates.push_back(mb / s);
        opRates.push_back(ops);
        seconds.push_back(s);
        const std::size_t device =
            static_cast<std::size_t>(std::count_if(res.value()->slices().begin(), res.value()->slices().end(),
                                                   [](const Slice& x) { return x.is(kSliceDevice); }));
        deviceRates.push_back(static_cast<double>(device) / s);
        std::printf(
            "run %d: %.3f s, %.1f MB %s -> %.0f MB/s (file %.1f MB: %.0f MB/s), %zu operators (%.0f/s; %zu on "
            "device streams: %.0f/s), %zu counter series, model %.0f MB, memory budget %s\n",
            r + 1, s, mb, database ? "database" : "JSON", mb / s, fileMb, fileMb / s, res.value()->slices().size(), ops,
            device, deviceRates.back(), res.value()->counters().size(), static_cast<double>(st.modelBytes) / 1e6,
            st.memoryBudget ? formatBytes(st.memoryBudget).c_str() : "none");
        std::fflush(stdout);
    }
    std::sort(rates.begin(), rates.end());
    std::sort(seconds.begin(), seconds.end());
    std::sort(opRates.begin(), opRates.end());
    std::sort(deviceRates.begin(), deviceRates.end());
    double median = rates[rates.size() / 2];
    double rss = peakRssMb();
    std::printf(
        "median_mb_per_s=%.0f peak_rss_mb=%.0f rss_over_file=%.2f rss_over_json=%.2f median_operators_per_s=%.0f "
        "median_device_ops_per_s=%.0f\n",
        median, rss, fileMb > 0 ? rss / fileMb : 0.0, jsonMb > 0 ? rss / jsonMb : 0.0, opRates[opRates.size() / 2],
        deviceRates[deviceRates.size() / 2]);
    if (!measureCancel) return kExitOk;
    const double totalMs = seconds[seconds.size() / 2] * 1000.0;
    double worst = 0;
    for (double f : {0.05, 0.25, 0.5, 0.75, 0.95}) {
        bool cancelled = false;
        const double ms = cancelLatency(path, f * totalMs, cancelled);
        if (ms < 0) {
            std::printf("cancel at %2.0f%% (%.0f ms): the load ended first\n", f * 100, f * totalMs);
            continue;
        }
        worst = std::max(worst, ms);
        std::printf("cancel at %2.0f%% (%.0f ms): stopped %.1f ms later (%s)\n", f * 100, f * totalMs, ms,
                    cancelled ? "cancelled" : "finished anyway");
        std::fflush(stdout);
    }
    std::printf("cancel_latency_max_ms=%.1f\n", worst);
    return kExitOk;
}

}  // namespace contend::cli
