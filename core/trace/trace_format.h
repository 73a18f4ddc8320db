#pragma once
// What kind of file a Trace was read from. The name table (traceFormatName) is the one place the
// names written to reports and `contend-cli info` are spelled.
#include <cstdint>
#include <optional>
#include <string_view>

namespace contend {

enum class TraceFormat : std::uint8_t {
    Chrome,        // Chrome/Perfetto trace-event JSON with nothing Kineto or Ascend about it
    Kineto,        // PyTorch profiler (Kineto) JSON
    Ascend,        // Ascend PyTorch Profiler trace_view.json, read as a file
    AscendFolder,  // an Ascend profiler output folder's text export (trace_view.json + side CSVs)
    AscendDb,      // an Ascend profiler database (ascend_pytorch_profiler_N.db, msprof_*.db)
    NsysSqlite,    // an Nsight Systems SQLite export
};

// "chrome", "kineto", "ascend", "ascend-folder", "ascend-db", "nsys-sqlite".
std::string_view traceFormatName(TraceFormat format);
// The inverse of traceFormatName; nullopt for any other text.
std::optional<TraceFormat> traceFormatFromName(std::string_view name);

}  // namespace contend
