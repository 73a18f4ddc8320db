#pragma once
// What the two SQLite readers (nsys_sqlite_reader.cpp: Nsight Systems exports;
// ascend_db_reader.cpp / ascend_db_host.cpp: Ascend profiler databases) share: the schema's
// tables, SELECTs with columns looked up by name (absent optional columns read as NULL), the
// located error a failed scan or a missing column gives, progress and cancel every few thousand
// rows, the memory budget, and the string table. Not a public header: the readers' entry points
// are in nsys_sqlite_reader.h and ascend_db_reader.h.
//
// Errors are core's (core/common/failure.h): each step returns std::optional<Failure> (nullopt:
// go on), a SELECT a Result<SqliteStatement>, and a cancel is a Failure of kind Cancelled; the
// readers pass the first one up as it comes.
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/io/db/sqlite_db.h"
#include "core/io/load_options.h"
#include "core/trace/trace_builder.h"

namespace contend {

// A column wanted from a table, under any of (up to three of) its names: releases rename
// columns ("blockDim" / "blockNum"). Required ones stop the load when absent; the others read
// as NULL.
struct SqliteCol {
    // NOLINTNEXTLINE(google-explicit-constructor): {"start", true} in a select() list
    SqliteCol(const char* name, bool required = false) : names{name, nullptr, nullptr}, required(required) {}
    SqliteCol(std::initializer_list<const char*> alternatives, bool required = false);
    std::array<const char*, 3> names{};
    bool required = false;
};

class SqliteReaderBase {
  protected:
    SqliteReaderBase(const SqliteDb& db, const std::string& path, TraceBuilder& b, const LoadOptions& o)
        : m_db(db), m_path(path), m_b(b), m_opt(o) {}

    // The schema's table names into m_tables; a Failure when the schema cannot be read (not a
    // database, or a truncated one).
    std::optional<Failure> readSchema();
    bool has(const char* table) const { return m_tables.count(table) != 0; }
    // Prepares SELECT of `cols` from `table` (absent optional columns as NULL), followed by
    // `tail` (" WHERE ...", " GROUP BY ..."). An empty statement when the table is absent; a
    // Failure when a required column is missing or the SQL does not prepare.
    Result<SqliteStatement> select(const char* table, std::initializer_list<SqliteCol> cols,
                                   const std::string& tail = "");
    // The same for what is read on a best-effort basis (names, the capture's details): an empty
    // statement when the table is absent or cannot be read, which costs that information only.
    SqliteStatement trySelect(const char* table, std::initializer_list<SqliteCol> cols, const std::string& tail = "");
    // A select's failure, or nullopt (for `if (!s || !*s) return failureOf(s);`: a table that is
    // absent has nothing to read).
    static std::optional<Failure> failureOf(const Result<SqliteStatement>& selected) {
        if (selected) return std::nullopt;
        return selected.failure();
    }
    // `reason` of `kind`, located at the file. The default kind: the file is not the database it
    // says it is (a damaged or truncated file, a table without a column the reader needs).
    Failure fail(std::string reason, Failure::Kind kind = Failure::Kind::Malformed) const {
        return Failure::of(kind, std::move(reason), m_path);
    }
    // After a scan: nullopt when it simply ended, else the failure naming the table.
    std::optional<Failure> scanDone(const char* table, const SqliteStatement& st) const;
    // Once per row: progress and cancel every kProgressRows rows; a Cancelled Failure to stop.
    std::optional<Failure> tick() {
        if (++m_rowsDone % kProgressRows != 0 || !m_opt.progress) return std::nullopt;
        return reportProgress();
    }
    void counted(const char* kind, std::uint64_t n) {
        m_b.stats().phases[kind] += n;
        m_b.stats().events += n;
    }
    std::string_view string(std::int64_t id) const {
        auto it = m_strings.find(id);
        return it == m_strings.end() ? std::string_view() : std::string_view(it->second);
    }
    // Rows of those of `tables` the file holds (the progress fraction's whole).
    template <typename Tables>
    std::uint64_t rowsIn(const Tables& tables) const {
        std::uint64_t rows = 0;
        for (const char* t : tables)
            if (has(t)) rows += static_cast<std::uint64_t>(std::max<std::int64_t>(0, m_db.rowCount(t).value_or(0)));
        return rows;
    }
    // Sets the progress total to `rows` and records the budget; fails (OutOfMemory, naming
    // `what`: "export", "database") when the model would need more than `need` bytes allow.
    std::optional<Failure> withinBudget(std::uint64_t rows, std::uint64_t need, const char* what);

