#include "core/io/reader_entry.h"

#include <filesystem>
#include <fstream>

#include "core/io/db/sqlite_db.h"
#include "core/trace/trace_format.h"

namespace contend {

namespace fs = std::filesystem;

std::string Probe::filename() const { return fs::path(path).filename().string(); }

std::string Probe::extension() const { return fs::path(path).extension().string(); }

namespace {

// Opens the database and reads its table names, once, for the sniffs.
void openDatabase(Probe& p) {
    p.sqlite = true;
    p.db = SqliteDb::open(p.path, p.sqliteError);
    if (p.db && p.sqliteError.empty()) p.sqliteTables = p.db->tables(p.sqliteError);
}

}  // namespace

Probe probePath(const std::string& path) {
    Probe p;
    p.path = path;
    std::error_code ec;
    p.isDirectory = fs::is_directory(path, ec);
    if (p.isDirectory) return p;
    p.isRegularFile = fs::is_regular_file(path, ec);
    std::ifstream f(path, std::ios::binary);
    char head[kProbeHeadBytes] = {};
    f.read(head, sizeof head);
    p.head.assign(head, static_cast<std::size_t>(f.gcount()));
    // SQLite's file header: "SQLite format 3" and a NUL.
    if (p.head.size() == 16 && std::string_view(p.head).substr(0, 15) == "SQLite format 3" && p.head[15] == '\0')
        openDatabase(p);
    return p;
}

Probe probeDatabase(const std::string& path) {
    Probe p;
    p.path = path;
    std::error_code ec;
    p.isRegularFile = fs::is_regular_file(path, ec);
    openDatabase(p);
    return p;
}

bool sniffDatabase(const Probe& p, IsDatabaseFormat isFormat) {
    return p.db && p.sqliteError.empty() && isFormat(p.sqliteTables);
}

namespace {

void setDatabaseSource(TraceBuilder& builder, const std::string& path) {
    Source src;
    src.path = path;
    src.details = std::move(builder.source().details);
    src.devices = std::move(builder.source().devices);
    src.gaps = std::move(builder.source().gaps);
    builder.setSource(src);
    std::error_code ec;
    builder.stats().fileBytes = static_cast<std::uint64_t>(fs::file_size(path, ec));
}

}  // namespace

std::optional<Failure> readDatabase(const Probe& p, TraceBuilder& b, const LoadOptions& options, TraceFormat format,
                                    ReadDatabase read) {
    b.setFormat(format);
    auto err = read(*p.db, p.path, b, options);
    if (!err) setDatabaseSource(b, p.path);
    return err;
}

namespace {

bool unreadableSqlite(const Probe& p) { return p.sqlite && (!p.db || !p.sqliteError.empty()); }

// The two SQLite refusals' reasons, as functions of the probe alone (refuseDatabase gives them
// too, with no builder to read into).
Failure unreadableSqliteFailure(const Probe& p) {
    return Failure{p.path, -1, -1, -1, "cannot read this SQLite database: " + p.sqliteError, Failure::Kind::Unreadable};
}

std::optional<Failure> refuseUnreadableSqlite(const Probe& p, TraceBuilder&, const LoadOptions&) {
    return unreadableSqliteFailure(p);
}

bool notSqlite(const Probe& p) {
    const std::string ext = p.extension();
    return !p.sqlite && p.isRegularFile && (ext == ".db" || ext == ".sqlite");
}

Failure notSqliteFailure(const Probe& p) {
    return Failure{p.path,
                   0,
                   -1,
                   -1,
                   "not an SQLite database: the file does not start with the SQLite header (\"SQLite format 3\"); "
                   "an empty, truncated or different file?",
                   Failure::Kind::NotATrace};
}

std::optional<Failure> refuseNotSqlite(const Probe& p, TraceBuilder&, const LoadOptions&) {
    return notSqliteFailure(p);
}

}  // namespace

const ReaderEntry kUnreadableSqliteRefusal{"unreadable-sqlite", {}, unreadableSqlite, refuseUnreadableSqlite};
const ReaderEntry kNotSqliteRefusal{"not-sqlite", {}, notSqlite, refuseNotSqlite};

std::optional<Failure> refuseDatabase(const Probe& probe, const FormatInfo& expected) {
    if (unreadableSqlite(probe)) return unreadableSqliteFailure(probe);
    if (notSqlite(probe)) return notSqliteFailure(probe);
    if (probe.sqlite)
        return Failure{probe.path,
                       0,
                       -1,
                       -1,
                       "an SQLite database that is not " + std::string(expected.databaseWords) + " (no " +
                           std::string(expected.databaseTables) + ")",
                       Failure::Kind::NotATrace};
    return Failure{probe.path, -1, -1, -1, "cannot read this database", Failure::Kind::Unreadable};
}

}  // namespace contend
