// The Ascend profiler database reader (core/io/db/ascend_db_reader.h): a tiny database made here
// with the sqlite3 C API pins names, task types, shapes, metrics, links, counters and steps
// exactly; the pipe ratios decide the character by the vendor's thresholds; broken and hostile
// databases are refused naming the file and the table, or load what is there; every Ascend .db
// under ../shared/traces loads with the counts its README lists and analyses; and the text and
// database exports of the same rank folder agree on what they should. Without ../shared/traces
// the [real] cases are reported as skipped (test::skipTest).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sqlite3.h>
#include <string>

#include "analyze_support.h"
#include "ascend_db_test_support.h"
#include "core/analysis/engine.h"
#include "core/analysis/findings/summary.h"
#include "core/analysis/inputs/signatures.h"
#include "core/analysis/scoring/character.h"
#include "core/io/load.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_builder.h"
#include "sqlite_test_db.h"
#include "test_support.h"

using namespace contend;
using contend::test::makeDb;
using namespace contend::test::ascend_db;
namespace fs = std::filesystem;

namespace {

// pid 77, tid 78 as msprof's globalTid packs them (pid in the high 32 bits).
const std::string kTid = std::to_string((77LL << 32) | 78);

// A tiny torch_npu database: three tasks on stream 2 (a vector kernel, a cube kernel, an event
// wait), one HCCL task on stream 4 under one collective, a CANN launch and a PyTorch op for the
// vector kernel, one HBM/LLC/frequency sample each, one step. `compute` is the column list of
// COMPUTE_TASK_INFO (the block dim column is renamed between releases).
std::string tinyDb(
    const std::string& compute = "name, globalTaskId, blockNum, mixBlockNum, taskType, opType, inputShapes, waitNs",
    const std::string& taskStart = "startNs") {
    return "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
           "INSERT INTO STRING_IDS VALUES (1, 'trans_TransData_0'), (2, 'AI_VECTOR_CORE'), (3, 'TransData'),"
           " (4, '\"32,3,224,224\"'), (5, 'KERNEL_AIVEC'), (6, 'Conv2D1'), (7, 'AI_CORE'), (8, 'KERNEL_AICORE'),"
           " (9, 'EVENT_WAIT'), (10, 'aiv_mte2_ratio'), (11, 'aiv_total_time'), (12, 'aic_mac_ratio'),"
           " (13, 'Notify Wait'), (14, 'Notify_Wait'), (15, 'hcom_allReduce__1_0_1'), (16, 'group0'),"
           " (17, 'launch'), (18, 'aten::add'), (19, '32,3;32,3'), (20, 'read'), (21, 'aiv_mte2_time');"
           "CREATE TABLE META_DATA (name TEXT, value TEXT);"
           "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.0.0');"
           "CREATE TABLE NPU_INFO (id INTEGER, name TEXT); INSERT INTO NPU_INFO VALUES (0, 'Ascend910B');"
           "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
           "INSERT INTO ENUM_API_TYPE VALUES (10000, 'node'), (20000, 'acl'), (50001, 'op'), (50002, 'queue');"
           "CREATE TABLE TASK (" +
           taskStart +
           " INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,"
           " globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER,"
           " taskId INTEGER, modelId INTEGER);"
           "INSERT INTO TASK VALUES (10000, 12000, 0, 5, 1, 77, 5, 0, 2, 101, 0), (13000, 17000, 0, 6, 2, 77, 8, 0, 2, "
           "102, 0),"
           " (17500, 19000, 0, -1, 3, 77, 9, 0, 2, 103, 0), (20000, 22000, 0, 9, 4, 77, 13, 0, 4, 104, 0);"
           "CREATE TABLE COMPUTE_TASK_INFO (" +
           compute +
           ");"
           "INSERT INTO COMPUTE_TASK_INFO VALUES (1, 1, 32, 0, 2, 3, 4, 700), (6, 2, 16, 0, 7, 6, 4, 0);"
           "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER, value NUMERIC);"
           "INSERT INTO TASK_PMU_INFO VALUES (1, 10, 0.97), (1, 11, 1800.0), (1, 21, 1746.0), (2, 12, 0.85);"
           "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER, globalTaskId INTEGER, taskType INTEGER, planeId "
           "INTEGER,"
           " groupName INTEGER, size INTEGER, opId INTEGER);"
           "INSERT INTO COMMUNICATION_TASK_INFO VALUES (15, 4, 14, 3, 16, 4000, 1);"
           "CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER,"
           " groupName INTEGER, opId INTEGER, waitNs INTEGER);"
           "INSERT INTO COMMUNICATION_OP VALUES (15, 19500, 23000, 9, 16, 1, 300);"
           "CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER, globalTid INTEGER, connectionId "
           "INTEGER,"
           " name INTEGER, depth INTEGER);"
           "INSERT INTO CANN_API VALUES (8000, 9000, 10000, " +
           kTid +
           ", 5, 17, 0);"
           "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER,"
           " inputShapes INTEGER, type INTEGER, depth INTEGER);"
           "INSERT INTO PYTORCH_API VALUES ('7000', '9500', " +
           kTid +
           ", 0, 18, 19, 50001, 0);"
           "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER); INSERT INTO CONNECTION_IDS VALUES (0, 5);"
           "CREATE TABLE HBM (deviceId INTEGER, timestampNs INTEGER, bandwidth NUMERIC, hbmId INTEGER, type INTEGER);"
           "INSERT INTO HBM VALUES (0, 10000, 2000000000, 1, 20);"
           "CREATE TABLE LLC (deviceId INTEGER, llcId INTEGER, timestampNs INTEGER, hitRate REAL, throughput INTEGER,"
           " mode INTEGER);"
           "INSERT INTO LLC VALUES (0, 0, 10000, 85.5, 3000000, 20);"
           "CREATE TABLE AICORE_FREQ (deviceId INTEGER, timestampNs NUMERIC, freq INTEGER);"
           "INSERT INTO AICORE_FREQ VALUES (0, 5000, 1800);"
           "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER); INSERT INTO STEP_TIME VALUES (7, "
           "6000, 25000);";
}

}  // namespace

