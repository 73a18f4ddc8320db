#pragma once
// What kind of file a Trace was read from: the values and the format table's names (the ones
// reports and `contend-cli info` print, and the line `info --help` shows). core/trace stores the
// value (TraceFormat{} is the first, Chrome); the readers that make each format are io's
// (core/io/reader_table.h).
#include <cstdint>
#include <optional>
#include <span>
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

// One row of the format table: the name reports and `contend-cli info` print, and the line
// `contend-cli info --help` shows for it.
struct FormatInfo {
    TraceFormat format;
    std::string_view name;
    std::string_view description;
};
// Every format, in the enum's order.
std::span<const FormatInfo> traceFormats();
// "chrome", "kineto", "ascend", "ascend-folder", "ascend-db", "nsys-sqlite".
std::string_view formatName(TraceFormat format);
// The inverse of formatName; nullopt for any other text.
std::optional<TraceFormat> formatFromName(std::string_view name);

}  // namespace contend
