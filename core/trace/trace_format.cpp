#include "core/trace/trace_format.h"

#include <array>
#include <cstddef>

namespace contend {

namespace {

// The format table, in the enum's order (static_assert below).
constexpr std::array kFormats{
    FormatInfo{TraceFormat::Chrome, "chrome", "Chrome/Perfetto trace-event JSON (.json, .json.gz)"},
    FormatInfo{TraceFormat::Kineto, "kineto",
               "PyTorch profiler (Kineto) JSON, or a folder with one *.pt.trace.json(.gz)"},
    FormatInfo{TraceFormat::Ascend, "ascend", "Ascend PyTorch Profiler trace_view.json opened as a file"},
    FormatInfo{TraceFormat::AscendFolder, "ascend-folder",
               "an Ascend profiler folder's text export (trace_view.json and its CSVs joined)"},
    FormatInfo{TraceFormat::AscendDb, "ascend-db",
               "an Ascend profiler database (ascend_pytorch_profiler_N.db, msprof_*.db) or folder"},
    FormatInfo{TraceFormat::NsysSqlite, "nsys-sqlite",
               "an Nsight Systems SQLite export (.sqlite from nsys export --type sqlite)"},
};

constexpr bool inEnumOrder() {
    for (std::size_t i = 0; i < kFormats.size(); ++i)
        if (static_cast<std::size_t>(kFormats[i].format) != i) return false;
    return true;
}
static_assert(inEnumOrder(), "kFormats lists the formats in the enum's order");

}  // namespace

std::span<const FormatInfo> traceFormats() { return kFormats; }

std::string_view formatName(TraceFormat format) {
    for (const FormatInfo& f : kFormats)
        if (f.format == format) return f.name;
    return kFormats.front().name;
}

std::optional<TraceFormat> formatFromName(std::string_view name) {
    for (const FormatInfo& f : kFormats)
        if (f.name == name) return f.format;
    return std::nullopt;
}

}  // namespace contend
