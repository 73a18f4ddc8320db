// The Nsight Systems SQLite reader (core/io/db/nsys_sqlite_reader.h): a tiny export made here with
// the sqlite3 C API pins times, names, shapes, streams and links exactly; broken inputs are
// refused naming the file and the reason; and every .sqlite under ../shared/traces loads with the
// kernel, memcpy and memset counts its README lists (computed there with Python's sqlite3), and
// analyses. Without ../shared/traces the [real] cases are reported as skipped (test::skipTest).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sqlite3.h>
#include <string>

#include "analyze_support.h"
#include "core/analysis/engine.h"
#include "core/analysis/scoring/pressure.h"
#include "core/io/load.h"
#include "core/trace/conventions.h"
#include "sqlite_test_db.h"
#include "test_support.h"

using namespace contend;
using contend::test::makeDb;
namespace fs = std::filesystem;

namespace {

// pid 123, tid 456 as Nsight's GlobalId packs them.
constexpr long long kGlobalTid = (123LL << 24) | 456;
constexpr long long kGlobalPid = 123LL << 24;

std::string tinyExport(const std::string& kernelColumns =
                           "start, end, deviceId, streamId, correlationId, demangledName, "
                           "shortName, gridX, gridY, gridZ, blockX, blockY, blockZ, "
                           "registersPerThread, staticSharedMemory, dynamicSharedMemory",
                       const std::string& kernelRow = "1000, 3000, 0, 7, 42, 2, 3, 4, 2, 1, 128, 1, 1, 32, 1024, 512") {
    const std::string tid = std::to_string(kGlobalTid), gpid = std::to_string(kGlobalPid);
    return "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
           "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'void k<float>(float*)'), (3, 'k'),"
           " (5, 'main'), (6, 'cudaMemcpyAsync_v3020'), (7, 'cudaStreamSynchronize_v3020'), (8, "
           "'cudaMemsetAsync_v3020');"
           "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT);"
           "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '2023-11-14T22:13:20');"
           "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
           "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2025.1'), ('EXPORT_SCHEMA_VERSION', '3.9');"
           "CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, smCount INTEGER, l2CacheSize INTEGER,"
           " memoryBandwidth INTEGER, totalMemory INTEGER);"
           "INSERT INTO TARGET_INFO_GPU VALUES (0, 'Tiny GPU', 8, 1048576, 100000000000, 8589934592);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (" +
           kernelColumns +
           ");"
           "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" +
           kernelRow +
           ");"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, streamId, correlationId, bytes, copyKind,"
           " srcKind, dstKind);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (4000, 5000, 0, 7, 43, 4096, 1, 0, 2);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, streamId, correlationId, value, bytes, "
           "memKind);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (5200, 5300, 0, 8, 45, 0, 256, 2);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, "
           "returnValue);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (500, 900, 1, " +
           tid +
           ", 42, 1, 0),"
           " (3500, 3900, 1, " +
           tid + ", 43, 6, 0), (5100, 5150, 1, " + tid +
           ", 45, 8, 0),"
           " (5400, 5800, 1, " +
           tid +
           ", 44, 7, 0);"
           "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, streamId, correlationId, globalPid,"
           " syncType, eventId);"
           "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (5450, 5750, 0, 7, 44, " +
           gpid +
           ", 3, 0),"
           " (5900, 5950, 0, 7, 99, " +
           gpid +
           ", 1, 0);"
           "CREATE TABLE NVTX_EVENTS (start, end, eventType, text, globalTid, textId);"
           "INSERT INTO NVTX_EVENTS VALUES (100, 6000, 59, 'ProfilerStep#3', " +
           tid +
           ", NULL),"
           " (200, NULL, 34, 'a mark', " +
           tid + ", NULL), (300, NULL, 75, 'a domain', " + tid +
           ", NULL);"
           "CREATE TABLE ThreadNames (nameId, priority, globalTid);"
           "INSERT INTO ThreadNames VALUES (5, 0, " +
           tid + "), (5, 0, " + std::to_string(kGlobalPid | 999) +
           ");"
           "CREATE TABLE PROCESSES (globalPid, pid, name);"
           "INSERT INTO PROCESSES VALUES (" +
           gpid + ", 123, 'python3'), (" + std::to_string(77LL << 24) +
           ", 77, 'idle');"
           "CREATE TABLE TARGET_INFO_GPU_METRICS (typeId, sourceId, typeName, metricId, metricName);"
           "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (65536, 0, 'GH100', 3, 'SM Active [Throughput %]');"
           "CREATE TABLE GPU_METRICS (timestamp, typeId, metricId, value);"
           "INSERT INTO GPU_METRICS VALUES (1000, 65536, 3, 40), (2000, 65536, 3, 80);";
}

// How many times `p` was counted while reading (0 when never).
std::uint64_t problemCount(const Trace& t, ImportProblem p) {
    std::uint64_t n = 0;
    for (const auto& w : t.stats().warnings)
        if (w.id == p) n += w.count;
    return n;
}

std::uint32_t findSlice(const Trace& t, std::string_view name) {
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.str(t.slices()[i].name) == name) return i;
    FAIL("no slice named " << name);
    return kNone;
}

}  // namespace

