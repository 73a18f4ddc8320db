#pragma once
// The reader table: every reader and refusal loadTrace tries, in order. The first entry whose
// sniff accepts the path reads it (or refuses it with the reason). Folders first, then SQLite
// databases, then the refusals of files that look like a trace but are not one, and the JSON
// reader last, for everything else. Adding a format: its reader file (which defines its
// ReaderEntry, core/io/reader_entry.h), its TraceFormat value and row in the format table
// (core/trace/trace_format.h), and its entry here.
#include <optional>
#include <span>

#include "core/common/failure.h"
#include "core/io/reader_entry.h"

namespace contend {

std::span<const ReaderEntry* const> readerTable();
// The first entry of the table that accepts `probe` (nullptr when none does).
const ReaderEntry* pickReader(const Probe& probe);
// Reads `probe` with the entry pickReader gives into `builder` (not finalized). The failure of
// that read, or its refusal.
std::optional<Failure> readProbe(const Probe& probe, TraceBuilder& builder, const LoadOptions& options);

}  // namespace contend
