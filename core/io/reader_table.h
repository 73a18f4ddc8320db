#pragma once
// The reader table: every reader and refusal loadTrace tries, in order. The first entry whose
// sniff accepts the path reads it (or refuses it with the reason). Folders first, then SQLite
// databases, then the refusals of files that look like a trace but are not one, and the JSON
// reader last, for everything else. Adding a format: its reader file (which defines its
// ReaderEntry, core/io/reader_entry.h), its TraceFormat value and row in the format table
// (core/trace/trace_format.h), and its entry here; every text that lists formats (usage, help,
// the Open dialog, the refusals) is made from the format table.
#include <optional>
#include <span>
#include <string>
#include <string_view>

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

}  // namespace contend