TEST_CASE("nsys sqlite: a tiny export reads exactly", "[nsys]") {
    test::TempFile f("tiny.sqlite");
    makeDb(f.path(), tinyExport());
    LoadResult r = loadTrace(f.path());
    INFO((!r.ok() ? r.failure().message() : std::string()));
    REQUIRE(r);
    const Trace& t = *r.value();
    CHECK(formatName(t.traceFormat()) == "nsys-sqlite");
    CHECK(t.stats().phases.at("kernel") == 1);
    CHECK(t.stats().phases.at("memcpy") == 1);
    CHECK(t.stats().phases.at("memset") == 1);
    CHECK(t.stats().phases.at("runtime") == 4);
    CHECK(t.stats().phases.at("sync") == 2);
    CHECK(t.stats().phases.at("nvtx") == 2);  // the domain row is not an event
    CHECK(t.slices().size() == 11);

    const std::uint32_t k = findSlice(t, "void k<float>(float*)");
    const Slice& ks = t.slices()[k];
    const SliceInfo& ki = t.infos()[k];
    CHECK(ks.start == 1000);  // ns since the session start, as the export writes them
    CHECK(ks.dur == 2000);
    CHECK(ks.is(kSliceDevice));
    CHECK_FALSE(ks.is(kSliceMemory));
    CHECK(t.str(ks.category) == "kernel");
    CHECK(t.tracks()[ks.track].label() == "GPU 0 / stream 7");
    CHECK(t.tracks()[ks.track].kind == TrackKind::DeviceStream);
    CHECK(ki.stream == 7);
    CHECK(ki.device == 0);
    CHECK(ki.correlation == 42);
    CHECK(t.str(ki.shape) == "grid=[4, 2, 1] block=[128, 1, 1]");
    CHECK(t.metric(k, "registers per thread") == 32.0f);
    CHECK(t.metric(k, "shared memory") == 1536.0f);
    REQUIRE(ki.launch != kNone);
    const Slice& launch = t.slices()[ki.launch];
    CHECK(t.str(launch.name) == "cudaLaunchKernel");
    CHECK(launch.is(kSliceLaunch));
    CHECK(launch.start == 500);
    CHECK(launch.dur == 400);
    CHECK(t.tracks()[launch.track].pid == "123");
    CHECK(t.tracks()[launch.track].tid == "456");
    CHECK(t.tracks()[launch.track].label() == "python3 (123) / main");

    const std::uint32_t c = findSlice(t, "Memcpy HtoD (Pageable -> Device)");
    CHECK(t.slices()[c].is(kSliceDevice));
    CHECK(t.slices()[c].is(kSliceMemory));
    CHECK(t.metric(c, "bytes") == 4096.0f);
    CHECK(t.str(t.slices()[c].category) == "gpu_memcpy");
    REQUIRE(t.infos()[c].launch != kNone);
    CHECK(t.str(t.slices()[t.infos()[c].launch].name) == "cudaMemcpyAsync");
    const std::uint32_t m = findSlice(t, "Memset (Device)");
    CHECK(t.metric(m, "bytes") == 256.0f);
    CHECK(t.tracks()[t.slices()[m].track].label() == "GPU 0 / stream 8");
    CHECK(t.infos()[m].launch != kNone);

    // Sync records: named as the waiting call, on the thread of the runtime call they belong to.
    std::uint32_t syncs = 0;
    for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
        if (t.str(t.slices()[i].category) != "cuda_sync") continue;
        ++syncs;
        const std::string_view n = t.str(t.slices()[i].name);
        if (t.slices()[i].start == 5450) {
            CHECK(n == "cudaStreamSynchronize");
            CHECK(t.slices()[i].track == launch.track);
        } else {
            CHECK(n == "cudaEventSynchronize");  // no runtime call: on the process's sync lane
            CHECK(t.tracks()[t.slices()[i].track].tid == "sync");
        }
        CHECK_FALSE(t.slices()[i].is(kSliceLaunch));
    }
    CHECK(syncs == 2);

    const std::uint32_t step = findSlice(t, "ProfilerStep#3");
    CHECK(t.slices()[step].is(kSliceStep));
    CHECK(t.slices()[step].dur == 5900);
    CHECK(t.slices()[findSlice(t, "a mark")].is(kSliceInstant));

    // Only threads with events become tracks (the export names every thread on the machine).
    CHECK(t.tracks().size() == 4);  // stream 7, stream 8, thread 456, sync lane
    REQUIRE(t.counters().size() == 1);
    CHECK(t.counters()[0].pid == "GPU 0");
    CHECK(t.counters()[0].name == "SM Active [Throughput %]");
    CHECK(t.counters()[0].unit == "%");
    CHECK(t.counters()[0].values == std::vector<double>{40, 80});

    std::map<std::string, std::string> details(t.source().details.begin(), t.source().details.end());
    CHECK(details["GPU 0"].find("Tiny GPU, 8 SMs") == 0);
    CHECK(details["exported by"] == "Nsight Systems 2025.1, schema 3.9");
    CHECK(details["session start"].find("1700000000000000000") != std::string::npos);

    CHECK(contend::test::analysisFailure(r.value()) == "");
}

