#include "core/io/reader_table.h"

#include <array>

#include "core/io/db/ascend_db_reader.h"
#include "core/io/db/nsys_sqlite_reader.h"
#include "core/io/json/ascend_folder.h"
#include "core/io/json/chrome_json_reader.h"

namespace contend {

namespace {

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

}  // namespace contend
