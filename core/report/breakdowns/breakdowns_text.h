#pragma once
// The breakdowns (core/analysis/breakdowns) for people: a Markdown section of the report, and
// the rows of breakdowns.csv (one figure per row, long form, for a spreadsheet's pivot), which
// report_csv.cpp writes with the other files.
#include <ostream>
#include <string>
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"

namespace contend {

// "## Breakdowns (HTA's figures)": temporal and overlap per rank, idle and queue length per
// stream, bandwidth per copy kind, the 10 kernels and annotations with the most device time,
// and what was not computed and why. Nothing for breakdowns never computed (an old report) or
// a trace without device operations.
void writeBreakdownsMarkdown(std::ostream& o, const TraceBreakdowns& b);

// Header first: section, rank, subject (stream, copy kind, kernel or annotation name), figure
// (the JSON field's name), value, note (a section's reason when not computed).
std::vector<std::vector<std::string>> breakdownsCsvRows(const TraceBreakdowns& b);

}  // namespace contend