TEST_CASE("nsys sqlite: broken inputs are refused naming the file and the reason", "[nsys]") {
    test::TempFile f("broken.sqlite");
    auto refused = [&](const std::string& path, const std::string& reason) {
        LoadResult r = loadTrace(path);
        REQUIRE_FALSE(r);
        REQUIRE(!r.ok());
        const std::string m = r.failure().message();
        INFO(m);
        CHECK(m.find(path) == 0);
        CHECK(m.find(reason) != std::string::npos);
    };
    SECTION("a database without Nsight tables") {
        makeDb(f.path(), "CREATE TABLE TASK (a, b); INSERT INTO TASK VALUES (1, 2);");
        refused(f.path(), "neither an Ascend profiler database nor an Nsight Systems export");
    }
    SECTION("a kernel table without start") {
        makeDb(f.path(), tinyExport("end, deviceId, streamId", "3000, 0, 7"));
        refused(f.path(), "table CUPTI_ACTIVITY_KIND_KERNEL: no column 'start'");
    }
    SECTION("an Nsight Systems report, not exported") {
        test::TempFile rep("run.nsys-rep", "not sqlite");
        refused(rep.path(), "nsys export --type sqlite");
    }
    SECTION("more rows than the memory budget allows") {
        makeDb(f.path(), tinyExport());
        LoadOptions o;
        o.memoryLimitBytes = 100;
        LoadResult r = loadTrace(f.path(), o);
        REQUIRE(!r.ok());
        CHECK(r.failure().reason.rfind("not enough memory", 0) == 0);
        CHECK(r.failure().kind == Failure::Kind::OutOfMemory);  // set by the reader, not read from the text
    }
}

