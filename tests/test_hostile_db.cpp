// The hostile-database suite (issue 28): databases damaged the ways a hand edit, a broken exporter
// or a copy gone wrong damage them, each with the problem counts it must give. Tiny Nsight and
// Ascend databases made here with the sqlite3 C API run everywhere; copies of the real exports in
// ../shared/traces, damaged with SQL at test time, run where they are (reported skipped
// otherwise). The expected counts of the real copies are read from the copy itself with SQL, never
// written down. And the JSON and database readers give the same problem kinds for the same damage.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>
#include <sqlite3.h>
#include <string>

#include "analyze_support.h"
#include "core/io/load.h"
#include "sqlite_test_db.h"
#include "test_support.h"

using namespace contend;
using contend::test::makeDb;

namespace {

constexpr int kKernels = 12;

// An Nsight Systems export of kKernels kernels of 1 us, 2 us apart, on GPU 0 stream 7, each
// launched by a runtime call; `damage` is SQL run after the rows are in.
std::string nsysDb(const std::string& damage = "") {
    std::string sql =
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'gemm'), (3, 'relu');"
        "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,"
        " correlationId INTEGER, demangledName INTEGER, shortName INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER,"
        " correlationId INTEGER, nameId INTEGER);";
    const std::string tid = std::to_string((123LL << 24) | 456);
    for (int i = 0; i < kKernels; ++i) {
        const long long start = 10000 + 2000LL * i;
        const std::string name = std::to_string(i % 2 ? 3 : 2);
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + std::to_string(start) + ", " +
               std::to_string(start + 1000) + ", 0, 7, " + std::to_string(i + 1) + ", " + name + ", " + name + ");";
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + std::to_string(start - 900) + ", " +
               std::to_string(start - 100) + ", " + tid + ", " + std::to_string(i + 1) + ", 1);";
    }
    return sql + damage;
}

// An Ascend profiler database of kKernels tasks on device 0 stream 2, named by their type.
std::string ascendDb(const std::string& damage = "") {
    std::string sql =
        "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
        "INSERT INTO STRING_IDS VALUES (1, 'SDMA'), (2, 'AI_CPU');"
        "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,"
        " globalTaskId INTEGER, taskType INTEGER, streamId INTEGER, taskId INTEGER);";
    for (int i = 0; i < kKernels; ++i) {
        const long long start = 10000 + 2000LL * i;
        sql += "INSERT INTO TASK VALUES (" + std::to_string(start) + ", " + std::to_string(start + 1000) + ", 0, -1, " +
               std::to_string(i) + ", 2, 2, " + std::to_string(i) + ");";
    }
    return sql + damage;
}

std::uint64_t count(const Trace& t, ImportProblem p) {
    std::uint64_t n = 0;
    for (const auto& w : t.stats().warnings)
        if (w.id == p) n += w.count;
    return n;
}

std::string exampleOf(const Trace& t, ImportProblem p) {
    for (const auto& w : t.stats().warnings)
        if (w.id == p) return w.example;
    return "";
}

std::set<ImportProblem> kinds(const Trace& t) {
    std::set<ImportProblem> s;
    for (const auto& w : t.stats().warnings) s.insert(w.id);
    return s;
}

bool hasNote(const Report& r, const char* kind) {
    for (const ReportNote& n : r.notes)
        if (n.kind == kind) return true;
    return false;
}

// A one-number SQL query on `path`.
long long scalar(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    const long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

// A copy of a shared export at `to`, damaged by `sql`.
void damagedCopy(const std::string& from, const std::string& to, const std::string& sql) {
    std::ofstream(to, std::ios::binary) << test::slurp(from);  // the caller's TempFile removes it
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(to.c_str(), &db) == SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, ("PRAGMA journal_mode = DELETE;" + sql).c_str(), nullptr, nullptr, &err);
    INFO((err ? err : ""));
    sqlite3_free(err);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);
}

}  // namespace