TEST_CASE("ascend db: a tiny database reads as the text export would show it", "[ascenddb]") {
    test::TempFile f("tiny_ascend.db");
    makeDb(f.path(), tinyDb());
    LoadResult r = loadOk(f.path());
    const Trace& t = *r.value();
    CHECK(formatName(t.traceFormat()) == "ascend-db");
    CHECK(t.source().details.front() == std::pair<std::string, std::string>("schema", "SCHEMA_VERSION 1.0.0"));
    CHECK(phase(t, "task") == 4);
    CHECK(phase(t, "compute_task") == 2);
    CHECK(phase(t, "communication_task") == 1);
    CHECK(phase(t, "pmu") == 4);
    CHECK(phase(t, "hbm") == 1);
    CHECK(phase(t, "step") == 1);

    // The vector kernel: named by COMPUTE_TASK_INFO, its accelerator core as the task type.
    const std::uint32_t v = findSlice(t, "trans_TransData_0");
    const Slice& vs = t.slices()[v];
    const SliceInfo& vi = t.infos()[v];
    CHECK(vs.start == 10000);
    CHECK(vs.dur == 2000);
    CHECK(vs.is(kSliceDevice));
    CHECK(t.tracks()[vs.track].label() == "Ascend Hardware / Stream 2");
    CHECK(t.tracks()[vs.track].kind == TrackKind::DeviceStream);
    CHECK(t.str(vi.taskType) == "AI_VECTOR_CORE");
    CHECK(t.str(vi.shape) == "32,3,224,224");  // unquoted as the text join does
    CHECK(vi.stream == 2);
    CHECK(vi.taskId == 101);
    CHECK(vi.waitNs == 700);
    CHECK(vi.correlation == 5);
    CHECK(t.metric(v, "Block Dim") == 32.0f);  // from the blockNum column
    CHECK(t.metric(v, "aiv_mte2_ratio") == Approx(0.97f));
    CHECK(t.metric(v, "aiv_time(us)") == Approx(1.8f));  // ns in the database, us as kernel_details.csv
    CHECK(t.metric(v, "aiv_mte2_time(us)") == Approx(1.746f));
    // Launched by the CANN call on its connection (flagged a launch), with flows from it and
    // from the PyTorch op (through CONNECTION_IDS) to the task.
    REQUIRE(vi.launch != kNone);
    CHECK(t.str(t.slices()[vi.launch].name) == "Node@launch");
    CHECK(t.slices()[vi.launch].is(kSliceLaunch));
    std::set<std::string> into;
    for (const Flow& fl : t.flows())
        if (fl.to == v && fl.from != kNone)
            into.insert(std::string(t.str(fl.category)) + ":" + std::string(t.str(t.slices()[fl.from].name)));
    CHECK(into == std::set<std::string>{"HostToDevice:Node@launch", "async_npu:aten::add"});
    const std::uint32_t op = findSlice(t, "aten::add");
    CHECK(t.tracks()[t.slices()[op].track].label() == "Python / Thread 78");
    CHECK(t.str(t.slices()[op].category) == "cpu_op");
    CHECK(t.str(t.infos()[op].shape) == "32,3;32,3");
    CHECK(t.slices()[op].start == 7000);  // PYTORCH_API writes times as TEXT

    // The wait task keeps its database name and takes the text export's queue-entry type.
    const std::uint32_t w = findSlice(t, "EVENT_WAIT");
    CHECK(t.str(t.infos()[w].taskType) == "EVENT_WAIT_SQE");
    CHECK(t.slices()[w].is(kSliceWait));
    // The HCCL task: on its stream as a wait, and its twin on the HCCL plane, with the flow from
    // the collective's launch going to the collective.
    const std::uint32_t h = findSlice(t, "Notify Wait");
    CHECK(t.slices()[h].is(kSliceWait));
    const std::uint32_t plane = findSlice(t, "Notify_Wait", "HCCL");
    CHECK(t.tracks()[t.slices()[plane].track].label() == "HCCL / Plane 3");
    CHECK(t.metric(plane, "bandwidth(GB/s)") == Approx(2.0f));  // 4000 bytes in 2000 ns
    const std::uint32_t coll = findSlice(t, "hcom_allReduce__1_0_1", "HCCL");
    CHECK(t.tracks()[t.slices()[coll].track].label() == "HCCL / Group 0 Communication");
    CHECK(t.infos()[coll].waitNs == 300);

    // Counters under the text export's names and units.
    const CounterSeries* hbm = findCounter(t, "HBM 1/Read Read(MB/s)");
    REQUIRE(hbm);
    CHECK(hbm->processName == "HBM");
    CHECK(hbm->values.front() == Approx(2000.0));  // 2e9 B/s
    const CounterSeries* hit = findCounter(t, "LLC 0 Read/Hit Rate Hit Rate(%)");
    REQUIRE(hit);
    CHECK(hit->values.front() == Approx(85.5));
    REQUIRE(findCounter(t, "AI Core Freq MHz"));
    // STEP_TIME: one iteration.
    const auto its = findIterations(t);
    REQUIRE(its.size() == 1);
    CHECK(its[0].index == 7);
    CHECK(its[0].start == 6000);
}