TEST_CASE("nsys sqlite: optional columns may be absent", "[nsys]") {
    test::TempFile f("optional.sqlite");
    makeDb(f.path(), tinyExport("start, end, deviceId, streamId, shortName", "1000, 3000, 1, 9, 3"));
    LoadResult r = loadTrace(f.path());
    INFO((!r.ok() ? r.failure().message() : std::string()));
    REQUIRE(r);
    const Trace& t = *r.value();
    const std::uint32_t k = findSlice(t, "k");  // no demangled name: the short one
    CHECK(t.infos()[k].shape == 0);
    CHECK(t.infos()[k].correlation == -1);
    CHECK(t.tracks()[t.slices()[k].track].label() == "GPU 1 / stream 9");
    CHECK(std::isnan(t.metric(k, "registers per thread")));
}

namespace {

void requireSharedTraces() {
    if (test::haveSharedTraces()) return;
    std::cerr << test::sharedTraces() << " not found: real-trace tests skipped" << std::endl;
    contend::test::skipTest();
}

// Kernels whose correlation id has a runtime row, counted by SQLite itself.
long long kernelsWithRuntime(const std::string& path) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(("file:" + path + "?immutable=1").c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                            nullptr) == SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db,
                               "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM "
                               "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId)",
                               -1, &st, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(st) == SQLITE_ROW);
    const long long n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

}  // namespace

TEST_CASE("nsys sqlite: every real export loads with the README's counts, linked, and analyses", "[real][nsys]") {
    requireSharedTraces();
    struct Expected {
        std::uint64_t kernels, memcpys, memsets, runtime, sync, nvtx;
    };
    // ../shared/traces/README.md, "Databases".
    const std::map<std::string, Expected> expected = {
        {"nsys-nsys_ai/tests/fixtures/h100_2gpu_1s.sqlite", {3442, 904, 22, 5796, 244, 16782}},
        {"nsys-nsys_ai/tests/fixtures/mock.sqlite", {2, 1, 0, 9, 1, 0}},
        {"nsys-flameox/tests/fixtures/nsight_systems/nsight-2025.5.2.sqlite", {3, 1, 0, 33, 2, 0}},
    };
    std::size_t seen = 0;
    for (const auto& e : fs::recursive_directory_iterator(test::sharedTraces())) {
        if (!e.is_regular_file() || e.path().extension() != ".sqlite") continue;
        const std::string path = e.path().string();
        const std::string rel = fs::relative(e.path(), test::sharedTraces()).string();
        INFO(path);
        LoadResult r = loadTrace(path);
        INFO((!r.ok() ? r.failure().message() : std::string()));
        REQUIRE(r);
        ++seen;
        const Trace& t = *r.value();
        CHECK(formatName(t.traceFormat()) == "nsys-sqlite");
        std::uint64_t kernels = 0, memcpys = 0, memsets = 0, linked = 0;
        for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
            const std::string_view cat = t.str(t.slices()[i].category);
            const std::string_view name = t.str(t.slices()[i].name);
            CHECK(name.find("(unnamed") == std::string_view::npos);  // every name found in StringIds
            if (cat == "kernel") {
                ++kernels;
                if (t.infos()[i].launch != kNone) ++linked;
                CHECK(t.str(t.infos()[i].shape).rfind("grid=[", 0) == 0);
            }
            memcpys += cat == "gpu_memcpy";
            memsets += cat == "gpu_memset";
        }
        auto it = expected.find(rel);
        REQUIRE(it != expected.end());
        const Expected& x = it->second;
        CHECK(kernels == x.kernels);
        CHECK(memcpys == x.memcpys);
        CHECK(memsets == x.memsets);
        auto phase = [&](const char* k) { return t.stats().phases.count(k) ? t.stats().phases.at(k) : 0; };
        CHECK(phase("runtime") == x.runtime);
        CHECK(phase("sync") == x.sync);
        CHECK(phase("nvtx") == x.nvtx);
        // Each kernel whose runtime launch is in the export is linked to it.
        CHECK(linked == static_cast<std::uint64_t>(kernelsWithRuntime(path)));
        CHECK(linked > 0);
        CHECK(contend::test::analysisFailure(r.value()) == "");
        std::printf("nsys %-70s %6llu kernels (%llu linked) %4llu memcpy %3llu memset %6zu operators %.3f s\n",
                    rel.c_str(), static_cast<unsigned long long>(kernels), static_cast<unsigned long long>(linked),
                    static_cast<unsigned long long>(memcpys), static_cast<unsigned long long>(memsets),
                    t.slices().size(), t.stats().seconds);
    }
    CHECK(seen == expected.size());
}