    // What a time cell holds: a number in the range a trace may hold (out), none (NULL), no
    // number (a text or blob that does not read as one), or a number out of that range. Both
    // exports store times as INTEGER; a TEXT or REAL cell holding a number (some Ascend tables
    // are TEXT) is read as that number.
    enum class TimeCell { Ok, Null, NotNumber, OutOfRange };
    static TimeCell timeCell(const SqliteStatement& st, int col, TimeNs& out);

    // The operator of row `row` (1-based, in scan order) of `table`: start and end from columns
    // startCol and endCol, checked as the JSON reader checks ts and dur, so the same damage is
    // the same import problem in every format. A start that is NULL is "missing ts", not a
    // number "ts is not a number", out of range "ts out of range"; an end that is NULL or not a
    // number is "dur is not a number" (with `endMayBeNull` a NULL end is an instant, dur 0), an
    // end out of range or more than kMaxDurNs after the start "dur out of range", one before
    // the start "negative dur". Such a row is counted (its first one named "table T, row N,
    // column C") and dropped: nullopt.
    struct RowTimes {
        TimeNs start = 0;
        TimeNs dur = 0;
        bool instant = false;  // endMayBeNull and the end was NULL
    };
    std::optional<RowTimes> rowTimes(const SqliteStatement& st, int startCol, int endCol, const char* table,
                                     std::uint64_t row, bool endMayBeNull = false);

    // The device and stream ids of row `row` of `table` (columns deviceCol, streamCol; NULL
    // reads as `nullDevice` / `nullStream`, as the readers always have). An id stored as text
    // that is not a whole number, a real or a blob is "device or stream id is not an integer";
    // a negative one, or one beyond kMaxDeviceId / kMaxStreamId, "device or stream id out of
    // range": counted (the first named "table T, row N, column C") and the row dropped (false),
    // for no track can be told for it.
    static constexpr std::int64_t kMaxDeviceId = 1 << 16;
    static constexpr std::int64_t kMaxStreamId = std::int64_t{1} << 31;
    bool rowIds(const SqliteStatement& st, int deviceCol, int streamCol, const char* table, std::uint64_t row,
                std::int64_t& device, std::int64_t& stream, std::int64_t nullDevice = 0, std::int64_t nullStream = 0);
    // Counts a name id of row `row` of `table` (column `col`) that the string table does not hold
    // (StringIds / STRING_IDS missing, emptied or cut) as DbNameMissing, the first named with the
    // column and why; the reader uses its placeholder name ("(unnamed kernel)").
    void nameMissing(std::int64_t id, const SqliteStatement& st, int col, const char* table, std::uint64_t row);
    // After a table of operators: a Failure naming the file and the table when it is too damaged
    // to trust, more than half of at least kRefuseFromRows rows dropped, with the kinds counted in
    // it. `dropped` rows of `rows` read.
    static constexpr std::uint64_t kRefuseFromRows = 10;
    std::optional<Failure> tooDamaged(const char* table, std::uint64_t rows, std::uint64_t dropped) const;

    static constexpr std::int64_t kProgressRows = 1 << 12;
    // tick()'s slow path: tells the caller's progress, a Cancelled Failure when it says stop.
    std::optional<Failure> reportProgress();

    const SqliteDb& m_db;
    const std::string& m_path;
    TraceBuilder& m_b;
    const LoadOptions& m_opt;
    std::unordered_set<std::string> m_tables;
    std::unordered_map<std::int64_t, std::string> m_strings;
    bool m_haveStringTable = false;  // a string table was found (set by the reader that reads it)
    std::int64_t m_rowsTotal = 0;
    std::int64_t m_rowsDone = 0;
};

}  // namespace contend