TEST_CASE("ascend db: the pipe ratios decide the character by the vendor thresholds", "[ascenddb]") {
    test::TempFile f("pipes_ascend.db");
    // Five runs each of: a vector task at aiv_mte2_ratio 0.97 (memory-bound), a cube task at
    // aic_mac_ratio 0.85 (compute-bound), a vector task at 0.6 (below both thresholds), and a
    // task without ratios.
    std::string sql =
        "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
        "INSERT INTO STRING_IDS VALUES (1, 'VecHeavy'), (2, 'CubeHeavy'), (3, 'VecLight'), (4, 'Plain'),"
        " (5, 'AI_VECTOR_CORE'), (6, 'AI_CORE'), (7, 'aiv_mte2_ratio'), (8, 'aic_mac_ratio'), (9, 'aiv_vec_ratio'),"
        " (10, 'KERNEL_AIVEC');"
        "CREATE TABLE TASK (startNs, endNs, deviceId, connectionId, globalTaskId, taskType, streamId, taskId);"
        "CREATE TABLE COMPUTE_TASK_INFO (name, globalTaskId, blockDim, taskType);"
        "CREATE TABLE TASK_PMU_INFO (globalTaskId, name, value);";
    for (int i = 0; i < 20; ++i) {
        const int kind = i % 4, id = i;
        const std::string start = std::to_string(1000 + i * 1000), end = std::to_string(1500 + i * 1000);
        sql += "INSERT INTO TASK VALUES (" + start + ", " + end + ", 0, -1, " + std::to_string(id) + ", 10, 2, " +
               std::to_string(id) + ");";
        sql += "INSERT INTO COMPUTE_TASK_INFO VALUES (" + std::to_string(kind + 1) + ", " + std::to_string(id) +
               ", 8, " + (kind == 1 ? "6" : "5") + ");";
        if (kind == 0)
            sql += "INSERT INTO TASK_PMU_INFO VALUES (" + std::to_string(id) + ", 7, 0.97), (" + std::to_string(id) +
                   ", 9, 0.3);";
        if (kind == 1) sql += "INSERT INTO TASK_PMU_INFO VALUES (" + std::to_string(id) + ", 8, 0.85);";
        if (kind == 2)
            sql += "INSERT INTO TASK_PMU_INFO VALUES (" + std::to_string(id) + ", 7, 0.6), (" + std::to_string(id) +
                   ", 9, 0.5);";
    }
    makeDb(f.path(), sql);
    LoadResult r = loadOk(f.path());
    const Trace& t = *r.value();
    const OperatorSet ops = selectOperators(t);
    REQUIRE(ops.signatures.size() == 4);
    const auto chars = signatureCharacters(t, ops, PressureResult{});
    std::map<std::string, SignatureCharacter> by;
    for (std::size_t s = 0; s < ops.signatures.size(); ++s) by[std::string(t.str(ops.signatures[s].name))] = chars[s];
    CHECK(by["VecHeavy"].character == Character::Memory);
    CHECK(by["VecHeavy"].source == CharacterSource::Measured);
    CHECK(by["CubeHeavy"].character == Character::Compute);
    CHECK(by["CubeHeavy"].source == CharacterSource::Measured);
    // Below the thresholds the ratios say nothing; the task type speaks (AI_VECTOR_CORE).
    CHECK(by["VecLight"].source == CharacterSource::Names);
    CHECK(by["VecLight"].character == Character::Memory);
    CHECK(by["Plain"].source == CharacterSource::Names);
    for (std::uint32_t s = 0; s < ops.signatures.size(); ++s) {
        const std::string name(t.str(ops.signatures[s].name));
        const auto pipe = ascendPipeCharacter(t, ops, s);
        if (name == "Plain") CHECK_FALSE(pipe);
        if (name == "VecLight") CHECK(pipe == Character::Unknown);
    }
}