TEST_CASE("nsys sqlite: a real export cut in half is refused as malformed", "[real][nsys]") {
    requireSharedTraces();  // reported skipped without ../shared/traces, never passed silently
    const std::string src = test::sharedTraces() + "/nsys-nsys_ai/tests/fixtures/h100_2gpu_1s.sqlite";
    REQUIRE(fs::exists(src));
    test::TempFile f("half.sqlite");
    const std::string bytes = test::slurp(src);
    f.write(bytes.substr(0, bytes.size() / 2));
    LoadResult r = loadTrace(f.path());
    REQUIRE(!r.ok());
    const std::string m = r.failure().message();
    INFO(m);
    CHECK(m.find(f.path()) == 0);
    CHECK(m.find("malformed") != std::string::npos);
}

TEST_CASE("nsys sqlite: a cancelled load says so", "[real][nsys]") {
    requireSharedTraces();
    LoadOptions o;
    o.progress = [](double) { return false; };
    LoadResult r = loadTrace(test::sharedTraces() + "/nsys-nsys_ai/tests/fixtures/h100_2gpu_1s.sqlite", o);
    CHECK_FALSE(r);
    CHECK(r.cancelled());
    REQUIRE(!r.ok());
    CHECK(r.failure().kind == Failure::Kind::Cancelled);
    CHECK(r.failure().message() ==
          test::sharedTraces() + "/nsys-nsys_ai/tests/fixtures/h100_2gpu_1s.sqlite: cancelled");
}

TEST_CASE("nsys sqlite: hostile databases give a located error or load what is there", "[nsys]") {
    test::TempFile f("hostile.sqlite");
    SECTION("not SQLite at all") {
        f.write("SQLite format 2, or so it says\n");
        LoadResult r = loadTrace(f.path());
        REQUIRE(!r.ok());
        CHECK(r.failure().message().find(f.path() + ": byte 0: not an SQLite database") == 0);
    }
    SECTION("wrong column types: text where numbers belong, a blob for a name") {
        makeDb(f.path(), tinyExport() +
                             "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('soon', 'later', 'zero', 'x', 'y',"
                             " X'00ff', 'k', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i');"
                             "UPDATE StringIds SET value = CAST(X'6BFF' AS TEXT) WHERE id = 2;");
        LoadResult r = loadTrace(f.path());
        INFO((!r.ok() ? r.failure().message() : std::string()));
        REQUIRE(r);
        // The row with text for times is dropped and counted, as the JSON reader counts a ts
        // that is not a number; the other columns' text reads as 0.
        CHECK(r.value()->stats().phases.at("kernel") == 1);
        CHECK(problemCount(*r.value(), ImportProblem::TsNotNumber) == 1);
        findSlice(*r.value(), "k?");  // a kernel name that is not UTF-8, repaired
    }
    SECTION("every table empty") {
        makeDb(f.path(), tinyExport() +
                             "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL; DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY;"
                             " DELETE FROM CUPTI_ACTIVITY_KIND_MEMSET; DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME;"
                             " DELETE FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION; DELETE FROM NVTX_EVENTS;"
                             " DELETE FROM GPU_METRICS; DELETE FROM StringIds;");
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        CHECK(r.value()->slices().empty());
        CHECK(contend::test::analysisFailure(r.value()) == "");
    }
    SECTION("a huge StringIds: a 1 MB kernel name is cut to 64 KiB") {
        makeDb(f.path(), tinyExport() + "UPDATE StringIds SET value = hex(zeroblob(500000)) WHERE id = 2;");
        LoadResult r = loadTrace(f.path());
        REQUIRE(r);
        const std::uint32_t k = findSlice(*r.value(), std::string(64u << 10, '0') + "...");
        CHECK(r.value()->str(r.value()->slices()[k].name).size() == (64u << 10) + 3);
    }
    SECTION("a database another process holds locked") {
        makeDb(f.path(), tinyExport());
        sqlite3* other = nullptr;
        REQUIRE(sqlite3_open(f.path().c_str(), &other) == SQLITE_OK);
        REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE; DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL;", nullptr, nullptr,
                             nullptr) == SQLITE_OK);
        LoadResult r = loadTrace(f.path());
        sqlite3_exec(other, "ROLLBACK;", nullptr, nullptr, nullptr);
        sqlite3_close(other);
        REQUIRE(r);  // opened immutable: no lock taken, the committed rows read
        CHECK(r.value()->stats().phases.at("kernel") == 1);
    }
}

