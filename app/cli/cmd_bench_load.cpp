// contend-cli bench-load: load throughput and peak memory of the readers, as numbers.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "core/io/load.h"

namespace contend::cli {

namespace {
const char* kHelp =
    "usage: contend-cli bench-load TRACE [--repeat N]\n"
    "\n"
    "Loads TRACE N times (default 3) into the model and prints, per run and as the median:\n"
    "wall time, throughput in MB/s of JSON (decompressed bytes) and of the file on disk, and the\n"
    "process's peak resident memory relative to the file size. Ends with one line\n"
    "  median_mb_per_s=X peak_rss_mb=Y rss_over_file=Z rss_over_json=W\n";

double peakRssMb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}
}  // namespace

int parseBenchArgs(int argc, char** argv, const char* help, std::string& path, int& repeat) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(help, stdout);
            return kExitOk;
        }
        if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (path.empty() && (a.empty() || a[0] != '-')) path = a;
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
    if (int rc = parseBenchArgs(argc, argv, kHelp, path, repeat); rc >= 0) return rc;
    std::vector<double> rates;
    double fileMb = 0, jsonMb = 0;
    for (int r = 0; r < repeat; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        LoadResult res = loadTrace(path);
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!res) {
            std::fprintf(stderr, "contend-cli: %s\n", res.error->message().c_str());
            return kExitBadInput;
        }
        jsonMb = static_cast<double>(res.trace->stats().bytes) / 1e6;
        fileMb = static_cast<double>(res.trace->stats().fileBytes) / 1e6;
        rates.push_back(jsonMb / s);
        std::printf("run %d: %.3f s, %.1f MB JSON -> %.0f MB/s (file %.1f MB: %.0f MB/s), %zu operators, %zu counter series\n",
                    r + 1, s, jsonMb, jsonMb / s, fileMb, fileMb / s, res.trace->slices().size(),
                    res.trace->counters().size());
        std::fflush(stdout);
    }
    std::sort(rates.begin(), rates.end());
    double median = rates[rates.size() / 2];
    double rss = peakRssMb();
    std::printf("median_mb_per_s=%.0f peak_rss_mb=%.0f rss_over_file=%.2f rss_over_json=%.2f\n", median, rss,
                fileMb > 0 ? rss / fileMb : 0.0, jsonMb > 0 ? rss / jsonMb : 0.0);
    return kExitOk;
}

}  // namespace contend::cli
