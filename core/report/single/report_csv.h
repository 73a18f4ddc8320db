#pragma once
// A report as CSV files for spreadsheets: anomalies.csv, windows.csv, clusters.csv,
// operators.csv (one row per signature), notes.csv, patterns.csv (contention patterns) and
// breakdowns.csv (HTA's breakdowns, one figure per row: core/report/breakdowns/breakdowns_text.h). RFC 4180: a header row, CRLF line ends,
// a cell quoted when it holds a comma, a quote, CR or LF, quotes doubled inside. Times are
// integers in ns (columns named *_ns) with a human column beside the ones people read
// ("excess" = "1.20 ms"); causes and provenance by name, as in contend.report/1; evidence as
// its one line of words. One row per item of the report, in the report's order.
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/common/failure.h"

namespace contend {

struct CsvFile {
    std::string name;  // "anomalies.csv"
    std::string text;
};

// The seven files, pure.
std::vector<CsvFile> reportToCsv(const Report& report);

// Writes them into `dir` (created with its parents when missing), each file atomically. Returns
// nullopt, or the first failure (kind Unreadable: "cannot create the folder DIR: ..." or the
// file's writeFileAtomically failure); files already written stay.
std::optional<Failure> writeReportCsv(const Report& report, const std::string& dir);

}  // namespace contend
