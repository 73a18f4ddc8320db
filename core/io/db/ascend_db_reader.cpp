// Ascend profiler databases, part 1: schema, strings, what the capture says about itself, the
// device tasks with their compute, PMU and communication details. See ascend_db_reader.h for
// the shapes this makes; host APIs, flows, counters and steps are in ascend_db_host.cpp.
#include "core/io/db/ascend_db_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <utility>

#include "core/io/db/ascend_db_detail.h"
#include "core/io/memory_budget.h"
#include "core/io/text/decimal.h"
#include "core/io/text/utf8.h"
#include "core/trace/conventions.h"

namespace contend {

namespace ascenddb {

namespace {

constexpr const char* kTask = "TASK";
// What the model holds per row read (slice, info, metrics, strings), for the memory budget.
constexpr std::uint64_t kBytesPerRow = 100;
// Tables whose rows the load reads (for the budget and the progress fraction).
constexpr const char* kReadTables[] = {"TASK",
                                       "COMPUTE_TASK_INFO",
                                       "COMMUNICATION_TASK_INFO",
                                       "COMMUNICATION_OP",
                                       "TASK_PMU_INFO",
                                       "CANN_API",
                                       "PYTORCH_API",
                                       "CONNECTION_IDS",
                                       "MSTX_EVENTS",
                                       "HBM",
                                       "DDR",
                                       "LLC",
                                       "ACC_PMU",
                                       "SOC_BANDWIDTH_LEVEL",
                                       "AICORE_FREQ",
                                       "STEP_TIME",
                                       "STRING_IDS"};

// "\"32,3,224,224\"" -> "32,3,224,224", as the text join unquotes kernel_details.csv's shapes.
std::string_view unquote(std::string_view s) {
    while (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return s;
}

bool missing(std::string_view s) { return s.empty() || s == "N/A"; }

// TASK_PMU_INFO names -> kernel_details.csv column names; times from ns to us.
struct PmuKey {
    std::string key;
    double scale = 1;
};
PmuKey pmuKey(std::string_view name) {
    if (name == "aic_total_time") return {"aicore_time(us)", 1e-3};
    if (name == "aiv_total_time") return {"aiv_time(us)", 1e-3};
    if (name.size() > 5 && name.substr(name.size() - 5) == "_time") return {std::string(name) + "(us)", 1e-3};
    return {std::string(name), 1};
}

}  // namespace

bool Reader::timeOf(const SqliteStatement& st, int col, TimeNs& out) {
    // TEXT columns (PYTORCH_API) and NUMERIC ones that hold reals are parsed, so a value that
    // is not a number is caught instead of read as 0.
    return timeCell(st, col, out) == TimeCell::Ok;
}

std::string Reader::onDevice(std::string name, std::int64_t device) const {
    return m_multiDevice ? "NPU " + std::to_string(device) + " " + name : std::move(name);
}

const std::string& Reader::devicePid(const char* process, std::int64_t device) {
    auto [it, added] = m_pids.try_emplace({process, device});
    if (added) {
        // Each device its own process, under the text export's process name (what the builder
        // and the analyses recognise, "Ascend Hardware" above all); onDevice() tells the
        // threads and series of several devices apart.
        it->second = std::string(process) + " " + std::to_string(device);
        m_b.setProcessName(it->second, process);
    }
    return it->second;
}

std::optional<Failure> Reader::checkBudget() {
    const std::uint64_t rows = rowsIn(kReadTables);
    // The strings are held whole while reading: a table of huge names costs their size.
    std::uint64_t stringBytes = 0;
    std::string error;
    if (has("STRING_IDS"))
        if (SqliteStatement st = m_db.prepare("SELECT SUM(LENGTH(CAST(value AS BLOB))) FROM STRING_IDS", error);
            st && st.step())
            stringBytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, st.int64(0)));
    return withinBudget(rows, rows * kBytesPerRow + stringBytes * 2, "database");
}

std::optional<Failure> Reader::readStrings() {
    Result<SqliteStatement> selected = select("STRING_IDS", {{{"id"}, true}, {{"value"}, true}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    m_haveStringTable = true;
    SqliteStatement& st = *selected;
    std::size_t badBytes = 0;
    std::int64_t firstBad = -1;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        // Longer names are cut by the builder (with a warning) anyway: keep one byte more, so it
        // still sees them as too long.
        std::string v(st.text(1).substr(0, TraceBuilder::kMaxStringBytes + 1));
        // A TEXT cell need not be UTF-8 (SQLite does not check): repaired as the JSON reader does.
        if (!isValidUtf8(v.data(), v.size())) {
            badBytes += repairUtf8(v.data(), v.size());
            if (firstBad < 0) firstBad = st.int64(0);
        }
        m_strings.emplace(st.int64(0), std::move(v));
    }
    if (badBytes) m_b.warn(ImportProblem::InvalidUtf8, "table STRING_IDS, id " + std::to_string(firstBad), badBytes);
    return scanDone("STRING_IDS", st);
}

// What the file says about the capture, for `contend-cli info`. A damaged table costs its line.
void Reader::readInfo() {
    auto& details = m_b.source().details;
    std::string version;
    if (SqliteStatement st = trySelect("META_DATA", {{{"name"}}, {{"value"}}}); st)
        while (st.step())
            if (st.text(0) == "SCHEMA_VERSION") version = st.text(1);
    details.emplace_back("schema", version.empty() ? std::string("no META_DATA version (msprof database)")
                                                   : "SCHEMA_VERSION " + version);
    if (SqliteStatement st = trySelect("NPU_INFO", {{{"id"}}, {{"name"}}}); st)
        while (st.step()) details.emplace_back("NPU " + std::to_string(st.int64(0, -1)), std::string(st.text(1)));
    if (SqliteStatement st = trySelect("RANK_DEVICE_MAP", {{{"rankId"}}, {{"deviceId"}}}); st)
        while (st.step())
            details.emplace_back("rank " + std::to_string(st.int64(0, -1)),
                                 "device " + std::to_string(st.int64(1, -1)));
    if (SqliteStatement st = trySelect("HOST_INFO", {{{"hostName"}}}); st && st.step())
        details.emplace_back("host", std::string(st.text(0)));
    if (SqliteStatement st = trySelect("SESSION_TIME_INFO", {{{"startTimeNs"}}, {{"endTimeNs"}}}); st && st.step())
        details.emplace_back("session", std::to_string(st.int64(0)) + " .. " + std::to_string(st.int64(1)) +
                                            " ns (Unix epoch, as the trace's times)");
    if (SqliteStatement st = trySelect("TASK", {{{"deviceId"}}}, " GROUP BY 1"); st) {
        int devices = 0;
        while (st.step()) ++devices;
        m_multiDevice = devices > 1;
    }
}

std::optional<Failure> Reader::readComputeInfo() {
    Result<SqliteStatement> selected = select("COMPUTE_TASK_INFO", {{{"globalTaskId"}, true},
                                                                    {{"name"}},
                                                                    {{"taskType"}},
                                                                    {{"inputShapes"}},
                                                                    {{"blockDim", "blockNum", "block_dim"}},
                                                                    {{"mixBlockDim", "mixBlockNum", "mix_block_dim"}},
                                                                    {{"waitNs"}}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    std::uint64_t n = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        Compute c;
        if (!st.isNull(1)) c.name = m_b.intern(string(st.int64(1)));
        if (!st.isNull(2)) c.taskType = m_b.intern(string(st.int64(2)));
        if (!st.isNull(3)) {
            const std::string_view shape = unquote(string(st.int64(3)));
            if (!missing(shape)) c.shape = m_b.intern(shape);
        }
        c.blockDim = st.int64(4, -1);
        c.mixBlockDim = st.int64(5, -1);
        if (!st.isNull(6) && st.int64(6) >= 0) c.waitNs = st.int64(6);
        m_compute[st.int64(0)] = c;
        ++n;
    }
    counted("compute_task", n);
    return scanDone("COMPUTE_TASK_INFO", st);
}

std::optional<Failure> Reader::readPmu() {
    Result<SqliteStatement> selected =
        select("TASK_PMU_INFO", {{{"globalTaskId"}, true}, {{"name"}, true}, {{"value"}, true}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    struct Key {
        StringId id;
        double scale;
    };
    std::unordered_map<std::int64_t, Key> keys;
    std::uint64_t n = 0, skipped = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const std::int64_t nameId = st.int64(1, -1);
        auto it = keys.find(nameId);
        if (it == keys.end()) {
            const std::string_view name = string(nameId);
            const PmuKey k = pmuKey(name);
            it = keys.emplace(nameId, Key{name.empty() ? 0 : m_b.intern(k.key), k.scale}).first;
        }
        const double v = st.real(2, NAN);
        if (it->second.id == 0 || !std::isfinite(v)) {
            ++skipped;
            continue;
        }
        m_pmu[st.int64(0)].push_back(Metric{it->second.id, static_cast<float>(v * it->second.scale)});
        ++n;
    }
    if (skipped) m_b.warn(ImportProblem::DbPmuRowWithoutMetric, "table TASK_PMU_INFO", skipped);
    counted("pmu", n);
    return scanDone("TASK_PMU_INFO", st);
}

std::optional<Failure> Reader::readCommunicationInfo() {
    Result<SqliteStatement> selected =
        select("COMMUNICATION_TASK_INFO",
               {{{"globalTaskId"}, true}, {{"taskType"}}, {{"planeId"}}, {{"groupName"}}, {{"size"}}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    std::uint64_t n = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        Communication c;
        const std::string_view type = string(st.int64(1, -1));
        c.taskType = m_b.intern(type.empty() ? std::string_view("(communication task)") : type);
        c.plane = st.int64(2, -1);
        c.group = static_cast<StringId>(st.int64(3, 0) & 0xFFFFFFFF);
        c.size = st.int64(4, -1);
        m_communication[st.int64(0)] = c;
        ++n;
    }
    counted("communication_task", n);
    return scanDone("COMMUNICATION_TASK_INFO", st);
}

std::optional<Failure> Reader::readTasks() {
    Result<SqliteStatement> selected = select(kTask, {{{"startNs"}, true},
                                                      {{"endNs"}, true},
                                                      {{"deviceId"}},
                                                      {{"connectionId"}},
                                                      {{"globalTaskId"}},
                                                      {{"taskType"}},
                                                      {{"streamId"}},
                                                      {{"taskId"}}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    const StringId blockDim = m_b.intern("Block Dim");
    const StringId mixBlockDim = m_b.intern("Mix Block Dim");
    const StringId bandwidth = m_b.intern("bandwidth(GB/s)");
    std::unordered_map<std::int64_t, std::pair<StringId, StringId>> typeNames;  // type id -> (name, SQE name)
    std::unordered_set<std::uint64_t> namedTracks;
    std::uint64_t n = 0, hidden = 0, row = 0;
    std::string pid, tid;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 0, 1, kTask, ++row);
        std::int64_t device = 0, stream = -1;
        if (!times || !rowIds(st, 2, 6, kTask, row, device, stream, 0, -1)) continue;
        const std::int64_t taskId = st.int64(7, -1);
        const std::int64_t global = st.int64(4, -1), connection = st.int64(3, -1);
        if (!st.isNull(5) && m_strings.count(st.int64(5)) == 0) nameMissing(st.int64(5), st, 5, kTask, row);
        auto tn = typeNames.find(st.int64(5, -1));
        if (tn == typeNames.end()) {
            std::string_view type = string(st.int64(5, -1));
            if (type.empty()) type = "(unknown task type)";
            tn = typeNames
                     .emplace(st.int64(5, -1),
                              std::pair{m_b.intern(type), m_b.intern(conventions::ascendTextTaskType(type))})
                     .first;
        }
        const auto compute = m_compute.find(global);
        const auto comm = m_communication.find(global);
        // A kernel task without its operator (a collective's whole-span container on its
        // stream, a kernel the exporter could not attribute): the text export leaves it out,
        // and so does this reader, counting it.
        if (compute == m_compute.end() && comm == m_communication.end() && !m_compute.empty() &&
            conventions::isAscendDatabaseKernelTaskType(m_b.str(tn->second.first))) {
            ++hidden;
            ++n;
            continue;
        }
        pid = devicePid("Ascend Hardware", device);
        tid = std::to_string(stream);
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        s.track = m_b.track(pid, tid);
        s.flags = kSliceDevice;
        if (namedTracks.insert((static_cast<std::uint64_t>(device) << 32) ^ static_cast<std::uint32_t>(stream))
                .second) {
            m_b.setThreadName(pid, tid, onDevice("Stream " + tid, device));
            m_b.setThreadSortIndex(pid, tid, stream);
        }
        SliceInfo info;
        info.srcOffset = n;  // row number in TASK (no byte offsets in a database)
        info.correlation = connection;
        info.taskId = taskId;
        info.stream = static_cast<std::int32_t>(stream);
        info.device = static_cast<std::int32_t>(device);
        s.name = tn->second.first;
        info.taskType = tn->second.second;
        if (compute != m_compute.end()) {
            const Compute& c = compute->second;
            if (c.name) s.name = c.name;
            if (c.taskType) info.taskType = c.taskType;
            info.shape = c.shape;
            info.waitNs = c.waitNs;
        }
        if (conventions::isAscendDatabaseCopyTaskType(m_b.str(tn->second.first))) s.flags |= kSliceMemory;
        const std::uint32_t idx = m_b.addSlice(s, info);
        if (compute != m_compute.end()) {
            if (compute->second.blockDim >= 0)
                m_b.addMetric(idx, blockDim, static_cast<float>(compute->second.blockDim));
            if (compute->second.mixBlockDim >= 0)
                m_b.addMetric(idx, mixBlockDim, static_cast<float>(compute->second.mixBlockDim));
        }
        if (auto pmu = m_pmu.find(global); pmu != m_pmu.end())
            for (const Metric& m : pmu->second) m_b.addMetric(idx, m.key, m.value);
        if (connection >= 0) m_taskEnds[connection].push_back(Endpoint{s.track, s.start, 0, false});
        // Its twin on the HCCL process, as the text export shows communication tasks twice; not at
        // Level0, which records no plane (planeId 0xFFFFFFFF).
        if (comm != m_communication.end() && comm->second.plane >= 0 && comm->second.plane < 0xFFFFFFFF) {
            const Communication& c = comm->second;
            const std::string& hccl = devicePid("HCCL", device);
            const std::string plane = "plane " + std::to_string(c.plane);
            Slice h = s;
            h.flags = 0;
            h.name = c.taskType;
            h.track = m_b.track(hccl, plane);
            m_b.setThreadName(hccl, plane, onDevice("Plane " + std::to_string(c.plane), device));
            m_b.setThreadSortIndex(hccl, plane, c.plane + 1);
            SliceInfo hi;
            hi.srcOffset = n;
            const std::uint32_t hIdx = m_b.addSlice(h, hi);
            if (c.size > 0 && s.dur > 0)  // bytes per ns = GB/s
                m_b.addMetric(hIdx, bandwidth,
                              static_cast<float>(static_cast<double>(c.size) / static_cast<double>(s.dur)));
        }
        ++n;
    }
    if (hidden) m_b.warn(ImportProblem::DbKernelWithoutComputeInfo, "table TASK", hidden);
    counted("task", n);
    if (auto failed = scanDone(kTask, st)) return failed;
    return tooDamaged(kTask, row, row - n);
}

std::optional<Failure> Reader::readCommunicationOps() {
    Result<SqliteStatement> selected = select("COMMUNICATION_OP", {{{"opName"}},
                                                                   {{"startNs"}, true},
                                                                   {{"endNs"}, true},
                                                                   {{"connectionId"}},
                                                                   {{"groupName"}},
                                                                   {{"waitNs"}},
                                                                   {{"deviceId"}}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    std::uint64_t n = 0, row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 1, 2, "COMMUNICATION_OP", ++row);
        if (!times) continue;
        const std::int64_t groupId = st.int64(4, -1);
        const auto g = m_groupIndex.emplace(groupId, static_cast<std::uint32_t>(m_groupIndex.size())).first->second;
        const std::int64_t device = st.int64(6, 0);
        const std::string& pid = devicePid("HCCL", device);
        const std::string tid = "group " + std::to_string(g);
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        const std::string_view name = string(st.int64(0, -1));
        s.name = m_b.intern(name.empty() ? std::string_view("(collective)") : name);
        s.track = m_b.track(pid, tid);
        m_b.setThreadName(pid, tid, onDevice("Group " + std::to_string(g) + " Communication", device));
        m_b.setThreadSortIndex(pid, tid, -1000 + static_cast<std::int64_t>(g));
        SliceInfo info;
        info.srcOffset = n;
        info.correlation = st.int64(3, -1);
        if (!st.isNull(5) && st.int64(5) >= 0) info.waitNs = st.int64(5);
        m_b.addSlice(s, info);
        if (info.correlation >= 0) m_taskEnds[info.correlation].push_back(Endpoint{s.track, s.start, 0, false, true});
        ++n;
    }
    counted("communication_op", n);
    return scanDone("COMMUNICATION_OP", st);
}

std::optional<Failure> Reader::run() {
    if (auto failed = readSchema()) return failed;
    if (auto failed = checkBudget()) return failed;
    if (auto failed = readStrings()) return failed;
    readInfo();
    for (auto step : {&Reader::readComputeInfo, &Reader::readPmu, &Reader::readCommunicationInfo, &Reader::readTasks,
                      &Reader::readCommunicationOps})
        if (auto failed = (this->*step)()) return failed;
    // Details of tasks are attached; free them before the host side is read.
    m_compute = {};
    m_pmu = {};
    m_communication = {};
    for (auto step : {&Reader::readCannApi, &Reader::readPytorchApi, &Reader::readMstx})
        if (auto failed = (this->*step)()) return failed;
    addFlows();
    for (auto step : {&Reader::readCounters, &Reader::readSteps})
        if (auto failed = (this->*step)()) return failed;
    m_b.stats().modelBytes = m_b.memoryBytes();
    return std::nullopt;
}

}  // namespace ascenddb

bool isAscendDatabase(const std::vector<std::string>& tables) {
    auto has = [&](std::string_view t) { return std::find(tables.begin(), tables.end(), t) != tables.end(); };
    return has("TASK") && has("STRING_IDS");
}

std::optional<Failure> readAscendDb(const SqliteDb& db, const std::string& path, TraceBuilder& b,
                                    const LoadOptions& options) {
    ascenddb::Reader r(db, path, b, options);
    return r.run();
}

namespace {

bool sniffAscendDb(const Probe& p) { return sniffDatabase(p, isAscendDatabase); }

std::optional<Failure> readAscendDbEntry(const Probe& p, TraceBuilder& b, const LoadOptions& options) {
    return readDatabase(p, b, options, kAscendDbFormat, readAscendDb);
}

std::optional<Failure> refuseAnalysisDb(const Probe& p, TraceBuilder&, const LoadOptions&) {
    return Failure{p.path,
                   0,
                   -1,
                   -1,
                   "an Ascend analysis.db holds summary tables only: open the "
                   "ascend_pytorch_profiler_N.db beside it, or the rank folder",
                   Failure::Kind::NotATrace};
}

}  // namespace

const FormatInfo kAscendDbFormat{
    .name = "ascend-db",
    .description = "an Ascend profiler database (ascend_pytorch_profiler_N.db, msprof_*.db) or folder",
    .patterns = "*.db",
    .dialogEntry = "Ascend profiler database",
    .folderWords = "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_N.db, msprof_*.db",
    .databaseWords = "an Ascend profiler database",
    .databaseTables = "TASK and STRING_IDS tables"};

namespace {
constexpr std::array<const FormatInfo*, 1> kAscendDbFormats{&kAscendDbFormat};
}  // namespace

const ReaderEntry kAscendDbReader{"ascend-db", kAscendDbFormats, sniffAscendDb, readAscendDbEntry};
const ReaderEntry kAscendAnalysisDbRefusal{"ascend-analysis-db",
                                           {},
                                           [](const Probe& p) { return p.sqlite && p.filename() == "analysis.db"; },
                                           refuseAnalysisDb};

}  // namespace contend
