#pragma once
// contend-cli compare / trend: before/after comparison of two runs (traces or saved reports), and
// the trend over several runs.
namespace contend::cli {

int runCompare(int argc, char** argv);
int runTrend(int argc, char** argv);

}  // namespace contend::cli
