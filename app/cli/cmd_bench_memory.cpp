// contend-cli bench-memory: what newly mapped memory costs this machine to touch, cold and warm:
// the figure that says how much of the analysis' time over the load is its new pages.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <vector>

#include "app/cli/commands.h"
#include "core/common/huge_pages.h"

namespace contend::cli {

namespace {
const char* kHelp =
    "usage: contend-cli bench-memory [--mib N] [--repeat R] [--idle S]\n"
    "\n"
    "Times writing one byte to each 4 KiB page of N MiB (default 512) of newly mapped memory, marked\n"
    "for huge pages as the analysis' large arrays are, R times (default 3): 'cold', after S seconds\n"
    "(default 2) with nothing mapped, and 'warm', mapped anew at once after the cold one was given\n"
    "back. On bare metal the two are alike (the kernel clears each page either way); in a virtual\n"
    "machine that hands freed memory back to its host, a cold page also pays the host's fault and\n"
    "can cost ten times a warm one. An analysis touches most of its arrays cold (contend-cli\n"
    "analyze --timings; `perf record` shows the kernel's clear_page). Each round in MB/s, then the\n"
    "medians; ends with one line\n"
    "  cold_mb_per_s=X warm_mb_per_s=Y\n";

using Clock = std::chrono::steady_clock;

// MB/s of touching `bytes` of newly mapped memory, one write a 4 KiB page; -1 when the kernel
// refuses the mapping.
double touchRate(std::size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    adviseHugePages(p, bytes);
    auto* bytesAt = static_cast<volatile unsigned char*>(p);
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < bytes; i += 4096) bytesAt[i] = 1;
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    munmap(p, bytes);
    return static_cast<double>(bytes) / 1e6 / std::max(s, 1e-9);
}

// A whole number in [lo, hi] after `option`, else a usage message.
bool wholeArg(const char* option, const char* value, double lo, double hi, double& out) {
    if (value != nullptr && parseNumber(value, out) && out >= lo && out <= hi && out == static_cast<long>(out))
        return true;
    std::fprintf(stderr, "contend-cli bench-memory: %s needs a whole number from %.0f to %.0f (got %s)\n\n%s", option,
                 lo, hi, value != nullptr ? value : "nothing", kHelp);
    return false;
}
}  // namespace

int runBenchMemory(int argc, char** argv) {
    double mib = 512, repeat = 3, idle = 2;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--help" || a == "-h") {
            std::fputs(kHelp, stdout);
            return kExitOk;
        }
        bool ok = false;
        if (a == "--mib")
            ok = wholeArg("--mib", value, 16, 65536, mib);
        else if (a == "--repeat")
            ok = wholeArg("--repeat", value, 1, 100, repeat);
        else if (a == "--idle")
            ok = wholeArg("--idle", value, 0, 60, idle);
        else
            std::fprintf(stderr, "contend-cli bench-memory: unknown option '%s'\n\n%s", a.c_str(), kHelp);
        if (!ok) return kExitUsage;
        ++i;
    }
    const auto bytes = static_cast<std::size_t>(mib) << 20;
    std::printf("touching %.0f MiB a time, one write a 4 KiB page, %.0f rounds (MB/s)\n", mib, repeat);
    std::printf("%6s %12s %12s\n", "round", "cold", "warm");
    std::vector<double> cold, warm;
    for (int r = 0; r < static_cast<int>(repeat); ++r) {
        std::this_thread::sleep_for(std::chrono::duration<double>(idle));
        const double c = touchRate(bytes), w = touchRate(bytes);
        if (c < 0 || w < 0) {
            std::fprintf(stderr, "contend-cli bench-memory: the kernel refused to map %.0f MiB\n", mib);
            return kExitBadInput;
        }
        cold.push_back(c);
        warm.push_back(w);
        std::printf("%6d %12.0f %12.0f\n", r + 1, c, w);
    }
    std::printf("%6s %12.0f %12.0f\n", "median", medianOf(cold), medianOf(warm));
    std::printf("cold_mb_per_s=%.0f warm_mb_per_s=%.0f\n", medianOf(cold), medianOf(warm));
    return kExitOk;
}

}  // namespace contend::cli