TEST_CASE("ascend db: broken and hostile databases give a located error or load what is there", "[ascenddb]") {
    test::TempFile f("broken_ascend.db");
    auto refused = [&](const std::string& path, const std::string& reason) {
        LoadResult r = loadTrace(path);
        REQUIRE_FALSE(r);
        REQUIRE(!r.ok());
        const std::string m = r.failure().message();
        INFO(m);
        CHECK(m.find(path) == 0);
        CHECK(m.find(reason) != std::string::npos);
    };
    SECTION("not SQLite") {
        f.write("this is not a database, just text with a .db name\n");
        refused(f.path(), "not an SQLite database");
    }
    SECTION("an empty file") {
        f.write("");
        refused(f.path(), "not an SQLite database");
    }
    SECTION("truncated: a database cut short") {
        makeDb(f.path(), tinyDb() + "CREATE TABLE PAD (x); INSERT INTO PAD VALUES (randomblob(200000));");
        const std::string bytes = test::slurp(f.path());
        f.write(bytes.substr(0, 8192));
        refused(f.path(), "malformed");
    }
    SECTION("a task table without its start column") {
        makeDb(f.path(),
               tinyDb("name, globalTaskId, blockNum, mixBlockNum, taskType, opType, inputShapes, waitNs", "start"));
        refused(f.path(), "table TASK: no column 'startNs'");
    }
    SECTION("a compute table without globalTaskId") {
        makeDb(f.path(), tinyDb("name, id, blockNum, mixBlockNum, taskType, opType, inputShapes, waitNs"));
        refused(f.path(), "table COMPUTE_TASK_INFO: no column 'globalTaskId'");
    }
    SECTION("an analysis.db opened by itself") {
        test::TempFile dir("analysis_dir");
        fs::create_directories(dir.path());
        const std::string p = dir.path() + "/analysis.db";
        makeDb(p, "CREATE TABLE StepTraceTime (step, computing); INSERT INTO StepTraceTime VALUES (1, 2);");
        refused(p, "summary tables only");
    }
    SECTION("wrong column types: times that are not numbers, names that are blobs") {
        makeDb(f.path(), tinyDb() +
                             "INSERT INTO TASK VALUES ('soon', X'00ff', 0, -1, 99, 77, 5, 0, 2, 1, 0);"
                             "INSERT INTO TASK VALUES (30000, 31000, 'zero', -1, 98, 77, X'0102', 0, 2, 2, 0);"
                             "INSERT INTO TASK_PMU_INFO VALUES (1, 'text', 'not a number');"
                             "UPDATE STRING_IDS SET value = CAST(X'7472616E73C0' AS TEXT) WHERE id = 1;");
        LoadResult r = loadOk(f.path());
        // The row without times is dropped, counted; so is the row whose device id is text and
        // whose stream id a blob (no track can be told for it).
        CHECK(phase(*r.value(), "task") == 4);
        bool warned = false, utf8 = false, pmu = false, ids = false;
        for (const auto& w : r.value()->stats().warnings) {
            // As the JSON reader says of a "ts" that is not a number, with the table and row.
            warned |= w.id == ImportProblem::TsNotNumber && w.count == 1 &&
                      w.example.rfind("table TASK, row ", 0) == 0 &&
                      w.example.find("column startNs") != std::string::npos;
            pmu |= w.id == ImportProblem::DbPmuRowWithoutMetric && w.example == "table TASK_PMU_INFO";
            ids |= w.id == ImportProblem::DbIdNotInteger && w.count == 1 &&
                   w.example == "table TASK, row 6, column deviceId";
            utf8 |= w.id == ImportProblem::InvalidUtf8 && w.kind == "invalid UTF-8 replaced by '?'" &&
                    w.example == "table STRING_IDS, id 1" && w.unit == ProblemUnit::Byte;
        }
        CHECK(warned);
        CHECK(utf8);
        CHECK(pmu);
        CHECK(ids);
        findSlice(*r.value(), "trans?");  // a name that is not UTF-8, repaired
    }
    SECTION("tables with no rows") {
        makeDb(f.path(),
               "CREATE TABLE STRING_IDS (id, value); CREATE TABLE TASK (startNs, endNs, deviceId, streamId);"
               "CREATE TABLE COMPUTE_TASK_INFO (name, globalTaskId); CREATE TABLE HBM (timestampNs, bandwidth);");
        LoadResult r = loadOk(f.path());
        CHECK(r.value()->slices().empty());
        CHECK(contend::test::analysisFailure(r.value()) == "");
    }
    SECTION("only TASK and STRING_IDS: every other table missing") {
        makeDb(f.path(),
               "CREATE TABLE STRING_IDS (id, value); INSERT INTO STRING_IDS VALUES (1, 'SDMA');"
               "CREATE TABLE TASK (startNs, endNs, taskType, streamId); INSERT INTO TASK VALUES (100, 200, 1, 3);");
        LoadResult r = loadOk(f.path());
        REQUIRE(r.value()->slices().size() == 1);
        CHECK(r.value()->str(r.value()->slices()[0].name) == "SDMA");
        CHECK(r.value()->tracks()[r.value()->slices()[0].track].label() == "Ascend Hardware / Stream 3");
    }
    SECTION("a huge STRING_IDS: a 1 MB name is cut, many names exceed a small budget") {
        makeDb(f.path(), tinyDb() +
                             "UPDATE STRING_IDS SET value = hex(zeroblob(500000)) WHERE id = 1;"
                             "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)"
                             " INSERT INTO STRING_IDS SELECT 1000 + x, hex(randomblob(100)) FROM c;");
        LoadResult r = loadOk(f.path());
        const std::uint32_t v = findSlice(*r.value(), std::string(TraceBuilder::kMaxStringBytes, '0') + "...");
        CHECK(r.value()->str(r.value()->slices()[v].name).size() == TraceBuilder::kMaxStringBytes + 3);
        LoadOptions o;
        o.memoryLimitBytes = 2u << 20;
        LoadResult small = loadTrace(f.path(), o);
        REQUIRE(!small.ok());
        CHECK(small.failure().reason.rfind("not enough memory", 0) == 0);
        CHECK(small.failure().kind == Failure::Kind::OutOfMemory);  // set by the reader, not read from the text
    }
    SECTION("a database another process holds locked") {
        makeDb(f.path(), tinyDb());
        sqlite3* other = nullptr;
        REQUIRE(sqlite3_open(f.path().c_str(), &other) == SQLITE_OK);
        REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE; INSERT INTO STEP_TIME VALUES (8, 1, 2);", nullptr, nullptr,
                             nullptr) == SQLITE_OK);
        LoadResult r = loadTrace(f.path());
        sqlite3_exec(other, "ROLLBACK;", nullptr, nullptr, nullptr);
        sqlite3_close(other);
        INFO((!r.ok() ? r.failure().message() : std::string()));
        CHECK(r);  // opened immutable: no lock is taken, the committed tables are read
    }
}

