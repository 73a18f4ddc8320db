#pragma once
// The pass/fail checks a CI job runs on a compare result, one value per check, so the JUnit
// report, the pull-request summary and `compare --fail-on-regression` all judge the same way.
//
// Checks, in order:
//   "no new anomalies"              new anomalies <= CompareSettings::maxNewAnomalies
//   "no new contention windows"     new windows   <= CompareSettings::maxNewWindows
//   "end-to-end within tolerance"   end-to-end growth (new/base - 1) <= endToEndTolerance
//   "no extra wait added on R"      one per resource R (bandwidth ... unknown, not "none"): the
//                                   extra wait on R grew by at most endToEndTolerance x base
//                                   end-to-end time (the same PCT, read as a share of the run, so
//                                   noise of a few microseconds on a long run does not fail it);
//                                   skipped when neither run has any extra wait on R.
// The first three are exactly the conditions of regressions() in core/analysis/compare/compare.h.
#include <string>
#include <vector>

#include "core/analysis/compare/compare.h"

namespace contend {

enum class CheckOutcome { Passed, Failed, Skipped };

struct CompareCheck {
    std::string name;  // stable, for test reports: "no extra wait added on bandwidth"
    CheckOutcome outcome = CheckOutcome::Passed;
    std::string message;  // the numbers in words, for a failure or a skip ("" when passed)
    std::string detail;   // one line of what was measured, for every outcome
};

std::vector<CompareCheck> compareChecks(const CompareResult& r, const CompareSettings& settings);

// How many checks had the outcome.
std::size_t countChecks(const std::vector<CompareCheck>& checks, CheckOutcome outcome);

}  // namespace contend
