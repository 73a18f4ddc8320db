#include "core/trace/trace_format.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace contend {

namespace {

// The format table, in the enum's order (static_assert below).
constexpr std::array kFormats{
    FormatInfo{.format = TraceFormat::Chrome,
               .name = "chrome",
               .description = "Chrome/Perfetto trace-event JSON (.json, .json.gz)",
               .patterns = "*.json *.json.gz *.gz",
               .dialogEntry = "PyTorch/Kineto, Ascend or Chrome JSON"},
    FormatInfo{.format = TraceFormat::Kineto,
               .name = "kineto",
               .description = "PyTorch profiler (Kineto) JSON, or a folder with one *.pt.trace.json(.gz)",
               .patterns = "*.json *.json.gz *.gz",
               .dialogEntry = "PyTorch/Kineto, Ascend or Chrome JSON",
               .folderWords = "one *.pt.trace.json(.gz) file",
               .rankWords = "Kineto files (*.json, *.json.gz with distributedInfo.rank)",
               .rankFrom = "distributedInfo.rank"},
    FormatInfo{.format = TraceFormat::Ascend,
               .name = "ascend",
               .description = "Ascend PyTorch Profiler trace_view.json opened as a file",
               .patterns = "*.json *.json.gz *.gz",
               .dialogEntry = "PyTorch/Kineto, Ascend or Chrome JSON"},
    FormatInfo{.format = TraceFormat::AscendFolder,
               .name = "ascend-folder",
               .description = "an Ascend profiler folder's text export (trace_view.json and its CSVs joined)",
               .folderWords = "ASCEND_PROFILER_OUTPUT/trace_view.json, trace_view.json",
               .rankWords = "Ascend rank folders (*_ascend_pt with profiler_info_N.json)",
               .rankFrom = "profiler_info_N.json"},
    FormatInfo{.format = TraceFormat::AscendDb,
               .name = "ascend-db",
               .description = "an Ascend profiler database (ascend_pytorch_profiler_N.db, msprof_*.db) or folder",
               .patterns = "*.db",
               .dialogEntry = "Ascend profiler database",
               .folderWords = "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_N.db, msprof_*.db",
               .databaseWords = "an Ascend profiler database",
               .databaseTables = "TASK and STRING_IDS tables"},
    FormatInfo{.format = TraceFormat::NsysSqlite,
               .name = "nsys-sqlite",
               .description = "an Nsight Systems SQLite export (.sqlite from nsys export --type sqlite)",
               .patterns = "*.sqlite",
               .dialogEntry = "Nsight Systems SQLite export",
               .databaseWords = "an Nsight Systems export",
               .databaseTables = "CUPTI_ACTIVITY_KIND_KERNEL"},
};

constexpr bool inEnumOrder() {
    for (std::size_t i = 0; i < kFormats.size(); ++i)
        if (static_cast<std::size_t>(kFormats[i].format) != i) return false;
    return true;
}
static_assert(inEnumOrder(), "kFormats lists the formats in the enum's order");

// `items` joined by `separator`, `last` before the last one ("a, b or c").
std::string joined(const std::vector<std::string_view>& items, std::string_view separator, std::string_view last) {
    std::string out;
    for (std::size_t k = 0; k < items.size(); ++k) {
        if (k) out += k + 1 == items.size() ? last : separator;
        out += items[k];
    }
    return out;
}

// The rows' non-empty `field`, in the table's order, each once.
std::vector<std::string_view> fieldOf(std::string_view FormatInfo::*field) {
    std::vector<std::string_view> out;
    for (const FormatInfo& f : kFormats)
        if (!(f.*field).empty() && std::find(out.begin(), out.end(), f.*field) == out.end()) out.push_back(f.*field);
    return out;
}

// Splits "a b c" at `separator`.
std::vector<std::string_view> split(std::string_view text, std::string_view separator) {
    std::vector<std::string_view> out;
    while (!text.empty()) {
        const std::size_t at = text.find(separator);
        out.push_back(text.substr(0, at));
        text = at == std::string_view::npos ? std::string_view{} : text.substr(at + separator.size());
    }
    return out;
}

}  // namespace

std::span<const FormatInfo> traceFormats() { return kFormats; }

const FormatInfo& formatInfo(TraceFormat format) {
    for (const FormatInfo& f : kFormats)
        if (f.format == format) return f;
    return kFormats.front();
}

std::string_view formatName(TraceFormat format) { return formatInfo(format).name; }

std::optional<TraceFormat> formatFromName(std::string_view name) {
    for (const FormatInfo& f : kFormats)
        if (f.name == name) return f.format;
    return std::nullopt;
}

std::string formatLines(std::string_view indent) {
    std::string out;
    for (const FormatInfo& f : kFormats) {
        std::string name(f.name);
        name.resize(std::max<std::size_t>(name.size() + 1, 15), ' ');
        out += std::string(indent) + name + std::string(f.description) + "\n";
    }
    return out;
}

std::string openDialogFilter() {
    std::vector<std::string_view> all;
    std::string entries;
    std::vector<std::string_view> seen;
    for (const FormatInfo& f : kFormats) {
        for (std::string_view p : split(f.patterns, " "))
            if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
        if (f.dialogEntry.empty() || std::find(seen.begin(), seen.end(), f.dialogEntry) != seen.end()) continue;
        seen.push_back(f.dialogEntry);
        entries += std::string(f.dialogEntry) + " (" + std::string(f.patterns) + ");;";
    }
    return "Traces (" + joined(all, " ", " ") + ");;" + entries + "All files (*)";
}

std::string folderRefusalWords() {
    std::vector<std::string_view> items;
    for (std::string_view words : fieldOf(&FormatInfo::folderWords))
        for (std::string_view w : split(words, ", ")) items.push_back(w);
    return joined(items, ", ", items.size() > 2 ? ", or " : " or ");
}

std::string databaseRefusalWords() {
    const std::vector<std::string_view> what = fieldOf(&FormatInfo::databaseWords);
    std::string tables;
    for (std::string_view t : fieldOf(&FormatInfo::databaseTables))
        tables += (tables.empty() ? "no " : ", no ") + std::string(t);
    return (what.size() == 1 ? "not " : "neither ") + joined(what, " nor ", " nor ") + " (" + tables + ")";
}

std::string rankLayoutWords(std::string_view separator) {
    return joined(fieldOf(&FormatInfo::rankWords), separator, separator);
}

std::string rankFromWords() { return joined(fieldOf(&FormatInfo::rankFrom), " or ", " or "); }

}  // namespace contend
