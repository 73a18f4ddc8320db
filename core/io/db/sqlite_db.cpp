#include "core/io/db/sqlite_db.h"

#include <cstring>
#include <sqlite3.h>

namespace contend {

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& o) noexcept {
    if (this != &o) {
        if (m_stmt) sqlite3_finalize(m_stmt);
        m_db = o.m_db;
        m_stmt = o.m_stmt;
        m_error = std::move(o.m_error);
        o.m_stmt = nullptr;
    }
    return *this;
}

SqliteStatement::~SqliteStatement() {
    if (m_stmt) sqlite3_finalize(m_stmt);
}

bool SqliteStatement::step() {
    if (!m_stmt) return false;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) m_error = sqlite3_errmsg(m_db);
    return false;
}

bool SqliteStatement::isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
bool SqliteStatement::isInteger(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_INTEGER; }
bool SqliteStatement::isReal(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_FLOAT; }

std::string SqliteStatement::columnName(int col) const {
    const char* name = sqlite3_column_name(m_stmt, col);
    return name ? std::string(name) : std::string();
}

std::int64_t SqliteStatement::int64(int col, std::int64_t fallback) const {
    if (isNull(col)) return fallback;
    return sqlite3_column_int64(m_stmt, col);
}

double SqliteStatement::real(int col, double fallback) const {
    if (isNull(col)) return fallback;
    return sqlite3_column_double(m_stmt, col);
}

std::string_view SqliteStatement::text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
    if (!p) return {};
    return std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)));
}

std::string sqliteFileUri(const std::string& path) {
    std::string uri = "file:";
    for (char c : path) {
        if (c == '%')
            uri += "%25";
        else if (c == '?')
            uri += "%3f";
        else if (c == '#')
            uri += "%23";
        else
            uri += c;
    }
    return uri + "?immutable=1";
}

std::unique_ptr<SqliteDb> SqliteDb::open(const std::string& path, std::string& error) {
    sqlite3* db = nullptr;
    // NOMUTEX: a reader uses its connection from one thread, so SQLite's per-call locking (8% of
    // an Ascend database's load) buys nothing.
    const int rc = sqlite3_open_v2(sqliteFileUri(path).c_str(), &db,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        error = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        sqlite3_close(db);
        return nullptr;
    }
    return std::unique_ptr<SqliteDb>(new SqliteDb(db));
}

std::unique_ptr<SqliteDb> SqliteDb::deserialize(std::string_view bytes, std::string& error) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        error = db ? sqlite3_errmsg(db) : "cannot open an in-memory database";
        sqlite3_close(db);
        return nullptr;
    }
    // SQLite owns the copy (FREEONCLOSE) and never writes to it (READONLY).
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(!bytes.empty() ? bytes.size() : 1));
    if (!copy) {
        error = "out of memory";
        sqlite3_close(db);
        return nullptr;
    }
    if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
    const auto n = static_cast<sqlite3_int64>(bytes.size());
    const int rc =
        sqlite3_deserialize(db, "main", copy, n, n, SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
    if (rc != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        sqlite3_close(db);
        return nullptr;
    }
    return std::unique_ptr<SqliteDb>(new SqliteDb(db));
}

SqliteDb::~SqliteDb() { sqlite3_close(m_db); }

SqliteStatement SqliteDb::prepare(const std::string& sql, std::string& error) const {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(m_db);
        sqlite3_finalize(stmt);
        return {};
    }
    return SqliteStatement(m_db, stmt);
}

std::vector<std::string> SqliteDb::tables(std::string& error) const {
    std::vector<std::string> out;
    SqliteStatement st = prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')", error);
    if (!st) return out;
    while (st.step()) out.emplace_back(st.text(0));
    if (!st.error().empty()) {
        error = st.error();
        out.clear();
    }
    return out;
}

namespace {
// Table names come from our own constants, but quote them anyway.
std::string quoted(const std::string& name) {
    std::string q = "\"";
    for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
}  // namespace

std::vector<std::string> SqliteDb::columns(const std::string& table) const {
    std::vector<std::string> out;
    std::string error;
    SqliteStatement st = prepare("PRAGMA table_info(" + quoted(table) + ")", error);
    if (!st) return out;
    while (st.step()) out.emplace_back(st.text(1));
    return out;
}

std::optional<std::int64_t> SqliteDb::rowCount(const std::string& table) const {
    std::string error;
    SqliteStatement st = prepare("SELECT COUNT(*) FROM " + quoted(table), error);
    if (!st || !st.step()) return std::nullopt;
    return st.int64(0);
}

}  // namespace contend
