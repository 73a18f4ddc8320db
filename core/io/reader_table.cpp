#include "core/io/reader_table.h"

#include <algorithm>
#include <array>
#include <cstddef>

#include "core/io/db/ascend_db_reader.h"
#include "core/io/db/nsys_sqlite_reader.h"
#include "core/io/json/ascend_folder.h"
#include "core/io/json/chrome_json_reader.h"

namespace contend {

namespace {

// The table's own refusals, which list what Contend reads with the words of the formats' rows
// (below): a folder with no trace in it, and, after the SQLite readers and the unreadable
// refusal, any database left (no format's).
std::optional<Failure> refuseFolder(const Probe& p, TraceBuilder&, const LoadOptions&) {
    return Failure{
        p.path, -1, -1, -1, "no trace in this folder: expected " + folderRefusalWords(), Failure::Kind::NotATrace};
}

std::optional<Failure> refuseOtherSqlite(const Probe& p, TraceBuilder&, const LoadOptions&) {
    return Failure{p.path, 0, -1, -1, "an SQLite database that is " + databaseRefusalWords(), Failure::Kind::NotATrace};
}

const ReaderEntry kFolderWithoutTraceRefusal{
    "folder-without-trace", {}, [](const Probe& p) { return p.isDirectory; }, refuseFolder};
const ReaderEntry kOtherSqliteRefusal{"other-sqlite", {}, [](const Probe& p) { return p.sqlite; }, refuseOtherSqlite};

// The reader table: the first entry whose sniff accepts a path reads it. Folders first (an
// Ascend folder before the single-Kineto-file folder, which a rank folder could also be), then
// SQLite databases (by their tables; a database no reader takes is refused after them), then
// the files that are not traces, and JSON last: whatever is left.
constexpr std::array kReaders{
    &kAscendFolderReader, &kKinetoFolderReader,      &kFolderWithoutTraceRefusal, &kNsysSqliteReader,
    &kAscendDbReader,     &kUnreadableSqliteRefusal, &kAscendAnalysisDbRefusal,   &kOtherSqliteRefusal,
    &kNotSqliteRefusal,   &kNsysReportRefusal,       &kChromeJsonReader,
};

}  // namespace

std::span<const ReaderEntry* const> readerTable() { return kReaders; }

const ReaderEntry* pickReader(const Probe& probe) {
    for (const ReaderEntry* e : readerTable())
        if (e->sniff(probe)) return e;
    return nullptr;
}

bool isRankFolder(const std::string& dir) {
    for (const ReaderEntry* e : readerTable())
        if (e->ranks && e->ranks->isRankFolder(dir)) return true;
    return false;
}

bool isOwnTraceFolder(const std::string& dir) {
    for (const ReaderEntry* e : readerTable())
        if (e->ranks && e->ranks->isOwnFolder(dir)) return true;
    return false;
}

bool isProfilerSideFile(std::string_view filename) {
    for (const ReaderEntry* e : readerTable())
        if (e->ranks && e->ranks->isSideFile(filename)) return true;
    return false;
}

std::optional<Failure> readProbe(const Probe& probe, TraceBuilder& builder, const LoadOptions& options) {
    if (const ReaderEntry* e = pickReader(probe)) return e->read(probe, builder, options);
    return Failure{probe.path, -1, -1, -1, "no reader for this path", Failure::Kind::Internal};
}

namespace {

// `items` joined by `separator`, `last` before the last one ("a, b or c").
std::string joined(const std::vector<std::string_view>& items, std::string_view separator, std::string_view last) {
    std::string out;
    for (std::size_t k = 0; k < items.size(); ++k) {
        if (k) out += k + 1 == items.size() ? last : separator;
        out += items[k];
    }
    return out;
}

// The formats' non-empty `field`, in their order, each once.
std::vector<std::string_view> fieldOf(std::string_view FormatInfo::*field) {
    std::vector<std::string_view> out;
    for (const FormatInfo* f : traceFormats())
        if (!(f->*field).empty() && std::find(out.begin(), out.end(), f->*field) == out.end()) out.push_back(f->*field);
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

const std::vector<const FormatInfo*>& traceFormats() {
    static const std::vector<const FormatInfo*> formats = [] {
        std::vector<const FormatInfo*> out;
        for (const ReaderEntry* e : readerTable())
            for (const FormatInfo* f : e->formats)
                if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
        std::sort(out.begin(), out.end(), [](const FormatInfo* a, const FormatInfo* b) { return a->name < b->name; });
        return out;
    }();
    return formats;
}

std::optional<TraceFormat> formatFromName(std::string_view name) {
    for (const FormatInfo* f : traceFormats())
        if (f->name == name) return TraceFormat(*f);
    return std::nullopt;
}

std::string formatLines(std::string_view indent) {
    std::string out;
    for (const FormatInfo* f : traceFormats()) {
        std::string name(f->name);
        name.resize(std::max<std::size_t>(name.size() + 1, 15), ' ');
        out += std::string(indent) + name + std::string(f->description) + "\n";
    }
    return out;
}

std::string openDialogFilter() {
    std::vector<std::string_view> all;
    std::string entries;
    std::vector<std::string_view> seen;
    for (const FormatInfo* f : traceFormats()) {
        for (std::string_view p : split(f->patterns, " "))
            if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
        if (f->dialogEntry.empty() || std::find(seen.begin(), seen.end(), f->dialogEntry) != seen.end()) continue;
        seen.push_back(f->dialogEntry);
        entries += std::string(f->dialogEntry) + " (" + std::string(f->patterns) + ");;";
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
