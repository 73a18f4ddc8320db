#pragma once
// The "contend.report/2" JSON contract and the Markdown report. Version 2 added the what-if
// (dependency graph, critical paths, predicted gains: core/analysis/whatif/whatif.h); version 1 reports
// are still read (without it).
//
// Every item carries slice-independent data (name, pid, tid as in the file, track label,
// start_ns on the trace's own clock) so a saved report can be read back (compare) without the
// trace. Slice indices are kept too ("slice"), valid only against the same trace.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/analysis/model/report.h"
#include "core/common/failure.h"
#include "core/report/single/finding_rank.h"
#include "core/trace/trace.h"

namespace contend {

inline constexpr const char* kReportSchema = "contend.report/2";
inline constexpr const char* kReportSchemaV1 = "contend.report/1";  // read, never written

// `trace` fills names and labels the report lacks (a report built by hand); the engine's
// reports already carry them.
// The text we write for any of our JSON documents: 2-space indent, one trailing newline, and
// any byte that is not UTF-8 replaced by U+FFFD rather than thrown on (names come from files we
// did not write).
std::string jsonText(const nlohmann::json& j);

// A pid or tid as the file wrote it: a number when it is an integer ("7", "-1"), else the text
// ("GPU 0", "007").
nlohmann::json idJson(const std::string& text);

nlohmann::json reportToJson(const Report& report, const Trace& trace);
nlohmann::json reportToJson(const Report& report);

// Writes jsonText(reportToJson(report, *trace)) to `out` without building the document: one
// anomaly, window, ... at a time, so a report with a million findings costs the memory of one
// of them (the document would cost several times the text). `trace` may be null.
void writeReportJson(std::ostream& out, const Report& report, const Trace* trace);

// Reads a report written by reportToJson (report/2, or report/1 without the what-if). A Failure
// of kind Malformed when the schema is neither or a required field is missing or of the wrong
// type; its reason names the field ("report: missing \"settings\""), its file is empty (the
// caller knows the file). The build that wrote it goes to Report::producer (not known for a
// report written before 0.7.0); reportToJson always records this build's (producer_json.h).
Result<Report> reportFromJson(const nlohmann::json& j);

// A human-readable report: summary, top anomalies, windows and clusters with causes, costs and
// what to try. Implemented in report_markdown.cpp.
// Findings in `rank` order (finding_rank.h); the top rows of each section, with a count of the
// rest ("... and 12,345 more").
std::string reportToMarkdown(const Report& report, const Trace& trace, FindingRank rank = FindingRank::Gain);
void writeReportMarkdown(std::ostream& out, const Report& report, const Trace& trace,
                         FindingRank rank = FindingRank::Gain);

}  // namespace contend
