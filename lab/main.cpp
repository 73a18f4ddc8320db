// contend-lab: real contention on this machine's CPUs, traced as a device with two streams, with
// the truth measured (lab/README.md).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "kernels.h"
#include "runner.h"
#include "schedule.h"
#include "trace_writer.h"
#include "truth.h"

namespace {

const char* kUsage =
    "usage: contend-lab [--out TRACE.json[.gz]] [--truth TRUTH.json] [--physics PHYSICS.json]\n"
    "                   [--print-physics] [--names pytorch|neutral] [--counters] [--seed N]\n"
    "                   [--steps N] [--quick] [--array-mib N] [--l3-share N] [--quiet]\n"
    "Runs a seeded schedule of real kernels on two worker threads pinned to CPUs 0 and 1 (the\n"
    "streams), each kernel alone, beside a competing partner or beside one that does not compete,\n"
    "and writes a Kineto-shaped trace, the measured truth (contend.truth/1) and the physics table.\n"
    "  --names     kernel names as PyTorch's CUDA kernels for the same work (default) or neutral\n"
    "  --counters  a counter track of the lab's own achieved bytes/s (software, not a PMU)\n"
    "  --quick     32 MiB arrays and 12 steps (for CI: a few seconds)\n"
    "  --array-mib each STREAM array's size per stream (default 128, 32 with --quick)\n"
    "  --l3-share  the L3-resident buffer is L3 / N per stream (default 8)\n";

bool parseInt(const char* s, long long& out) {
    char* end = nullptr;
    out = std::strtoll(s, &end, 10);
    return end != s && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
    std::string out, truthPath, physicsPath, names = "pytorch";
    bool counters = false, quick = false, printPhysics = false, quiet = false;
    long long seed = 1, steps = -1, arrayMib = -1, l3Share = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::cerr << "contend-lab: " << a << " needs a value\n" << kUsage;
                std::exit(2);
            }
            return argv[++i];
        };
        auto number = [&](long long& dst, long long min) {
            const char* v = value();
            if (!parseInt(v, dst) || dst < min) {
                std::cerr << "contend-lab: " << a << ": expected an integer >= " << min << ", got " << v << "\n";
                std::exit(2);
            }
        };
        if (a == "--out") {
            out = value();
        } else if (a == "--truth") {
            truthPath = value();
        } else if (a == "--physics") {
            physicsPath = value();
        } else if (a == "--print-physics") {
            printPhysics = true;
        } else if (a == "--names") {
            names = value();
            if (names != "pytorch" && names != "neutral") {
                std::cerr << "contend-lab: --names is pytorch or neutral\n";
                return 2;
            }
        } else if (a == "--counters") {
            counters = true;
        } else if (a == "--seed") {
            number(seed, 0);
        } else if (a == "--steps") {
            number(steps, 1);
        } else if (a == "--array-mib") {
            number(arrayMib, 4);
        } else if (a == "--l3-share") {
            number(l3Share, 2);
        } else if (a == "--quick") {
            quick = true;
        } else if (a == "--quiet") {
            quiet = true;
        } else if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return 0;
        } else {
            std::cerr << "contend-lab: unknown option " << a << "\n" << kUsage;
            return 2;
        }
    }

    lab::ScheduleOptions so;
    so.seed = static_cast<std::uint64_t>(seed);
    so.steps = steps > 0 ? static_cast<int>(steps) : (quick ? 12 : 100);
    const std::vector<lab::Slot> slots = lab::makeSchedule(so);

    const lab::CacheSizes caches = lab::readCacheSizes();
    lab::RunnerOptions ro;
    ro.sizes = lab::defaultSizes(caches, quick);
    if (arrayMib > 0) ro.sizes.arrayBytes = static_cast<std::size_t>(arrayMib) << 20;
    if (l3Share > 0) ro.sizes = lab::withL3Share(ro.sizes, caches, static_cast<std::size_t>(l3Share));
    ro.seed = so.seed;

    lab::TruthContext ctx;
    ctx.seed = so.seed;
    ctx.names = names == "pytorch" ? lab::NameStyle::PyTorch : lab::NameStyle::Neutral;
    ctx.counters = counters;
    ctx.quick = quick;
    ctx.steps = so.steps;
    ctx.variant = names + (counters ? "+counters" : "");
    ctx.machine = lab::readMachine();
    ctx.machine.l2Bytes = caches.l2;
    ctx.machine.l3Bytes = caches.l3;

    lab::RunRecord run;
    try {
        run = lab::runSchedule(slots, ro);
    } catch (const std::exception& e) {
        std::cerr << "contend-lab: " << e.what() << "\n";
        return 1;
    }
    ctx.machine.loadEnd = lab::readLoadAvg();
    ctx.machine.stealEndMs = lab::readStealMs();
    // Trace clock: the first step at 1 s (as the simulator's traces), ns from CLOCK_MONOTONIC.
    ctx.clockOffset = run.steps.empty() ? 0 : 1000000000LL - run.steps.front().start;

    const lab::Truth truth = lab::measureTruth(run);
    if (!out.empty()) {
        lab::TraceOptions to;
        to.names = ctx.names;
        to.counters = counters;
        to.traceName = "contend-lab/" + ctx.variant + "/seed-" + std::to_string(seed);
        to.clockOffset = ctx.clockOffset;
        to.deviceName = "contend-lab (" + ctx.machine.cpuModel + ", CPUs 0-1 as streams)";
        if (!lab::writeFile(out, lab::traceJson(run, to))) {
            std::cerr << "contend-lab: cannot write " << out << "\n";
            return 1;
        }
    }
    if (!truthPath.empty() && !lab::writeTruth(truthPath, run, truth, ctx)) {
        std::cerr << "contend-lab: cannot write " << truthPath << "\n";
        return 1;
    }
    if (!physicsPath.empty() && !lab::writePhysics(physicsPath, truth, ctx)) {
        std::cerr << "contend-lab: cannot write " << physicsPath << "\n";
        return 1;
    }
    if (printPhysics) lab::printPhysics(std::cout, truth);
    if (!quiet) {
        const double span = run.steps.empty() ? 0 : static_cast<double>(run.steps.back().end - run.steps.front().start);
        std::fprintf(stderr, "contend-lab: seed %lld, %d steps, %zu kernels in %.2f s; load %s -> %s\n", seed, so.steps,
                     run.kernels.size(), span / 1e9, ctx.machine.loadStart.c_str(), ctx.machine.loadEnd.c_str());
    }
    return 0;
}
