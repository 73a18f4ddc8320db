#pragma once
// A small SQLite database made from SQL text, for the tests of the database readers and of the
// reader table (each builds the schema it needs inline).
#include <catch2/catch.hpp>
#include <filesystem>
#include <sqlite3.h>
#include <string>

namespace contend::test {

// A database at `path` made from `sql` (replacing any file there; the folder is made if missing).
inline void makeDb(const std::string& path, const std::string& sql) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::remove(path, ec);
    fs::create_directories(fs::path(path).parent_path(), ec);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    INFO((err ? err : ""));
    sqlite3_free(err);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);
}

}  // namespace contend::test
