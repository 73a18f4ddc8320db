#pragma once
// What a reader registers in the reader table (readerTable(), core/io/reader_table.cpp):
// its name, how it recognises a path (sniff) and how it reads one (read). loadTrace builds one
// Probe of the path, walks the table and lets the first entry that accepts the probe read it;
// an entry may also be a refusal, whose read returns the reason the path cannot be loaded.
// Each reader's header declares its entry and its .cpp defines it; the table lists them by
// hand (core is a static library: an entry registering itself would be dropped by the linker).
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/failure.h"
#include "core/io/db/sqlite_db.h"
#include "core/io/load_options.h"
#include "core/trace/trace_builder.h"

namespace contend {

// What the loader knows of a path before any reader reads it, looked at once for every sniff.
struct Probe {
    std::string path;
    bool isDirectory = false;
    bool isRegularFile = false;
    std::string head;  // the file's first kProbeHeadBytes bytes (fewer when it is shorter)
    // The file starts with SQLite's header (or is a database the caller knows to be SQLite):
    // `db` is it, opened read-only, and `sqliteTables` its table names, read once when the
    // probe is made so that sniffs only look (they are pure). `sqliteError` says why the
    // database could not be opened or its tables read ("" when they were): then every SQLite
    // reader's sniff declines it and the unreadable-SQLite refusal answers.
    bool sqlite = false;
    std::unique_ptr<SqliteDb> db;
    std::vector<std::string> sqliteTables;
    std::string sqliteError;

    std::string filename() const;   // the last component of path
    std::string extension() const;  // ".json", ".db", ... (empty when none)
};

inline constexpr std::size_t kProbeHeadBytes = 16;

// The probe of a path the user gave: a folder, a file (its first bytes; the database opened
// when they are SQLite's header), or a path that is neither (the JSON reader reports it).
Probe probePath(const std::string& path);
// The probe of a file to read as an SQLite database whatever its first bytes (an Ascend
// folder's database export): opened, so that only the SQLite entries accept it.
Probe probeDatabase(const std::string& path);

// How a format lays out a job of several ranks, for the folder of ranks that core/pipeline opens
// (cluster_run.h): it asks the table (isRankFolder, isOwnTraceFolder, isProfilerSideFile in
// reader_table.h) and knows no format's names.
struct RankLayout {
    // A folder that is one rank by its name: a rank trace, not looked into (Ascend's *_ascend_pt).
    bool (*isRankFolder)(const std::string& dir);
    // A folder that is one rank's own output, opened as one trace and never as a folder of ranks.
    bool (*isOwnFolder)(const std::string& dir);
    // A file the profiler writes beside its traces that is not one (profiler_info_N.json).
    bool (*isSideFile)(std::string_view filename);
};

struct ReaderEntry {
    std::string_view name;  // distinct in the table (tests, `what`)
    // The format table's rows of the formats a successful read gives (their FormatInfo, defined
    // in the reader's file beside its entry); empty for a refusal.
    std::span<const FormatInfo* const> formats;
    bool (*sniff)(const Probe& probe);
    std::optional<Failure> (*read)(const Probe& probe, TraceBuilder& builder, const LoadOptions& options);
    const RankLayout* ranks = nullptr;  // a format written as one folder per rank; null for the others
};

// The refusal of a database that is not of the format `expected` (a reader that looked for a
// database of its own format and found something else): the SQLite refusals below when it cannot
// be read or is not SQLite, else "an SQLite database that is not " with the row's databaseWords
// and databaseTables.
std::optional<Failure> refuseDatabase(const Probe& probe, const FormatInfo& expected);

// What every SQLite reader's entry does, in one place:
// - sniffDatabase: the probe is an open, readable database and `isFormat` finds its format's
//   tables among the probe's sqliteTables.
// - readDatabase: sets `format`, reads the probe's database with `read`, and on success fills the
//   Source of a trace read from one database file (its path, the details and devices the reader
//   recorded, the file's size in the statistics).
using IsDatabaseFormat = bool (*)(const std::vector<std::string>& tables);
using ReadDatabase = std::optional<Failure> (*)(const SqliteDb& db, const std::string& path, TraceBuilder& builder,
                                                const LoadOptions& options);
bool sniffDatabase(const Probe& probe, IsDatabaseFormat isFormat);
std::optional<Failure> readDatabase(const Probe& probe, TraceBuilder& builder, const LoadOptions& options,
                                    TraceFormat format, ReadDatabase read);

// The refusals of a file no one reader owns that need no words from the format table: an SQLite
// file that cannot be read, a .db/.sqlite file that is not SQLite. Those that list what Contend
// reads (a folder with no trace in it, a database that is no format's) are the table's own
// (reader_table.cpp).
extern const ReaderEntry kUnreadableSqliteRefusal;
extern const ReaderEntry kNotSqliteRefusal;

}  // namespace contend
