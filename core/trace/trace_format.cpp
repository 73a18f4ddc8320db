#include "core/trace/trace_format.h"

#include <array>
#include <utility>

namespace contend {

namespace {

constexpr std::array<std::pair<TraceFormat, std::string_view>, 6> kNames{{
    {TraceFormat::Chrome, "chrome"},
    {TraceFormat::Kineto, "kineto"},
    {TraceFormat::Ascend, "ascend"},
    {TraceFormat::AscendFolder, "ascend-folder"},
    {TraceFormat::AscendDb, "ascend-db"},
    {TraceFormat::NsysSqlite, "nsys-sqlite"},
}};

}  // namespace

std::string_view traceFormatName(TraceFormat format) {
    for (const auto& [f, name] : kNames)
        if (f == format) return name;
    return "chrome";
}

std::optional<TraceFormat> traceFormatFromName(std::string_view name) {
    for (const auto& [f, n] : kNames)
        if (n == name) return f;
    return std::nullopt;
}

}  // namespace contend
