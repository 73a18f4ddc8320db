#pragma once
// The reader table, which is also the format table: every reader and refusal loadTrace tries, in
// order. The first entry whose sniff accepts the path reads it (or refuses it with the reason).
// Folders first, then SQLite databases, then the refusals of files that look like a trace but are
// not one, and the JSON reader last, for everything else. Each reader entry carries the rows
// (FormatInfo, core/trace/trace_format.h) of the formats it reads, so the formats Contend reads
// are the table's, and every text that lists them (usage, help, the Open dialog, the refusals,
// `contend.formats()`) is made here from those rows. Adding a format is its reader file (which
// defines its FormatInfo row and its ReaderEntry, core/io/reader_entry.h) and its entry's row in
// this table (reader_table.cpp); nothing else.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/failure.h"
#include "core/io/reader_entry.h"

namespace contend {

std::span<const ReaderEntry* const> readerTable();
// The first entry of the table that accepts `probe` (nullptr when none does).
const ReaderEntry* pickReader(const Probe& probe);
// Reads `probe` with the entry pickReader gives into `builder` (not finalized). The failure of
// that read, or its refusal.
std::optional<Failure> readProbe(const Probe& probe, TraceBuilder& builder, const LoadOptions& options);

// A folder of ranks as the readers lay it out (each entry's RankLayout, reader_entry.h), for
// core/pipeline/cluster_run.h: a folder that is one rank by its name, a folder that is one
// rank's own output (opened as one trace), a file a profiler writes beside its traces.
bool isRankFolder(const std::string& dir);
bool isOwnTraceFolder(const std::string& dir);
bool isProfilerSideFile(std::string_view filename);

// Every format the table reads, each once, ordered by name (the order every list shows them in).
const std::vector<const FormatInfo*>& traceFormats();
// The format of that name; nullopt for any other text.
std::optional<TraceFormat> formatFromName(std::string_view name);

// The texts made from the formats' rows:
// - formatLines: one line per format, "  NAME           DESCRIPTION\n" (the names in one column).
// - openDialogFilter: the app's Open dialog filter, Qt's syntax: every pattern as "Traces", one
//   entry per dialogEntry, "All files (*)".
// - folderRefusalWords: what a folder must hold ("one *.pt.trace.json(.gz) file, ..., or
//   msprof_*.db").
// - databaseRefusalWords: what a database must be ("neither an X nor a Y (no T, no U)").
// - rankLayoutWords: what ranks a folder of ranks holds, joined by `separator`.
// - rankFromWords: where a rank's number comes from ("distributedInfo.rank or profiler_info_N.json").
std::string formatLines(std::string_view indent = "  ");
std::string openDialogFilter();
std::string folderRefusalWords();
std::string databaseRefusalWords();
std::string rankLayoutWords(std::string_view separator);
std::string rankFromWords();

}  // namespace contend
