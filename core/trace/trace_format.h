#pragma once
// What kind of file a Trace was read from: the values and the format table, which owns every
// word Contend says about a format: its name (reports, `contend-cli info`), its line in the
// format lists (`info --help`, the usage texts of contend-cli and contend), its files' name
// patterns and its entry in the app's Open dialog, what the refusals say Contend reads, and what
// a many-rank job of it looks like. core/trace stores the value (TraceFormat{} is the first,
// Chrome); the readers that make each format are io's (core/io/reader_table.h). Adding a format
// is its reader file, its value here and its row in kFormats (trace_format.cpp); every text
// below is made from the rows.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace contend {

// Chrome is first (0, the value of TraceFormat{}, what a TraceBuilder starts with).
enum class TraceFormat : std::uint8_t {
    Chrome,        // Chrome/Perfetto trace-event JSON with nothing Kineto or Ascend about it
    Kineto,        // PyTorch profiler (Kineto) JSON
    Ascend,        // Ascend PyTorch Profiler trace_view.json, read as a file
    AscendFolder,  // an Ascend profiler output folder's text export (trace_view.json + side CSVs)
    AscendDb,      // an Ascend profiler database (ascend_pytorch_profiler_N.db, msprof_*.db)
    NsysSqlite,    // an Nsight Systems SQLite export
};

// One row of the format table. Every text field but the name may be empty ("not this format's").
struct FormatInfo {
    TraceFormat format;
    std::string_view name;  // what reports and `contend-cli info` print: "kineto"
    // Its usage line: what it is and the files it comes as, as the format lists show it
    // (formatLines: `info --help`, the usage texts of contend-cli and contend).
    std::string_view description;
    // The name patterns of its files, space-separated ("*.json *.json.gz"); empty for a folder.
    std::string_view patterns;
    // Its entry in the Open dialog's filter (the patterns are added); rows with the same entry
    // share one, with the patterns of the first.
    std::string_view dialogEntry;
    // What a folder of it holds, ", "-separated, for the refusal of a folder with no trace.
    std::string_view folderWords;
    // An SQLite format: what it is ("an Nsight Systems export") and the tables that make it
    // ("CUPTI_ACTIVITY_KIND_KERNEL"), for the refusal of a database no reader takes.
    std::string_view databaseWords;
    std::string_view databaseTables;
    // A many-rank job of it: what one rank is ("Kineto files (*.json, ...)"), and where a rank's
    // number comes from ("distributedInfo.rank").
    std::string_view rankWords;
    std::string_view rankFrom;
};

// Every format, in the enum's order.
std::span<const FormatInfo> traceFormats();
const FormatInfo& formatInfo(TraceFormat format);
// "chrome", "kineto", "ascend", "ascend-folder", "ascend-db", "nsys-sqlite".
std::string_view formatName(TraceFormat format);
// The inverse of formatName; nullopt for any other text.
std::optional<TraceFormat> formatFromName(std::string_view name);

// The texts made from the table:
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
