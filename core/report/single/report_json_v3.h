#pragma once
// contend.report/3: the report/2 information without its repetition (docs/report-schema.md,
// "contend.report/3"). The findings that grow with the trace (anomalies, windows and their
// operators, clusters, a pattern's runs) are columnar tables: one array per field, every array
// as long as the table's `rows`; text (names, tracks, causes, evidence templates) is an index into
// the document's `strings`; a column whose every value is its default, or is what the operators
// and threads sections already say (an anomaly's name and track, its baseline and excess), is left
// out; evidence is a shared template and its numbers (evidence_code.h); times in the findings
// count from `time_origin_ns`, a pattern's runs from the run before. The other sections are
// report/2's.
//
// contend.report/4 (the default since 0.8.x) is /3 with less again, the same information: every
// slice the anomalies, window operators and pattern runs name has its start and duration once, in
// the table `slices` (sorted by slice, both columns as differences from the row before), and those
// tables leave their `start_ns` and `dur_ns` out; `score` is `score_f32` when every score is a
// 32-bit float (the engine's are), each the shortest decimal that reads back as that float; and a
// breakdown's `compute_ns` is left out when it is the duration less the other three parts.
#include <iosfwd>
#include <nlohmann/json.hpp>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"

namespace contend {

inline constexpr const char* kReportSchemaV3 = "contend.report/3";
inline constexpr const char* kReportSchemaV4 = "contend.report/4";

// The whole document as report/`version` (3 or 4), streamed: each column is written in one pass
// over its findings, so the memory is the report's (and one block of text), never the
// document's. `trace` may be null.
void writeReportJsonV3(std::ostream& out, const Report& report, const Trace* trace, int version = 4);

// Reads the columnar sections of a report/3 or /4 (`version`) document (`anomalies`, `windows`,
// `clusters`, `patterns`, with `strings`, `time_origin_ns` and /4's `slices`) into `r`, whose operators and threads are
// already read (a column left out is derived from them). Throws jsonfields::JsonFieldError naming
// the place ("anomalies.score[12]: not a number") on anything that does not fit.
void readFindingsV3(const nlohmann::json& doc, Report& r, int version);

}  // namespace contend