TEST_CASE("hostile tiny databases: each damage is counted with its table and row, or refused",
          "[hostile-db][problems]") {
    test::TempFile f("hostile-db.sqlite");
    SECTION("every kernel row inserted twice: duplicates, kept out of the baselines with a note") {
        makeDb(f.path(), nsysDb("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::DuplicateEvent) == kKernels);
        CHECK(count(*r.value(), ImportProblem::StreamOverlap) == 0);
        CHECK(exampleOf(*r.value(), ImportProblem::DuplicateEvent).rfind("GPU 0 / stream 7: 'gemm' at 10000 ns", 0) ==
              0);
        CHECK(hasNote(test::analyzeOk(r.value()), kStreamOverlapNote));
    }
    SECTION("a kernel starting before the one before it ends: an overlap") {
        makeDb(f.path(), nsysDb("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = start - 1500, end = end - 1500"
                                " WHERE correlationId = 4;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::StreamOverlap) == 1);
        CHECK(count(*r.value(), ImportProblem::DuplicateEvent) == 0);
        std::size_t flagged = 0;
        for (const Slice& s : r.value()->slices()) flagged += s.is(kSliceOverlap);
        CHECK(flagged == 2);  // both of the pair
    }
    SECTION("a third of the kernels lasting 9e18 ns: dur out of range, a damaged-input note") {
        makeDb(f.path(),
               nsysDb("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 9000000000000000000 WHERE rowid % 3 = 0;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::DurOutOfRange) == kKernels / 3);
        CHECK(exampleOf(*r.value(), ImportProblem::DurOutOfRange) ==
              "table CUPTI_ACTIVITY_KIND_KERNEL, row 3, column end");
        CHECK(r.value()->span() < 1000000);  // the span is the kernels kept, not 9e9 s
        CHECK(hasNote(test::analyzeOk(r.value()), kDamagedInputNote));
    }
    SECTION("every kernel with its end before its start: refused, naming the file and the table") {
        makeDb(f.path(), nsysDb("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE_FALSE(r);
        CHECK(r.failure().kind == Failure::Kind::Malformed);
        const std::string m = r.failure().message();
        CHECK(m.rfind(f.path() + ": table CUPTI_ACTIVITY_KIND_KERNEL: 12 of 12 rows invalid: negative dur", 0) == 0);
    }
    SECTION("StringIds dropped or emptied: names missing, counted per row") {
        for (const char* damage : {"DROP TABLE StringIds;", "DELETE FROM StringIds;"}) {
            makeDb(f.path(), nsysDb(damage));
            LoadResult r = loadTrace(f.path());
            REQUIRE(r);
            CHECK(count(*r.value(), ImportProblem::DbNameMissing) == 2 * kKernels);  // kernels and runtime calls
            CHECK(exampleOf(*r.value(), ImportProblem::DbNameMissing)
                      .find(std::string("(") +
                            (damage[0] == 'D' && damage[1] == 'R' ? "no string table" : "the string table is empty")) !=
                  std::string::npos);
            CHECK(hasNote(test::analyzeOk(r.value()), kDamagedInputNote));
        }
    }
    SECTION("text in integer columns and out-of-range ids: counted and the rows dropped") {
        makeDb(f.path(), nsysDb("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId = 'seven' WHERE correlationId = 2;"
                                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = -1 WHERE correlationId = 5;"
                                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId = 99999999999 WHERE correlationId = 6;"
                                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 2.5 WHERE correlationId = 7;"
                                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId = '8' WHERE correlationId = 8;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        const Trace& t = *r.value();
        CHECK(count(t, ImportProblem::DbIdNotInteger) == 2);  // 'seven', 2.5 ('8' reads as 8)
        CHECK(count(t, ImportProblem::DbIdOutOfRange) == 2);
        CHECK(exampleOf(t, ImportProblem::DbIdNotInteger) ==
              "table CUPTI_ACTIVITY_KIND_KERNEL, row 2, column streamId");
        CHECK(exampleOf(t, ImportProblem::DbIdOutOfRange) ==
              "table CUPTI_ACTIVITY_KIND_KERNEL, row 5, column deviceId (-1)");
        CHECK(t.stats().phases.at("kernel") == kKernels - 4);
    }
    SECTION("an undamaged database counts nothing") {
        makeDb(f.path(), nsysDb());
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(r.value()->stats().warnings.empty());
        for (const ReportNote& n : test::analyzeOk(r.value()).notes) CHECK_FALSE(isStrictNote(n.kind));
    }
}

TEST_CASE("hostile tiny Ascend databases: the same checks in TASK", "[hostile-db][ascend][problems]") {
    test::TempFile f("hostile-ascend.db");
    SECTION("duplicated tasks") {
        makeDb(f.path(), ascendDb("INSERT INTO TASK SELECT * FROM TASK;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::DuplicateEvent) == kKernels);
    }
    SECTION("a task inside the one before: an overlap") {
        makeDb(f.path(), ascendDb("UPDATE TASK SET startNs = startNs - 1500, endNs = endNs - 1500 WHERE taskId = 3;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::StreamOverlap) == 1);
    }
    SECTION("copies (SDMA) of one stream at once are not an overlap, their duplicates are") {
        makeDb(f.path(), ascendDb("UPDATE TASK SET taskType = 1; UPDATE TASK SET startNs = startNs - 1500,"
                                  " endNs = endNs - 1500 WHERE taskId = 3; INSERT INTO TASK SELECT * FROM TASK"
                                  " WHERE taskId = 5;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::StreamOverlap) == 0);
        CHECK(count(*r.value(), ImportProblem::DuplicateEvent) == 1);
    }
    SECTION("ids of the wrong type or out of range, names missing") {
        makeDb(f.path(), ascendDb("UPDATE TASK SET streamId = 'two' WHERE taskId = 1;"
                                  "UPDATE TASK SET deviceId = 100000 WHERE taskId = 2;"
                                  "UPDATE TASK SET taskType = 77 WHERE taskId = 4;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::DbIdNotInteger) == 1);
        CHECK(count(*r.value(), ImportProblem::DbIdOutOfRange) == 1);
        CHECK(count(*r.value(), ImportProblem::DbNameMissing) == 1);
        CHECK(exampleOf(*r.value(), ImportProblem::DbNameMissing) ==
              "table TASK, row 5, column taskType (no id 77 in the string table)");
    }
    SECTION("most tasks invalid: refused") {
        makeDb(f.path(), ascendDb("UPDATE TASK SET endNs = startNs - 5 WHERE taskId < 7;"));
        LoadResult r = loadTrace(f.path());
        REQUIRE_FALSE(r);
        CHECK(r.failure().message().find("table TASK: 7 of 12 rows invalid: negative dur") != std::string::npos);
    }
}

TEST_CASE("the JSON and database readers give the same problem kinds for the same damage", "[hostile-db][problems]") {
    // The same four kernels as Kineto JSON (us) and as an Nsight export (ns), the third damaged.
    struct Damage {
        const char* what;
        const char* json;  // the third kernel's event
        const char* sql;   // applied to the third kernel's row
    };
    const Damage damages[] = {
        {"end before start", R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":14,"dur":-1})",
         "UPDATE K SET end = start - 1000 WHERE correlationId = 3;"},
        {"a duration beyond the bound", R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":14,"dur":2e12})",
         "UPDATE K SET end = start + 2000000000000000 WHERE correlationId = 3;"},
        {"no start", R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"dur":1})",
         "UPDATE K SET start = NULL WHERE correlationId = 3;"},
        {"a duplicate", R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":12,"dur":1})",
         "INSERT INTO K SELECT * FROM K WHERE correlationId = 2;"},
        {"an overlap", R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":12.5,"dur":1})",
         "UPDATE K SET start = start - 1500, end = end - 1500 WHERE correlationId = 3;"},
    };
    for (const Damage& d : damages) {
        DYNAMIC_SECTION(d.what) {
            const std::string json =
                std::string("[") + R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":1},)" +
                R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":12,"dur":1},)" + d.json + "," +
                R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":16,"dur":1}])";
            LoadResult fromJson = test::loadString(json);
            REQUIRE(fromJson);
            test::TempFile f("same-kinds.sqlite");
            std::string sql =
                "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
                "INSERT INTO StringIds VALUES (1, 'k');"
                "CREATE TABLE K (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,"
                " correlationId INTEGER, demangledName INTEGER, shortName INTEGER);";
            for (int i = 0; i < 4; ++i)
                sql += "INSERT INTO K VALUES (" + std::to_string(10000 + 2000 * i) + ", " +
                       std::to_string(11000 + 2000 * i) + ", 0, 7, " + std::to_string(i + 1) + ", 1, 1);";
            sql += d.sql;
            sql += "ALTER TABLE K RENAME TO CUPTI_ACTIVITY_KIND_KERNEL;";
            makeDb(f.path(), sql);
            LoadResult fromDb = loadTrace(f.path());
            REQUIRE(fromDb);
            CHECK_FALSE(kinds(*fromJson.value()).empty());
            CHECK(kinds(*fromJson.value()) == kinds(*fromDb.value()));
        }
    }
}

TEST_CASE("hostile copies of the real Nsight export: the issue's cases with counts read back by SQL",
          "[hostile-db][real][nsys]") {
    if (!test::haveSharedTraces()) test::skipTest();
    const std::string src = test::sharedTraces() + "/nsys-nsys_ai/tests/fixtures/h100_2gpu_1s.sqlite";
    test::TempFile f("hostile-h100.sqlite");
    const long long kernels = scalar(src, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    REQUIRE(kernels > 0);
    SECTION("a third of the kernels lasting 9e18 ns") {
        damagedCopy(src, f.path(),
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start + 9000000000000000000 / 2 WHERE rowid % 3 = 0;");
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::DurOutOfRange) ==
              static_cast<std::uint64_t>(scalar(f.path(),
                                                "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                                "WHERE end - start > 1000000000000000")));
        CHECK(r.value()->span() < 100'000'000'000);  // seconds, not "9e+09 s"
    }
    SECTION("every kernel with its end before its start: refused") {
        damagedCopy(src, f.path(), "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1;");
        LoadResult r = loadTrace(f.path());
        REQUIRE_FALSE(r);
        CHECK(r.failure().message().find(f.path() + ": table CUPTI_ACTIVITY_KIND_KERNEL: " + std::to_string(kernels) +
                                         " of " + std::to_string(kernels) + " rows invalid: negative dur") == 0);
    }
    SECTION("every kernel row inserted twice") {
        damagedCopy(src, f.path(), "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;");
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::DuplicateEvent) == static_cast<std::uint64_t>(kernels));
        const Report rep = test::analyzeOk(r.value());
        CHECK(hasNote(rep, kStreamOverlapNote));
    }
    SECTION("StringIds emptied, then dropped") {
        const long long named = scalar(src,
                                       "SELECT (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) + "
                                       "(SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE nameId IS NOT NULL)");
        for (const char* damage : {"DELETE FROM StringIds;", "DROP TABLE StringIds;"}) {
            damagedCopy(src, f.path(), damage);
            LoadResult r = loadTrace(f.path());
            REQUIRE(r);
            CHECK(count(*r.value(), ImportProblem::DbNameMissing) == static_cast<std::uint64_t>(named));
        }
    }
    SECTION("text in integer columns, out-of-range device and stream ids") {
        damagedCopy(src, f.path(),
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId = 'x' WHERE rowid % 10 = 0;"
                    "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 999999 WHERE rowid % 10 = 1;"
                    "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET streamId = -3 WHERE rowid % 10 = 2;");
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::DbIdNotInteger) ==
              static_cast<std::uint64_t>(scalar(f.path(),
                                                "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"
                                                " WHERE typeof(streamId) = 'text'")));
        CHECK(count(*r.value(), ImportProblem::DbIdOutOfRange) ==
              static_cast<std::uint64_t>(
                  scalar(f.path(),
                         "SELECT (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 999999)"
                         " + (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE streamId = -3)")));
    }
}

TEST_CASE("hostile copies of a real Ascend database: duplicated and reversed tasks", "[hostile-db][real][ascend]") {
    if (!test::haveSharedTraces()) test::skipTest();
    const std::string src = test::sharedTraces() +
                            "/ascend-msinsight/test/data/pytorch/db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                            "ascend_pytorch_profiler_0.db";
    test::TempFile f("hostile-ascend_pytorch_profiler_0.db");
    LoadResult clean = loadTrace(src);
    REQUIRE(clean);
    CHECK(count(*clean.value(), ImportProblem::DuplicateEvent) == 0);
    CHECK(count(*clean.value(), ImportProblem::StreamOverlap) == 0);
    SECTION("every task row twice: one duplicate per device task the clean load checks") {
        std::uint64_t checked = 0;
        for (const Slice& s : clean.value()->slices())
            checked += s.is(kSliceDevice) && !s.is(kSliceWait) && !s.is(kSliceInstant) && s.dur > 0;
        damagedCopy(src, f.path(), "INSERT INTO TASK SELECT * FROM TASK;");
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::DuplicateEvent) == checked);
    }
    SECTION("a third of the tasks ending before they start") {
        damagedCopy(src, f.path(), "UPDATE TASK SET endNs = startNs - 1 WHERE rowid % 3 = 0;");
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(count(*r.value(), ImportProblem::NegativeDur) ==
              static_cast<std::uint64_t>(scalar(f.path(), "SELECT COUNT(*) FROM TASK WHERE endNs < startNs")));
    }
}
