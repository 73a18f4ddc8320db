// contend-cli: headless entry point. Dispatches to one subcommand per file.
#include <cstdio>
#include <cstring>
#include <string>

#include "app/cli/commands.h"
#if __has_include("app/cli/cmd_simulate.h")
#include "app/cli/cmd_simulate.h"
#define CONTEND_HAVE_SIMULATE 1
#endif

namespace {

const char* kUsage =
    "usage: contend-cli <command> [options]\n"
    "\n"
    "Finds operator contention in AI-model profiling traces (PyTorch/Kineto JSON, Ascend\n"
    "profiler output folders, Chrome trace JSON; gzip accepted).\n"
    "\n"
    "commands:\n"
    "  info TRACE [--json]      what the trace holds: format, events per phase, operators,\n"
    "                           tracks, counter series, flows, time span, import warnings\n"
#ifdef CONTEND_HAVE_SIMULATE
    "  simulate SCENARIO ...    write a simulated contended trace with its ground truth\n"
#endif
    "  bench-load TRACE [--repeat N]\n"
    "                           load a trace N times and print throughput (MB/s) and peak RSS\n"
    "\n"
    "Run 'contend-cli <command> --help' for the options of a command.\n"
    "Exit codes: 0 ok, 1 check failed, 2 usage error, 3 unreadable or invalid input.\n";

}  // namespace

int main(int argc, char** argv) {
    using namespace contend::cli;
    if (argc < 2) {
        std::fputs(kUsage, stderr);
        return kExitUsage;
    }
    std::string cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::fputs(kUsage, stdout);
        return kExitOk;
    }
    if (cmd == "--version") {
        std::puts("contend-cli 0.1.0");
        return kExitOk;
    }
    if (cmd == "info") return runInfo(argc - 1, argv + 1);
    if (cmd == "bench-load") return runBenchLoad(argc - 1, argv + 1);
#ifdef CONTEND_HAVE_SIMULATE
    if (cmd == "simulate") return runSimulate(argc - 1, argv + 1);
#endif
    std::fprintf(stderr, "contend-cli: unknown command '%s'\n\n%s", cmd.c_str(), kUsage);
    return kExitUsage;
}
