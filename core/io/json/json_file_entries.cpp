// The JSON reader on a file, in memory, and as the reader table's entries (a file, and a folder
// with one PyTorch trace in it): core/io/json/chrome_json_reader.h declares them; the streaming
// reader itself is chrome_json_reader.cpp.
#include <array>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/io/json/chrome_json_reader.h"

namespace contend {

namespace {

// An Ascend trace_view.json read on its own carries no input shapes: they are in its folder's
// kernel_details.csv / operator_details.csv (the Ascend folder reader joins them and clears
// this).
void noteGaps(Source& src, TraceFormat format) {
    if (format != kAscendFormat) return;
    src.gaps.shapes = "an Ascend trace_view.json opened on its own";
    src.gaps.shapesRemedy =
        "Open the whole profiler folder (the *_ascend_pt rank folder or its ASCEND_PROFILER_OUTPUT) "
        "so each call gets its shape from kernel_details.csv.";
}

}  // namespace

std::optional<Failure> readJsonFile(const std::string& path, TraceBuilder& builder, const LoadOptions& options) {
    SourceFactory open = [&](std::string& error) -> std::unique_ptr<ByteSource> {
        auto src = openByteSource(path, error);
        if (!src) return nullptr;
        // Inflating gzip takes a core: it runs ahead on a thread of its own. A plain file is read
        // straight into the reader's buffer (the kernel reads ahead of a sequential reader); a
        // thread in between would only add a copy of every byte.
        if (!src->isGzip()) return src;
        return prefetchByteSource(std::move(src));
    };
    auto err = readChromeJson(open, path, builder, options);
    if (!err) {
        Source src;
        src.path = path;
        std::string e2;
        if (auto s = openByteSource(path, e2)) src.gzip = s->isGzip();
        noteGaps(src, builder.format());
        builder.setSource(src);
    }
    return err;
}

std::optional<Failure> readJsonMemory(std::string_view json, const std::string& name, TraceBuilder& builder,
                                      const LoadOptions& options) {
    SourceFactory open = [&](std::string&) { return memoryByteSource(json); };
    auto err = readChromeJson(open, name, builder, options);
    if (!err) {
        Source src;
        src.path = name;
        noteGaps(src, builder.format());
        builder.setSource(src);
    }
    return err;
}

namespace {

// A folder with exactly one PyTorch trace file in it (as tensorboard writes them).
std::optional<std::string> singleKinetoFile(const std::string& dir) {
    std::optional<std::string> found;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        std::string n = e.path().filename().string();
        auto ends = [&](std::string_view suf) {
            return n.size() >= suf.size() && n.compare(n.size() - suf.size(), suf.size(), suf) == 0;
        };
        if (e.is_regular_file() && (ends(".pt.trace.json") || ends(".pt.trace.json.gz"))) {
            if (found) return std::nullopt;
            found = e.path().string();
        }
    }
    return found;
}

std::optional<Failure> readJsonEntry(const Probe& p, TraceBuilder& b, const LoadOptions& options) {
    return readJsonFile(p.path, b, options);
}

std::optional<Failure> readKinetoFolder(const Probe& p, TraceBuilder& b, const LoadOptions& options) {
    const auto file = singleKinetoFile(p.path);
    if (!file) return Failure{p.path, -1, -1, -1, "the folder's one trace file is gone", Failure::Kind::Unreadable};
    return readJsonFile(*file, b, options);
}

}  // namespace

const FormatInfo kKinetoFormat{
    .name = "kineto",
    .description = "PyTorch profiler (Kineto) JSON, or a folder with one *.pt.trace.json(.gz)",
    .patterns = "*.json *.json.gz *.gz",
    .dialogEntry = "PyTorch/Kineto, Ascend or Chrome JSON",
    .folderWords = "one *.pt.trace.json(.gz) file",
    .rankWords = "Kineto files (*.json, *.json.gz with distributedInfo.rank)",
    .rankFrom = "distributedInfo.rank"};

const FormatInfo kAscendFormat{.name = "ascend",
                               .description = "Ascend PyTorch Profiler trace_view.json opened as a file",
                               .patterns = "*.json *.json.gz *.gz",
                               .dialogEntry = "PyTorch/Kineto, Ascend or Chrome JSON"};

namespace {
constexpr std::array<const FormatInfo*, 3> kJsonFormats{&kChromeFormat, &kKinetoFormat, &kAscendFormat};
}  // namespace

const ReaderEntry kChromeJsonReader{"json", kJsonFormats, [](const Probe& p) { return !p.isDirectory; }, readJsonEntry};
const ReaderEntry kKinetoFolderReader{
    "kineto-folder", kJsonFormats, [](const Probe& p) { return p.isDirectory && singleKinetoFile(p.path).has_value(); },
    readKinetoFolder};

}  // namespace contend