TEST_CASE("ascend db: damaged task times are counted as the JSON reader counts them", "[ascenddb][problems]") {
    // Rows 5-7 of TASK (after the tiny database's four): an end before the start, a 23-day
    // task, an end as text. Each is dropped and counted under the JSON reader's problem, the
    // first one of each kind named by table, row and column.
    test::TempFile f("times_ascend.db");
    makeDb(f.path(), tinyDb() +
                         "INSERT INTO TASK VALUES (40000, 30000, 0, -1, 97, 77, 5, 0, 2, 105, 0),"
                         " (40000, 2000000000040000, 0, -1, 96, 77, 5, 0, 2, 106, 0),"
                         " (40000, 'later', 0, -1, 95, 77, 5, 0, 2, 107, 0);");
    LoadResult r = loadOk(f.path());
    CHECK(phase(*r.value(), "task") == 4);
    std::map<ImportProblem, std::pair<std::uint64_t, std::string>> seen;
    for (const auto& w : r.value()->stats().warnings) seen[w.id] = {w.count, w.example};
    CHECK(seen[ImportProblem::NegativeDur] ==
          std::pair<std::uint64_t, std::string>{1, "table TASK, row 5, column endNs"});
    CHECK(seen[ImportProblem::DurOutOfRange] ==
          std::pair<std::uint64_t, std::string>{1, "table TASK, row 6, column endNs"});
    CHECK(seen[ImportProblem::DurNotNumber] ==
          std::pair<std::uint64_t, std::string>{1, "table TASK, row 7, column endNs"});
}

