#pragma once
// Subcommands of contend-cli. Each takes argv with argv[0] = the subcommand name and returns the
// process exit code: 0 ok, 1 check failed (compare --fail-on-regression), 2 usage, 3 bad input,
// 4 partial or damaged input under --strict (analyze, compare).
#include <string>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/io/load.h"

namespace contend::cli {

// Load options every command uses: the global --max-memory SIZE that main() takes off the
// command line before dispatching.
LoadOptions& cliLoadOptions();

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitBadInput = 3;
// --strict: the report was written, but its input was partial (a truncated-input or
// damaged-input note) or held operators overlapping on one stream (stream-overlap).
inline constexpr int kExitStrict = 4;

// Parses "TRACE [--repeat N]" for the bench commands. Returns -1 when parsing succeeded, else
// the exit code to return (after printing help on stdout for --help, on stderr for bad usage).
int parseBenchArgs(int argc, char** argv, const char* help, std::string& path, int& repeat);

// A whole, finite number ("1.5", "3"); false for "", "1x", "nan", "inf" or out of range.
bool parseNumber(const char* s, double& out);

// The bench commands' median: the middle value, the upper one of an even count; 0 when empty.
double medianOf(std::vector<double> v);

// The value of --coefficient or --overlap (`option`, as typed) into `settings`, within
// Thresholds' ranges (core/analysis/model/thresholds.h, the app's editors' too). Empty on success,
// else the message, naming the option: "--coefficient needs a number from 0.1 to 50 (got 60)".
// `value` may be null (the option was last on the command line).
std::string parseThresholdOption(const std::string& option, const char* value, AnalysisSettings& settings);

int runInfo(int argc, char** argv);
int runBenchLoad(int argc, char** argv);
int runBenchMemory(int argc, char** argv);
int runAnnotate(int argc, char** argv);
int runMerge(int argc, char** argv);
int runCluster(int argc, char** argv);

}  // namespace contend::cli
