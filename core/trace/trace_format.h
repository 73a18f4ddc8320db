#pragma once
// What kind of file a Trace was read from. A format is one row of the format table (FormatInfo),
// which owns every word Contend says about it: its name (reports, `contend-cli info`), its line in
// the format lists (`info --help`, the usage texts of contend-cli and contend), its files' name
// patterns and its entry in the app's Open dialog, what the refusals say Contend reads, and what
// a many-rank job of it looks like. Each reader file defines the rows of the formats it reads
// beside its reader entry, and the reader table (core/io/reader_table.h) lists the entries: that
// table is the format table, and the texts that list formats are made from it there. Adding a
// format is its reader file and its entry's row in that table; core/trace holds only the row of
// the generic trace-event format every trace starts as (kChromeFormat, TraceFormat{}).
#include <string_view>

namespace contend {

// One row of the format table. Every text field but the name may be empty ("not this format's").
struct FormatInfo {
    std::string_view name;  // what reports and `contend-cli info` print: "kineto"; distinct
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

// Chrome/Perfetto trace-event JSON with nothing of a profiler's own about it: the format of a
// trace no reader named (TraceFormat{}, what a TraceBuilder starts with).
extern const FormatInfo kChromeFormat;

// The format a trace was read as: a row of the format table, compared by identity (a value, cheap
// to copy; TraceFormat{} is kChromeFormat). A row converts to its format.
class TraceFormat {
  public:
    constexpr TraceFormat() noexcept = default;
    constexpr TraceFormat(const FormatInfo& row) noexcept : m_row(&row) {}

    const FormatInfo& info() const noexcept { return m_row ? *m_row : kChromeFormat; }
    std::string_view name() const noexcept { return info().name; }

    friend bool operator==(TraceFormat a, TraceFormat b) noexcept { return &a.info() == &b.info(); }

  private:
    const FormatInfo* m_row = nullptr;
};

// "chrome", "kineto", "ascend", "ascend-folder", "ascend-db", "nsys-sqlite", ...
inline std::string_view formatName(TraceFormat format) { return format.name(); }

}  // namespace contend
