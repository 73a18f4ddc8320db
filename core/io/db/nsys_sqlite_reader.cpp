#include "core/io/db/nsys_sqlite_reader.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/io/db/sqlite_db.h"
#include "core/io/db/sqlite_reader_base.h"
#include "core/io/memory_budget.h"
#include "core/io/text/utf8.h"
#include "core/trace/conventions.h"

namespace contend {

namespace {

constexpr const char* kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr const char* kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr const char* kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr const char* kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr const char* kSync = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
constexpr const char* kNvtx = "NVTX_EVENTS";
constexpr const char* kGpuMetrics = "GPU_METRICS";
// What the model holds per row read (slice, info, metrics, strings), for the memory budget.
constexpr std::uint64_t kBytesPerRow = 100;

// Nsight's GlobalId packs the process and thread ids: pid in bits 24..47, tid in bits 0..23.
std::int64_t pidOf(std::int64_t globalId) { return (globalId >> 24) & 0xFFFFFF; }
std::int64_t tidOf(std::int64_t globalId) { return globalId & 0xFFFFFF; }

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": Kineto (and Nsight's UI) name the call without
// the API version.
std::string_view withoutVersion(std::string_view n) {
    const auto v = n.rfind("_v");
    if (v == std::string_view::npos || v + 2 == n.size()) return n;
    for (std::size_t i = v + 2; i < n.size(); ++i)
        if (n[i] < '0' || n[i] > '9') return n;
    return n.substr(0, v);
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Runtime/driver calls that enqueue device work.
bool isLaunchName(std::string_view n) {
    return contains(n, "Launch") || contains(n, "Memcpy") || contains(n, "Memset") || contains(n, "memcpy") ||
           contains(n, "memset");
}

// ENUM_CUDA_MEMCPY_OPER, as Kineto names the copy kinds.
const char* copyKindName(std::int64_t k) {
    static const char* kNames[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
                                   "DtoA",    "DtoD", "HtoH", "PtoP", "HtoD", "DtoH", "DtoD"};
    return k >= 0 && k < static_cast<std::int64_t>(std::size(kNames)) ? kNames[k] : "Unknown";
}
// ENUM_CUDA_MEM_KIND of Nsight's schema (not CUPTI's numbering: 0 is pageable here).
const char* memKindName(std::int64_t k) {
    static const char* kNames[] = {"Pageable", "Pinned",        "Device",         "Array",
                                   "Managed",  "Device Static", "Managed Static", "Unknown"};
    return k >= 0 && k < static_cast<std::int64_t>(std::size(kNames)) ? kNames[k] : "Unknown";
}
// ENUM_CUPTI_SYNC_TYPE, named as the host calls that wait (what the cluster analysis looks for).
const char* syncName(std::int64_t k) {
    switch (k) {
    case 1: return "cudaEventSynchronize";
    case 2: return "cudaStreamWaitEvent";
    case 3: return "cudaStreamSynchronize";
    case 4: return "cudaDeviceSynchronize";
    default: return "cudaSynchronize (unknown kind)";
    }
}

class Reader : SqliteReaderBase {
  public:
    Reader(const SqliteDb& db, const std::string& path, TraceBuilder& b, const LoadOptions& o)
        : SqliteReaderBase(db, path, b, o) {}

    std::optional<Failure> run();

  private:
    std::optional<Failure> checkBudget();

    std::optional<Failure> readStrings();
    void applyNames();
    void readInfo();
    std::optional<Failure> readKernels();
    std::optional<Failure> readCopies(const char* table, bool memset);
    std::optional<Failure> readRuntime();
    std::optional<Failure> readSync();
    std::optional<Failure> readNvtx();
    std::optional<Failure> readGpuMetrics();

    std::uint32_t deviceTrack(std::int64_t device, std::int64_t stream);
    std::uint32_t hostTrack(std::int64_t globalTid);

    std::unordered_set<std::int64_t> m_deviceCorrelations;
    std::unordered_map<std::int64_t, std::int64_t> m_runtimeThread;  // correlation -> globalTid
    std::unordered_set<std::int64_t> m_hostThreads;                  // (pid << 24 | tid) of the threads with events
    std::string m_pid, m_tid;
};

std::optional<Failure> Reader::checkBudget() {
    constexpr const char* kReadTables[] = {kKernel, kMemcpy, kMemset, kRuntime, kSync, kNvtx, kGpuMetrics};
    const std::uint64_t rows = rowsIn(kReadTables);
    return withinBudget(rows, rows * kBytesPerRow, "export");
}

std::optional<Failure> Reader::run() {
    if (auto failed = readSchema()) return failed;
    if (auto failed = checkBudget()) return failed;
    if (auto failed = readStrings()) return failed;
    readInfo();
    if (auto failed = readKernels()) return failed;
    if (auto failed = readCopies(kMemcpy, false)) return failed;
    if (auto failed = readCopies(kMemset, true)) return failed;
    for (auto step : {&Reader::readRuntime, &Reader::readSync, &Reader::readNvtx, &Reader::readGpuMetrics})
        if (auto failed = (this->*step)()) return failed;
    applyNames();
    m_b.stats().modelBytes = m_b.memoryBytes();
    return std::nullopt;
}

std::optional<Failure> Reader::readStrings() {
    Result<SqliteStatement> selected = select("StringIds", {{"id", true}, {"value", true}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    m_haveStringTable = true;
    SqliteStatement& st = *selected;
    std::size_t badBytes = 0;
    std::int64_t firstBad = -1;
    while (st.step()) {
        std::string v(st.text(1));
        // A TEXT cell need not be UTF-8 (SQLite does not check): repaired as the JSON reader does.
        if (!isValidUtf8(v.data(), v.size())) {
            badBytes += repairUtf8(v.data(), v.size());
            if (firstBad < 0) firstBad = st.int64(0);
        }
        m_strings.emplace(st.int64(0), std::move(v));
    }
    if (badBytes) m_b.warn(ImportProblem::InvalidUtf8, "table StringIds, id " + std::to_string(firstBad), badBytes);
    return scanDone("StringIds", st);
}

// Process names (PROCESSES) and thread names (ThreadNames), for the threads that have events
// (an export names every thread on the machine); a damaged name table costs names only.
void Reader::applyNames() {
    std::unordered_map<std::int64_t, std::string> processes;
    if (SqliteStatement st = trySelect("PROCESSES", {{"globalPid"}, {"pid"}, {"name"}}); st) {
        while (st.step()) {
            if (st.isNull(2) || st.text(2).empty()) continue;
            const std::int64_t pid = st.isNull(0) ? st.int64(1) : pidOf(st.int64(0));
            processes.emplace(pid, std::string(st.text(2)) + " (" + std::to_string(pid) + ")");
        }
    }
    std::unordered_map<std::int64_t, std::string_view> threads;
    if (SqliteStatement st = trySelect("ThreadNames", {{"nameId"}, {"globalTid"}}); st) {
        while (st.step()) {
            if (st.isNull(1)) continue;
            const std::string_view name = string(st.int64(0, -1));
            if (!name.empty()) threads.emplace(st.int64(1) & 0xFFFFFFFFFFFF, name);
        }
    }
    std::unordered_set<std::int64_t> pids;
    for (std::int64_t key : m_hostThreads) {
        const std::string pid = std::to_string(pidOf(key)), tid = std::to_string(tidOf(key));
        if (auto it = threads.find(key); it != threads.end() && tidOf(key) != 0)
            m_b.setThreadName(pid, tid, it->second);
        if (!pids.insert(pidOf(key)).second) continue;
        if (auto it = processes.find(pidOf(key)); it != processes.end()) m_b.setProcessName(pid, it->second);
    }
}

// What the file says about the capture, for `contend-cli info`: GPUs, exporter, session start.
void Reader::readInfo() {
    auto& details = m_b.source().details;
    if (SqliteStatement st = trySelect("TARGET_INFO_SESSION_START_TIME", {{"utcEpochNs"}, {"utcTime"}});
        st && st.step()) {
        std::string v = std::string(st.text(1));
        if (!st.isNull(0)) v += (v.empty() ? "" : ", ") + std::string("utcEpochNs ") + std::to_string(st.int64(0));
        details.emplace_back("session start", v + " (times are ns since this)");
    }
    if (SqliteStatement st = trySelect("META_DATA_EXPORT", {{"name"}, {"value"}}); st) {
        std::string product, schema;
        while (st.step()) {
            if (st.text(0) == "EXPORT_PRODUCT_VERSION") product = st.text(1);
            if (st.text(0) == "EXPORT_SCHEMA_VERSION") schema = st.text(1);
        }
        if (!product.empty() || !schema.empty())
            details.emplace_back("exported by", "Nsight Systems " + product + ", schema " + schema);
    }
    if (SqliteStatement st = trySelect(
            "TARGET_INFO_GPU",
            {{"id"}, {"name"}, {"smCount"}, {"l2CacheSize"}, {"memoryBandwidth"}, {"totalMemory"}, {"clockRate"}});
        st) {
        while (st.step()) {
            // The device's peaks, for the analyses (Source::devices).
            Source::Device d;
            d.id = static_cast<std::int32_t>(st.int64(0));
            if (st.int64(4) > 0) d.memoryBandwidth = static_cast<double>(st.int64(4));
            if (st.int64(2) > 0) d.smCount = st.int64(2);
            if (st.int64(6) > 0) d.clockHz = static_cast<double>(st.int64(6));
            if (st.int64(3) > 0) d.l2Bytes = st.int64(3);
            m_b.source().devices.push_back(d);
            std::string v(st.text(1));
            if (!st.isNull(2)) v += ", " + std::to_string(st.int64(2)) + " SMs";
            if (!st.isNull(3)) v += ", L2 " + formatBytes(static_cast<std::uint64_t>(st.int64(3)));
            if (!st.isNull(5)) v += ", memory " + formatBytes(static_cast<std::uint64_t>(st.int64(5)));
            if (!st.isNull(4)) v += ", bandwidth " + formatBytes(static_cast<std::uint64_t>(st.int64(4))) + "/s";
            details.emplace_back("GPU " + std::to_string(st.int64(0)), v);
        }
    }
}

std::uint32_t Reader::deviceTrack(std::int64_t device, std::int64_t stream) {
    m_pid = "GPU " + std::to_string(device);
    m_tid = "stream " + std::to_string(stream);
    const std::size_t before = m_b.trackCount();
    const std::uint32_t t = m_b.track(m_pid, m_tid);
    if (m_b.trackCount() != before) {  // Kineto's names: process "GPU 0", thread "stream 7"
        m_b.setProcessName(m_pid, m_pid);
        m_b.setThreadName(m_pid, m_tid, m_tid);
    }
    return t;
}

std::uint32_t Reader::hostTrack(std::int64_t globalTid) {
    m_hostThreads.insert(globalTid & 0xFFFFFFFFFFFF);
    m_pid = std::to_string(pidOf(globalTid));
    m_tid = std::to_string(tidOf(globalTid));
    return m_b.track(m_pid, m_tid);
}

std::optional<Failure> Reader::readKernels() {
    Result<SqliteStatement> selected = select(kKernel, {{"start", true},
                                                        {"end", true},
                                                        {"deviceId"},
                                                        {"streamId"},
                                                        {"correlationId"},
                                                        {"demangledName"},
                                                        {"shortName"},
                                                        {"gridX"},
                                                        {"gridY"},
                                                        {"gridZ"},
                                                        {"blockX"},
                                                        {"blockY"},
                                                        {"blockZ"},
                                                        {"registersPerThread"},
                                                        {"staticSharedMemory"},
                                                        {"dynamicSharedMemory"}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    const StringId category = m_b.intern("kernel");
    const StringId registers = m_b.intern("registers per thread");
    const StringId shared = m_b.intern("shared memory");
    std::unordered_map<std::int64_t, StringId> names;
    std::string shape;
    std::uint64_t n = 0;
    auto dim = [&](int c) { return std::to_string(st.int64(c, 1)); };
    std::uint64_t row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 0, 1, kKernel, ++row);
        std::int64_t device = 0, stream = 0;
        if (!times || !rowIds(st, 2, 3, kKernel, row, device, stream)) continue;
        const std::int64_t nameId = st.isNull(5) ? st.int64(6, -1) : st.int64(5);
        auto it = names.find(nameId);
        if (it == names.end()) {
            std::string_view nm = string(nameId);
            if (nm.empty() && !st.isNull(5)) nm = string(st.int64(6, -1));  // demangled name missing: the short one
            it = names.emplace(nameId, m_b.intern(nm.empty() ? std::string_view("(unnamed kernel)") : nm)).first;
        }
        // A name id (demangled, else short) that the string table does not hold.
        const int nameCol = st.isNull(5) ? 6 : 5;
        if (!st.isNull(nameCol) && m_strings.count(nameId) == 0 &&
            (nameCol == 6 || m_strings.count(st.int64(6, -1)) == 0))
            nameMissing(nameId, st, nameCol, kKernel, row);
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        s.name = it->second;
        s.category = category;
        s.track = deviceTrack(device, stream);
        s.flags = kSliceDevice;
        SliceInfo info;
        info.srcOffset = n;  // row number in the table (no byte offsets in a database)
        info.correlation = st.int64(4, -1);
        info.stream = static_cast<std::int32_t>(stream);
        info.device = static_cast<std::int32_t>(device);
        if (!st.isNull(7)) {
            shape = "grid=[" + dim(7) + ", " + dim(8) + ", " + dim(9) + "] block=[" + dim(10) + ", " + dim(11) + ", " +
                    dim(12) + "]";
            info.shape = m_b.intern(shape);
        }
        const std::uint32_t idx = m_b.addSlice(s, info);
        if (!st.isNull(13)) m_b.addMetric(idx, registers, static_cast<float>(st.int64(13)));
        if (!st.isNull(14) || !st.isNull(15))
            m_b.addMetric(idx, shared, static_cast<float>(st.int64(14) + st.int64(15)));
        if (info.correlation >= 0) m_deviceCorrelations.insert(info.correlation);
        ++n;
    }
    counted("kernel", n);
    if (auto failed = scanDone(kKernel, st)) return failed;
    return tooDamaged(kKernel, row, row - n);
}

std::optional<Failure> Reader::readCopies(const char* table, bool memset) {
    Result<SqliteStatement> selected = memset ? select(table, {{"start", true},
                                                               {"end", true},
                                                               {"deviceId"},
                                                               {"streamId"},
                                                               {"correlationId"},
                                                               {"bytes"},
                                                               {"memKind"}})
                                              : select(table, {{"start", true},
                                                               {"end", true},
                                                               {"deviceId"},
                                                               {"streamId"},
                                                               {"correlationId"},
                                                               {"bytes"},
                                                               {"copyKind"},
                                                               {"srcKind"},
                                                               {"dstKind"}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    const StringId category = m_b.intern(memset ? "gpu_memset" : "gpu_memcpy");
    const StringId bytesKey = m_b.intern("bytes");
    std::string name;
    std::uint64_t n = 0, row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 0, 1, table, ++row);
        std::int64_t device = 0, stream = 0;
        if (!times || !rowIds(st, 2, 3, table, row, device, stream)) continue;
        // Kineto's names: "Memcpy HtoD (Pageable -> Device)", "Memset (Device)".
        if (memset) {
            name = std::string("Memset (") + memKindName(st.int64(6, 7)) + ")";
        } else {
            name = std::string("Memcpy ") + copyKindName(st.int64(6)) + " (" + memKindName(st.int64(7, 7)) + " -> " +
                   memKindName(st.int64(8, 7)) + ")";
        }
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        s.name = m_b.intern(name);
        s.category = category;
        s.track = deviceTrack(device, stream);
        s.flags = kSliceDevice | kSliceMemory;
        SliceInfo info;
        info.srcOffset = n;
        info.correlation = st.int64(4, -1);
        info.stream = static_cast<std::int32_t>(stream);
        info.device = static_cast<std::int32_t>(device);
        const std::uint32_t idx = m_b.addSlice(s, info);
        if (!st.isNull(5)) m_b.addMetric(idx, bytesKey, static_cast<float>(st.int64(5)));
        if (info.correlation >= 0) m_deviceCorrelations.insert(info.correlation);
        ++n;
    }
    counted(memset ? "memset" : "memcpy", n);
    if (auto failed = scanDone(table, st)) return failed;
    return tooDamaged(table, row, row - n);
}

std::optional<Failure> Reader::readRuntime() {
    Result<SqliteStatement> selected =
        select(kRuntime, {{"start", true}, {"end", true}, {"globalTid"}, {"correlationId"}, {"nameId"}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    const StringId category = m_b.intern("cuda_runtime");
    struct Name {
        StringId id;
        bool launch;
    };
    std::unordered_map<std::int64_t, Name> names;
    std::uint64_t n = 0, row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 0, 1, kRuntime, ++row);
        if (!times) continue;
        const std::int64_t nameId = st.int64(4, -1);
        auto it = names.find(nameId);
        if (it == names.end()) {
            std::string_view nm = withoutVersion(string(nameId));
            if (nm.empty()) nm = "(unnamed CUDA call)";
            it = names.emplace(nameId, Name{m_b.intern(nm), isLaunchName(nm)}).first;
        }
        if (!st.isNull(4) && m_strings.count(nameId) == 0) nameMissing(nameId, st, 4, kRuntime, row);
        const std::int64_t globalTid = st.int64(2);
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        s.name = it->second.id;
        s.category = category;
        s.track = hostTrack(globalTid);
        SliceInfo info;
        info.srcOffset = n;
        info.correlation = st.int64(3, -1);
        if (it->second.launch || (info.correlation >= 0 && m_deviceCorrelations.count(info.correlation)))
            s.flags |= kSliceLaunch;
        if (info.correlation >= 0) m_runtimeThread.emplace(info.correlation, globalTid);
        m_b.addSlice(s, info);
        ++n;
    }
    counted("runtime", n);
    if (auto failed = scanDone(kRuntime, st)) return failed;
    return tooDamaged(kRuntime, row, row - n);
}

std::optional<Failure> Reader::readSync() {
    Result<SqliteStatement> selected = select(
        kSync,
        {{"start", true}, {"end", true}, {"globalPid"}, {"correlationId"}, {"syncType"}, {"streamId"}, {"deviceId"}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    const StringId category = m_b.intern("cuda_sync");
    std::uint64_t n = 0, row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        const auto times = rowTimes(st, 0, 1, kSync, ++row);
        if (!times) continue;
        Slice s;
        s.start = times->start;
        s.dur = times->dur;
        s.name = m_b.intern(syncName(st.int64(4)));
        s.category = category;
        s.flags = kSliceWait;
        SliceInfo info;
        info.srcOffset = n;
        info.correlation = st.int64(3, -1);
        info.stream = static_cast<std::int32_t>(st.int64(5, -1));
        info.device = static_cast<std::int32_t>(st.int64(6, -1));
        // On the thread that made the call; a record without one goes on its process's "sync" lane.
        auto it = info.correlation >= 0 ? m_runtimeThread.find(info.correlation) : m_runtimeThread.end();
        if (it != m_runtimeThread.end())
            s.track = hostTrack(it->second);
        else {
            s.track = m_b.track(std::to_string(pidOf(st.int64(2))), "sync");
            m_hostThreads.insert(pidOf(st.int64(2)) << 24);  // for the process name
        }
        m_b.addSlice(s, info);
        ++n;
    }
    counted("sync", n);
    return scanDone(kSync, st);
}

std::optional<Failure> Reader::readNvtx() {
    Result<SqliteStatement> selected =
        select(kNvtx, {{"start", true}, {"end"}, {"eventType"}, {"text"}, {"textId"}, {"globalTid"}});
    if (!selected || !*selected) return failureOf(selected);  // a failure, or no such table
    SqliteStatement& st = *selected;
    const StringId category = m_b.intern("nvtx");
    std::uint64_t n = 0, skipped = 0, row = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        ++row;
        // ENUM_NSYS_EVENT_TYPE: 34 NvtxMark, 59 NvtxPushPopRange, 60 NvtxStartEndRange; the
        // rest (domains, categories, thread names) are not events on a timeline.
        const std::int64_t type = st.int64(2, -1);
        const bool range = !st.isNull(1) && (type == -1 || type == 59 || type == 60);
        const bool mark = st.isNull(1) && type == 34;
        std::string_view name = st.text(3);
        if (name.empty() && !st.isNull(4)) name = string(st.int64(4));
        if ((!range && !mark) || st.isNull(5)) {
            ++skipped;
            continue;
        }
        const auto times = rowTimes(st, 0, 1, kNvtx, row, /*endMayBeNull=*/mark);
        if (!times) continue;
        Slice s;
        s.start = times->start;
        s.dur = range ? times->dur : 0;
        s.name = m_b.intern(name.empty() ? std::string_view("(unnamed NVTX range)") : name);
        s.category = category;
        s.track = hostTrack(st.int64(5));
        s.phase = range ? 'X' : 'i';
        SliceInfo info;
        info.srcOffset = n + skipped;
        m_b.addSlice(s, info);
        ++n;
    }
    counted("nvtx", n);
    return scanDone(kNvtx, st);
}

// GPU_METRICS samples joined to their names; GPU = typeId & 0xFF.
std::optional<Failure> Reader::readGpuMetrics() {
    if (!has(kGpuMetrics) || !has("TARGET_INFO_GPU_METRICS")) return std::nullopt;
    for (const char* c : {"timestamp", "typeId", "metricId", "value"}) {
        const auto have = m_db.columns(kGpuMetrics);
        if (std::find(have.begin(), have.end(), c) == have.end())
            return fail(std::string("table GPU_METRICS: no column '") + c + "'");
    }
    for (const char* c : {"typeId", "metricId", "metricName"}) {
        const auto have = m_db.columns("TARGET_INFO_GPU_METRICS");
        if (std::find(have.begin(), have.end(), c) == have.end())
            return fail(std::string("table TARGET_INFO_GPU_METRICS: no column '") + c + "'");
    }
    std::string error;
    SqliteStatement st = m_db.prepare(
        "SELECT g.timestamp, g.typeId, m.metricName, g.value FROM GPU_METRICS g JOIN "
        "(SELECT typeId, metricId, MIN(metricName) AS metricName FROM TARGET_INFO_GPU_METRICS GROUP BY typeId, "
        "metricId) m "
        "ON g.typeId = m.typeId AND g.metricId = m.metricId ORDER BY g.timestamp",
        error);
    if (!st) return fail("table GPU_METRICS: " + error);
    std::uint64_t n = 0;
    while (st.step()) {
        if (auto stop = tick()) return stop;
        if (st.isNull(0) || st.isNull(3)) continue;
        const std::string_view metric = st.text(2);
        // "SM Active [Throughput %]": percentages keyed "%" so the unit reads as one.
        const std::string_view key = contains(metric, "%") ? std::string_view("%") : std::string_view("value");
        m_b.addCounter("GPU " + std::to_string(st.int64(1) & 0xFF), metric, "", key, st.int64(0), st.real(3));
        ++n;
    }
    counted("gpu_metrics", n);
    return scanDone(kGpuMetrics, st);
}

}  // namespace

bool isNsysDatabase(const std::vector<std::string>& tables) {
    auto has = [&](std::string_view t) { return std::find(tables.begin(), tables.end(), t) != tables.end(); };
    return has(kKernel) || (has("TARGET_INFO_SESSION_START_TIME") && has("StringIds"));
}

std::optional<Failure> readNsysSqlite(const SqliteDb& db, const std::string& path, TraceBuilder& b,
                                      const LoadOptions& options) {
    Reader r(db, path, b, options);
    auto err = r.run();
    // The analyses measure device-to-device copies and memsets against the device's memory
    // bandwidth, which an export states in TARGET_INFO_GPU; without it, the report says so.
    if (!err && b.source().devices.empty()) b.source().gaps.devicePeaks = "no TARGET_INFO_GPU table";
    return err;
}

namespace {

bool sniffNsysSqlite(const Probe& p) { return sniffDatabase(p, isNsysDatabase); }

std::optional<Failure> readNsysSqliteEntry(const Probe& p, TraceBuilder& b, const LoadOptions& options) {
    return readDatabase(p, b, options, kNsysSqliteFormat, readNsysSqlite);
}

bool sniffNsysReport(const Probe& p) {
    const std::string ext = p.extension();
    return ext == ".nsys-rep" || ext == ".qdrep";
}

std::optional<Failure> refuseNsysReport(const Probe& p, TraceBuilder&, const LoadOptions&) {
    return Failure{p.path,
                   -1,
                   -1,
                   -1,
                   "an Nsight Systems report: export it with `nsys export --type sqlite " + p.filename() +
                       "` and open the .sqlite",
                   Failure::Kind::NotATrace};
}

}  // namespace

const FormatInfo kNsysSqliteFormat{
    .name = "nsys-sqlite",
    .description = "an Nsight Systems SQLite export (.sqlite from nsys export --type sqlite)",
    .patterns = "*.sqlite",
    .dialogEntry = "Nsight Systems SQLite export",
    .databaseWords = "an Nsight Systems export",
    .databaseTables = "CUPTI_ACTIVITY_KIND_KERNEL"};

namespace {
constexpr std::array<const FormatInfo*, 1> kNsysSqliteFormats{&kNsysSqliteFormat};
}  // namespace

const ReaderEntry kNsysSqliteReader{"nsys-sqlite", kNsysSqliteFormats, sniffNsysSqlite, readNsysSqliteEntry};
const ReaderEntry kNsysReportRefusal{"nsys-report", {}, sniffNsysReport, refuseNsysReport};

}  // namespace contend