TEST_CASE("ascend db: several devices keep the text export's process names, their threads say which", "[ascenddb]") {
    test::TempFile f("devices_ascend.db");
    makeDb(f.path(),
           "CREATE TABLE STRING_IDS (id, value); INSERT INTO STRING_IDS VALUES (1, 'EVENT_WAIT'), (2, 'SDMA'), (3, "
           "'read');"
           "CREATE TABLE TASK (startNs, endNs, deviceId, taskType, streamId);"
           "INSERT INTO TASK VALUES (100, 200, 0, 1, 2), (100, 300, 1, 1, 2), (400, 500, 1, 2, 3);"
           "CREATE TABLE HBM (deviceId, timestampNs, bandwidth, hbmId, type);"
           "INSERT INTO HBM VALUES (0, 100, 1e9, 0, 3), (1, 100, 2e9, 0, 3);");
    LoadResult r = loadOk(f.path());
    const Trace& t = *r.value();
    std::set<std::string> labels;
    for (std::uint32_t i = 0; i < t.slices().size(); ++i) {
        const Track& tr = t.tracks()[t.slices()[i].track];
        labels.insert(tr.label());
        CHECK(tr.kind == TrackKind::DeviceStream);
        // The builder's Ascend rules still apply: waits and copies are flagged by task type.
        if (t.str(t.slices()[i].name) == "EVENT_WAIT") CHECK(t.slices()[i].is(kSliceWait));
        if (t.str(t.slices()[i].name) == "SDMA") CHECK(t.slices()[i].is(kSliceMemory));
    }
    CHECK(labels == std::set<std::string>{"Ascend Hardware / NPU 0 Stream 2", "Ascend Hardware / NPU 1 Stream 2",
                                          "Ascend Hardware / NPU 1 Stream 3"});
    CHECK(findCounter(t, "NPU 0 HBM 0/Read Read(MB/s)"));
    CHECK(findCounter(t, "NPU 1 HBM 0/Read Read(MB/s)"));
}
