#pragma once
// The "contend.report/4" JSON contract (report_json_v3.h: report/2's information, its findings
// columnar, without repeated text, each slice's times once), "contend.report/3" and
// "contend.report/2" on request, and the Markdown report.
// Version 2 added the what-if (dependency graph, critical paths, predicted gains:
// core/analysis/whatif/whatif.h); version 1 reports are still read (without it).
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
#include "core/report/single/report_json_v3.h"
#include "core/report/single/report_sections.h"
#include "core/trace/trace.h"

namespace contend {

inline constexpr const char* kReportSchema = kReportSchemaV4;       // written (report_json_v3.h)
inline constexpr const char* kReportSchemaV2 = "contend.report/2";  // read, and written on request
inline constexpr const char* kReportSchemaV1 = "contend.report/1";  // read, never written

// The contract a report is written as: report/4 (the default), or report/3 or /2 for a tool that
// reads only that (`contend-cli analyze --json-schema 3`). All say the same: reportFromJson reads
// each into the same Report.
enum class ReportSchemaVersion { V2 = 2, V3 = 3, V4 = 4 };

// The text we write for any of our JSON documents but a report/3 or /4: 2-space indent, one trailing
// newline, and any byte that is not UTF-8 replaced by U+FFFD rather than thrown on (names come from
// files we did not write).
std::string jsonText(const nlohmann::json& j);

// The report as a document. `trace` fills names and labels the report lacks (a report built by
// hand); the engine's reports already carry them.
nlohmann::json reportToJson(const Report& report, const Trace& trace,
                            ReportSchemaVersion version = ReportSchemaVersion::V4);
nlohmann::json reportToJson(const Report& report, ReportSchemaVersion version = ReportSchemaVersion::V4);

// Writes the report's text to `out` without building the document: a report/2 one finding at a
// time (jsonText(reportToJson(...)), byte for byte), a report/3 or /4 one column at a time (its sections'
// members one per line, what is inside them on that line), so a report with a million findings
// costs the memory of the report, not of its document. `trace` may be null.
void writeReportJson(std::ostream& out, const Report& report, const Trace* trace,
                     ReportSchemaVersion version = ReportSchemaVersion::V4);
// The same text as a string (what the app and merge save).
std::string reportJsonText(const Report& report, const Trace* trace,
                           ReportSchemaVersion version = ReportSchemaVersion::V4);

// Reads a report written by reportToJson (report/4, /3 or /2, or report/1 without the what-if). A Failure
// of kind Malformed when the schema is neither or a required field is missing or of the wrong
// type; its reason names the field ("report: missing \"settings\""), its file is empty (the
// caller knows the file). The build that wrote it goes to Report::producer (not known for a
// report written before 0.7.0); reportToJson always records this build's (producer_json.h).
Result<Report> reportFromJson(const nlohmann::json& j);

// A human-readable report: summary, top anomalies, windows and clusters with causes, costs and
// what to try. Implemented in report_markdown.cpp.
// Findings in `rank` order (finding_rank.h); at most kMarkdownTop rows per section (patterns,
// anomalies, windows, clusters, operators), then where the rest are: "... and 12,345 more: see the
// JSON report (`report.json`)", naming `jsonFile` (the JSON written beside it) when given, else
// the command that writes it. A report of a million findings stays a page.
inline constexpr std::size_t kMarkdownTop = 20;
std::string reportToMarkdown(const Report& report, const Trace& trace, FindingRank rank = FindingRank::Gain,
                             const std::string& jsonFile = {});
void writeReportMarkdown(std::ostream& out, const Report& report, const Trace& trace,
                         FindingRank rank = FindingRank::Gain, const std::string& jsonFile = {});

}  // namespace contend