TEST_CASE("nsys sqlite: damaged times are counted as the JSON reader counts them, with the table and row",
          "[nsys][problems]") {
    // Each damaged kernel row (start, end) is dropped and counted under the problem the same
    // damage gets in Kineto JSON; the example names the table, the row and the column.
    const struct {
        const char* times;
        ImportProblem problem;
        const char* column;
    } cases[] = {
        {"3000, 1000", ImportProblem::NegativeDur, "end"},                   // end before start
        {"1000, 2000000000001000", ImportProblem::DurOutOfRange, "end"},     // 2e15 ns: 23 days
        {"1000, 9000000000000000000", ImportProblem::DurOutOfRange, "end"},  // end past 2079
        {"-9000000000000000000, 1000", ImportProblem::TsOutOfRange, "start"},
        {"'soon', 3000", ImportProblem::TsNotNumber, "start"},
        {"NULL, 3000", ImportProblem::MissingTs, "start"},
        {"1000, 'later'", ImportProblem::DurNotNumber, "end"},
        {"1000, NULL", ImportProblem::DurNotNumber, "end"},
    };
    for (const auto& c : cases) {
        DYNAMIC_SECTION(c.times) {
            test::TempFile f("times.sqlite");
            // Row 1 is the good kernel of the tiny export; row 2 the damaged one.
            makeDb(f.path(), tinyExport() + "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + c.times +
                                 ", 0, 7, 99, 2, 3, 4, 2, 1, 128, 1, 1, 32, 1024, 512);");
            LoadResult r = loadTrace(f.path());
            INFO((!r.ok() ? r.failure().message() : std::string()));
            REQUIRE(r);
            const Trace& t = *r.value();
            CHECK(t.stats().phases.at("kernel") == 1);
            CHECK(problemCount(t, c.problem) == 1);
            for (const auto& w : t.stats().warnings)
                if (w.id == c.problem)
                    CHECK(w.example == std::string("table CUPTI_ACTIVITY_KIND_KERNEL, row 2, column ") + c.column);
            for (const auto& sl : t.slices()) CHECK(sl.dur >= 0);
        }
    }
}

