#pragma once
// contend-cli analyze / bench-analyze: the analysis engine from the command line. argv[0] is the
// subcommand name. Exit codes as for info: 0 ok, 2 usage, 3 unreadable or invalid input.
namespace contend::cli {

int runAnalyze(int argc, char** argv);
int runBenchAnalyze(int argc, char** argv);

}  // namespace contend::cli
