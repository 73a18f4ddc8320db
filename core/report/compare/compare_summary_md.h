#pragma once
// A short Markdown summary of a compare for a pull-request comment: the verdict line, a table of
// end-to-end time, anomalies, windows and clusters before -> after, the checks that failed, and
// the five operators whose total time changed most. Unlike compareToMarkdown (the full review
// report) it names no files: the paths are local to the CI runner and mean nothing in a comment.
// Operator names are put in code spans with '|' and '`' neutralised, so a name from a trace
// cannot break the table or inject links.
#include <string>

#include "core/analysis/compare/compare.h"

namespace contend {

std::string compareSummaryMarkdown(const CompareResult& r, const CompareSettings& settings);

}  // namespace contend