TEST_CASE("nsys sqlite: a real export with every kernel's end before its start is refused, a third counted",
          "[real][nsys][problems]") {
    if (!test::haveSharedTraces()) test::skipTest();
    const std::string src = test::sharedTraces() + "/nsys-nsys_ai/tests/fixtures/h100_2gpu_1s.sqlite";
    test::TempFile f("reversed.sqlite");
    auto reversed = [&](const char* where) {
        f.write(test::slurp(src));
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(f.path().c_str(), &db) == SQLITE_OK);
        REQUIRE(sqlite3_exec(db,
                             (std::string("PRAGMA journal_mode = DELETE; UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = "
                                          "start - 1") +
                              where + ";")
                                 .c_str(),
                             nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
        return loadTrace(f.path());
    };
    // Every one of the README's 3442 kernels (the [real] case above): too damaged to trust.
    LoadResult all = reversed("");
    REQUIRE_FALSE(all);
    CHECK(all.failure().message().find("table CUPTI_ACTIVITY_KIND_KERNEL: 3442 of 3442 rows invalid: negative dur") !=
          std::string::npos);
    // A third of them: counted with the first row, and the rest still reads.
    LoadResult third = reversed(" WHERE rowid % 3 = 0");
    INFO((!third.ok() ? third.failure().message() : std::string()));
    REQUIRE(third);
    const Trace& t = *third.value();
    CHECK(problemCount(t, ImportProblem::NegativeDur) == 3442 / 3);
    CHECK(t.stats().phases.at("kernel") == 3442 - 3442 / 3);
    CHECK(t.stats().phases.at("memcpy") == 904);
}

TEST_CASE("nsys sqlite: TARGET_INFO_GPU's peaks are the device's, and the analysis sets copies against them",
          "[nsys][bounds]") {
    test::TempFile f("peaks.sqlite");
    makeDb(f.path(), tinyExport());
    LoadResult r = loadTrace(f.path());
    REQUIRE(r);
    const Trace& t = *r.value();
    REQUIRE(t.source().devices.size() == 1);
    const Source::Device* d = t.source().device(0);
    REQUIRE(d);
    CHECK(d->memoryBandwidth == 100e9);
    CHECK(d->smCount == 8);
    CHECK(d->l2Bytes == 1048576);
    CHECK(d->clockHz == 0);  // no clockRate column in this export
    CHECK(t.source().device(1) == nullptr);
    // The memset writes 256 bytes in 100 ns: 2.56 GB/s of the device's 100 GB/s. The copy is
    // host-to-device: the host link's, not the device memory's.
    CHECK(copyBandwidthShare(t, findSlice(t, "Memset (Device)")) == Approx(0.0256));
    CHECK(std::isnan(copyBandwidthShare(t, findSlice(t, "Memcpy HtoD (Pageable -> Device)"))));
    const Report withPeaks = contend::test::analyzeOk(r.value(), AnalysisSettings{});
    for (const ReportNote& n : withPeaks.notes) CHECK(n.kind != "no-device-peaks");

    // Without the table: no peak, nothing set against it, and a note says so.
    test::TempFile g("no-peaks.sqlite");
    makeDb(g.path(), tinyExport() + "DROP TABLE TARGET_INFO_GPU;");
    LoadResult np = loadTrace(g.path());
    REQUIRE(np);
    CHECK(np.value()->source().devices.empty());
    CHECK(std::isnan(copyBandwidthShare(*np.value(), findSlice(*np.value(), "Memset (Device)"))));
    const Report withoutPeaks = contend::test::analyzeOk(np.value(), AnalysisSettings{});
    bool noted = false;
    for (const ReportNote& n : withoutPeaks.notes) noted = noted || n.kind == "no-device-peaks";
    CHECK(noted);
}

TEST_CASE("nsys sqlite: the real exports' stated peaks are read as the devices'", "[real][nsys][bounds]") {
    requireSharedTraces();
    LoadResult r = loadTrace(test::sharedTraces() + "/nsys-nsys_ai/tests/fixtures/mock.sqlite");
    REQUIRE(r);
    const Source::Device* d = r.value()->source().device(0);
    REQUIRE(d);  // NVIDIA GeForce RTX 3080 (TARGET_INFO_GPU as exported)
    CHECK(d->memoryBandwidth == 760080000000.0);
    CHECK(d->smCount == 68);
    CHECK(d->clockHz == 1710000000.0);
    // An export without TARGET_INFO_GPU states none.
    LoadResult h = loadTrace(test::sharedTraces() + "/nsys-nsys_ai/tests/fixtures/h100_2gpu_1s.sqlite");
    REQUIRE(h);
    CHECK(h.value()->source().devices.empty());
}
