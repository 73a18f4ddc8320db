#pragma once
// A small RAII wrapper over the SQLite C API for the database readers: read-only opens that never
// write or lock the user's file, statements that finalize themselves, and columns looked up by
// name (PRAGMA table_info), so a reader tolerates exports that add, drop or reorder columns.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace contend {

class SqliteStatement {
  public:
    SqliteStatement() = default;
    SqliteStatement(sqlite3* db, sqlite3_stmt* stmt) : m_db(db), m_stmt(stmt) {}
    SqliteStatement(SqliteStatement&& o) noexcept : m_db(o.m_db), m_stmt(o.m_stmt) { o.m_stmt = nullptr; }
    SqliteStatement& operator=(SqliteStatement&& o) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    ~SqliteStatement();

    explicit operator bool() const { return m_stmt != nullptr; }
    // Next row: true while there is one. On false, error() says whether the scan failed (a
    // corrupt or truncated page) or simply ended ("").
    bool step();
    const std::string& error() const { return m_error; }

    bool isNull(int col) const;
    bool isInteger(int col) const;  // stored as an INTEGER (read with int64 without conversion)
    bool isReal(int col) const;     // stored as a REAL
    std::int64_t int64(int col, std::int64_t fallback = 0) const;  // fallback for NULL
    double real(int col, double fallback = 0) const;
    std::string_view text(int col) const;   // "" for NULL
    std::string columnName(int col) const;  // as the SELECT names it

  private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    std::string m_error;
};

class SqliteDb {
  public:
    // Opens read-only as the URI "file:PATH?immutable=1": no journal, -wal or -shm file is
    // created and no lock is taken, so a file in a read-only folder (or one another process
    // holds) opens as it is. The connection is for one thread at a time (SQLITE_OPEN_NOMUTEX).
    // nullptr with `error` set when it cannot be opened.
    static std::unique_ptr<SqliteDb> open(const std::string& path, std::string& error);
    // A read-only database over a copy of `bytes` (an SQLite file image), for the fuzz targets
    // and tests: nothing touches the disk. nullptr with `error` set when SQLite refuses it.
    static std::unique_ptr<SqliteDb> deserialize(std::string_view bytes, std::string& error);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    // An empty statement with `error` set when the SQL does not prepare.
    SqliteStatement prepare(const std::string& sql, std::string& error) const;
    // Names of the tables in the schema; empty with `error` set when the schema cannot be read
    // (not a database, or a truncated one).
    std::vector<std::string> tables(std::string& error) const;
    // Column names of a table in declaration order (empty if the table is absent).
    std::vector<std::string> columns(const std::string& table) const;
    // Rows of a table, or nullopt when it cannot be counted.
    std::optional<std::int64_t> rowCount(const std::string& table) const;

  private:
    explicit SqliteDb(sqlite3* db) : m_db(db) {}
    sqlite3* m_db = nullptr;
};

// "file:" URI for a path: '%', '?' and '#' escaped as SQLite's URI parser wants.
std::string sqliteFileUri(const std::string& path);

}  // namespace contend
