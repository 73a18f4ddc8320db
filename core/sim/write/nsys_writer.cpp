#include "core/sim/write/nsys_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sqlite3.h>

namespace contend::sim {

namespace {

// Schema 3.25 column names (a subset: the columns a reader of real exports looks at, plus the
// NOT NULL ones around them). Types as Nsight declares them.
constexpr const char* kSchema = R"SQL(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT, systemClockNs INTEGER);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT,
  isDiscrete INTEGER, l2CacheSize INTEGER, totalMemory INTEGER, memoryBandwidth INTEGER, clockRate INTEGER,
  smCount INTEGER, chipName TEXT, cuDevice INTEGER, threadsPerWarp INTEGER, maxWarpsPerSm INTEGER,
  maxThreadsPerBlock INTEGER, computeMajor INTEGER, computeMinor INTEGER);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,
  launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL,
  gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL,
  blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL,
  sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
  domainId INTEGER);
)SQL";

constexpr const char* kHostSchema = R"SQL(
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL,
  callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, deprecatedSyncType INTEGER, syncType INTEGER NOT NULL,
  eventId INTEGER NOT NULL, eventSyncId INTEGER);
)SQL";

constexpr const char* kMetricSchema = R"SQL(
CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER NOT NULL, typeName TEXT NOT NULL,
  metricId INTEGER NOT NULL, metricName TEXT NOT NULL);
CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER NOT NULL, metricId INTEGER NOT NULL,
  value INTEGER NOT NULL);
)SQL";

// ENUM_NSYS_EVENT_CLASS: 1 = CUDA runtime API; ENUM_NSYS_EVENT_TYPE: 59 = NvtxPushPopRange;
// ENUM_CUPTI_SYNC_TYPE: 3 = stream, 4 = context (device) synchronize.
constexpr int kRuntimeClass = 1;
constexpr int kNvtxPushPop = 59;
constexpr int kSyncStream = 3;
constexpr int kSyncContext = 4;
// CUPTI's "no stream" for a context-wide sync.
constexpr std::int64_t kNoStream = 4294967295LL;
// typeId of GPU 0's metrics: Nsight keeps the GPU index in the low byte.
constexpr std::int64_t kMetricType = 0x10000;
constexpr std::int64_t kClockMhz = 1410;
constexpr std::int64_t kSessionEpochNs = 1700000000000000000LL;  // fixed: stable bytes

enum MetricId : int { kSmsActive, kSmIssue, kDramRead, kDramWrite, kGpcClock };

// "void at::native::foo_kernel<float, 4>(float*, int)" -> "foo_kernel": Nsight's shortName is
// the function's base name without return type, scope, template arguments and parameters.
std::string shortNameOf(const std::string& name) {
    std::size_t end = name.size();
    int depth = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<') {
            if (depth == 0) end = std::min(end, i);
            ++depth;
        } else if (c == '>') {
            --depth;
        } else if (c == '(' && depth == 0) {
            end = std::min(end, i);
            break;
        }
    }
    std::string base = name.substr(0, end);
    if (const auto sp = base.rfind(' '); sp != std::string::npos) base = base.substr(sp + 1);
    if (const auto sc = base.rfind("::"); sc != std::string::npos) base = base.substr(sc + 2);
    return base.empty() ? name : base;
}

// Tenths of a percent -> Nsight's integer percent.
std::int64_t percent(std::int64_t tenths) { return (std::clamp<std::int64_t>(tenths, 0, 1000) + 5) / 10; }

}  // namespace

const std::vector<std::string>& NsysWriter::metricNames() {
    static const std::vector<std::string> names{"SMs Active [Throughput %]", "SM Issue [Throughput %]",
                                                "DRAM Read Bandwidth [Throughput %]",
                                                "DRAM Write Bandwidth [Throughput %]", "GPC Clock Frequency [MHz]"};
    return names;
}

NsysWriter::NsysWriter(std::string path, const SimConfig& config, const std::vector<StreamInfo>& streams,
                       Options options)
    : m_path(std::move(path)),
      m_config(config),
      m_streams(streams),
      m_options(options),
      m_counterStream(options.counters, config.counterNoise, options.counterNoiseSeed) {}

NsysWriter::~NsysWriter() {
    for (sqlite3_stmt* st : {m_kernel, m_runtime, m_sync, m_nvtx, m_metric, m_string}) sqlite3_finalize(st);
    if (m_db) sqlite3_close(m_db);
    // m_file, never committed, removes the temporary.
}

bool NsysWriter::fail(const std::string& what) {
    if (m_error.empty()) m_error = "cannot write " + m_path + ": " + what;
    return false;
}

bool NsysWriter::exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &err) == SQLITE_OK) return true;
    const std::string msg = err ? err : sqlite3_errmsg(m_db);
    sqlite3_free(err);
    return fail(msg);
}

sqlite3_stmt* NsysWriter::prepare(const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr) != SQLITE_OK) {
        fail(sqlite3_errmsg(m_db));
        return nullptr;
    }
    return st;
}

bool NsysWriter::done(sqlite3_stmt* st) {
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc == SQLITE_DONE) return true;
    return fail(sqlite3_errmsg(m_db));
}

std::int64_t NsysWriter::stringId(const std::string& s) {
    auto [it, added] = m_stringIds.emplace(s, m_nextString);
    if (!added) return it->second;
    ++m_nextString;
    sqlite3_bind_int64(m_string, 1, it->second);
    sqlite3_bind_text(m_string, 2, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    done(m_string);
    return it->second;
}

bool NsysWriter::begin() {
    if (m_path == "-") return fail("an SQLite export needs a file, not stdout");
    // Written to a temporary next to the path (atomic_write.h), put in place by finish().
    Result<AtomicFile> file = AtomicFile::create(m_path);
    if (!file) return fail(file.failure().reason);
    m_file.emplace(std::move(file).value());
    if (sqlite3_open_v2(m_file->tempPath().c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK)
        return fail(m_db ? sqlite3_errmsg(m_db) : "out of memory");
    // One transaction, no journal: the file only gets its name once complete anyway.
    if (!exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192; BEGIN;") || !exec(kSchema))
        return false;
    if (m_options.hostEvents && !exec(kHostSchema)) return false;
    const bool metrics = m_options.counters.mode != CounterMode::None;
    if (metrics && !exec(kMetricSchema)) return false;
    m_string = prepare("INSERT INTO StringIds VALUES (?, ?)");
    m_kernel = prepare(
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid,"
        " demangledName, shortName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY,"
        " blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,"
        " sharedMemoryExecuted) VALUES (?, ?, 0, 1, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?, ?)");
    if (m_options.hostEvents) {
        m_runtime = prepare("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?, ?, ?, 0, NULL)");
        m_sync = prepare(
            "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId, correlationId,"
            " globalPid, syncType, eventId) VALUES (?, ?, 0, 1, ?, ?, ?, ?, 0)");
    }
    m_nvtx = prepare(
        "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, endGlobalTid) VALUES (?, ?, ?, ?, ?, ?)");
    if (metrics) m_metric = prepare("INSERT INTO GPU_METRICS VALUES (?, ?, ?, ?)");
    if (!m_error.empty()) return false;

    const DeviceConfig& d = m_config.device;
    const std::int64_t globalPid = m_options.hostPid << 24;
    const std::string gpu = "INSERT INTO TARGET_INFO_GPU VALUES (0, 0, '" + d.name + "', '0000:00:00.0', 1, " +
                            std::to_string(d.cacheBytes) + ", 85899345920, " +
                            std::to_string(std::llround(d.peakBandwidthGBs * 1e9)) + ", " +
                            std::to_string(kClockMhz * 1000000) + ", " + std::to_string(d.computeUnits) +
                            ", 'SIM100', 0, 32, 64, 1024, 8, 0);"
                            "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (" +
                            std::to_string(kSessionEpochNs) +
                            ", '2023-11-14T22:13:20.000Z', '2023-11-14T22:13:20.000Z', 0);"
                            "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', 'contend-sim'),"
                            " ('EXPORT_SCHEMA_VERSION', '3.25.0'), ('EXPORT_TIME_UNIT', 'ns');"
                            "INSERT INTO PROCESSES VALUES (" +
                            std::to_string(globalPid) + ", " + std::to_string(m_options.hostPid) + ", 'python3');";
    if (!exec(gpu.c_str())) return false;
    sqlite3_stmt* thread = prepare("INSERT INTO ThreadNames VALUES (?, 0, ?)");
    if (!thread) return false;
    sqlite3_bind_int64(thread, 1, stringId("python3"));
    sqlite3_bind_int64(thread, 2, globalPid | m_options.hostTid);
    const bool ok = done(thread);
    sqlite3_finalize(thread);
    if (!ok) return false;
    if (metrics) {
        sqlite3_stmt* m = prepare("INSERT INTO TARGET_INFO_GPU_METRICS VALUES (?, 0, 'GPU Metrics: SIM100', ?, ?)");
        if (!m) return false;
        const auto& names = metricNames();
        for (std::size_t i = 0; i < names.size(); ++i) {
            sqlite3_bind_int64(m, 1, kMetricType);
            sqlite3_bind_int64(m, 2, static_cast<std::int64_t>(i));
            sqlite3_bind_text(m, 3, names[i].c_str(), -1, SQLITE_TRANSIENT);
            if (!done(m)) break;
        }
        sqlite3_finalize(m);
    }
    if (m_options.hostEvents) {
        m_launchName = stringId("cudaLaunchKernel_v7000");
        m_streamSyncName = stringId("cudaStreamSynchronize_v3020");
        m_deviceSyncName = stringId("cudaDeviceSynchronize_v3020");
    }
    return m_error.empty();
}

void NsysWriter::runtimeRow(TimeNs start, TimeNs dur, std::int64_t correlation, std::int64_t nameId) {
    sqlite3_bind_int64(m_runtime, 1, start);
    sqlite3_bind_int64(m_runtime, 2, start + dur);
    sqlite3_bind_int64(m_runtime, 3, kRuntimeClass);
    sqlite3_bind_int64(m_runtime, 4, (m_options.hostPid << 24) | m_options.hostTid);
    sqlite3_bind_int64(m_runtime, 5, correlation);
    sqlite3_bind_int64(m_runtime, 6, nameId);
    if (done(m_runtime)) ++m_counts.phases["runtime"];
}

void NsysWriter::syncRow(TimeNs start, TimeNs dur, std::int64_t correlation, std::int64_t stream, int syncType) {
    sqlite3_bind_int64(m_sync, 1, start);
    sqlite3_bind_int64(m_sync, 2, start + dur);
    sqlite3_bind_int64(m_sync, 3, stream);
    sqlite3_bind_int64(m_sync, 4, correlation);
    sqlite3_bind_int64(m_sync, 5, m_options.hostPid << 24);
    sqlite3_bind_int64(m_sync, 6, syncType);
    if (done(m_sync)) ++m_counts.phases["sync"];
}

void NsysWriter::nvtxRow(TimeNs start, TimeNs end, const std::string& text) {
    const std::int64_t tid = (m_options.hostPid << 24) | m_options.hostTid;
    sqlite3_bind_int64(m_nvtx, 1, start);
    sqlite3_bind_int64(m_nvtx, 2, end);
    sqlite3_bind_int64(m_nvtx, 3, kNvtxPushPop);
    sqlite3_bind_text(m_nvtx, 4, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int64(m_nvtx, 5, tid);
    sqlite3_bind_int64(m_nvtx, 6, tid);
    if (done(m_nvtx)) ++m_counts.phases["nvtx"];
}

bool NsysWriter::write(const Iteration& it, const IterationResult& r) {
    if (!m_error.empty()) return false;
    // The step range is written in every mode (the JSON writer keeps ProfilerStep#N too).
    nvtxRow(r.stepStart, r.stepEnd, "ProfilerStep#" + std::to_string(r.index));
    const std::int64_t globalPid = m_options.hostPid << 24;
    for (std::size_t i = 0; i < it.ops.size(); ++i) {
        const OpSpec& spec = it.ops[i];
        const OpRecord& rec = r.ops[i];
        if (m_options.hostEvents) {
            if (rec.syncStart != kNoTime) {
                runtimeRow(rec.syncStart, rec.syncDur, rec.syncCorrelation, m_streamSyncName);
                syncRow(rec.syncStart, rec.syncDur, rec.syncCorrelation, spec.stream, kSyncStream);
            }
            nvtxRow(rec.cpuStart, rec.cpuStart + rec.cpuDur, spec.hostOp);
            runtimeRow(rec.launchStart, rec.launchDur, rec.correlation, m_launchName);
            ++m_counts.flows;
        }
        const KernelShape& k = spec.shape;
        const std::int64_t demangled = stringId(spec.name);
        const std::int64_t shortId = stringId(shortNameOf(spec.name));
        std::int64_t values[] = {rec.start,  rec.end,     spec.stream,    rec.correlation, globalPid,     demangled,
                                 shortId,    k.registers, k.grid[0],      k.grid[1],       k.grid[2],     k.block[0],
                                 k.block[1], k.block[2],  k.sharedMemory, rec.correlation, k.sharedMemory};
        for (int c = 0; c < static_cast<int>(std::size(values)); ++c) sqlite3_bind_int64(m_kernel, c + 1, values[c]);
        if (!done(m_kernel)) return false;
        ++m_counts.kernels;
        ++m_counts.phases["kernel"];
    }
    if (m_options.hostEvents) {
        runtimeRow(r.deviceSyncStart, r.deviceSyncDur, r.deviceSyncCorrelation, m_deviceSyncName);
        syncRow(r.deviceSyncStart, r.deviceSyncDur, r.deviceSyncCorrelation, kNoStream, kSyncContext);
    }
    m_counterStream.step(r.samples, r.stepStart, r.stepEnd,
                         [this](const std::vector<CounterSample>& samples) { counterRows(samples); });
    m_lastStepEnd = r.stepEnd;
    return m_error.empty();
}

void NsysWriter::metricRow(TimeNs t, int metricId, std::int64_t value) {
    sqlite3_bind_int64(m_metric, 1, t);
    sqlite3_bind_int64(m_metric, 2, kMetricType);
    sqlite3_bind_int64(m_metric, 3, metricId);
    sqlite3_bind_int64(m_metric, 4, value);
    if (!done(m_metric)) return;
    ++m_counts.counters;
    ++m_counts.phases["gpu_metrics"];
}

void NsysWriter::counterRows(const std::vector<CounterSample>& samples) {
    for (const CounterSample& s : samples) {
        switch (s.series) {
        case Series::Compute:
            metricRow(s.t, kSmsActive, percent(s.tenths));
            metricRow(s.t, kGpcClock, kClockMhz);
            break;
        case Series::Issue: metricRow(s.t, kSmIssue, percent(s.tenths)); break;
        case Series::Bandwidth: {
            // Reads are 60% of the traffic; both are percent of the one DRAM's peak.
            const std::int64_t read = s.tenths * 3 / 5;
            metricRow(s.t, kDramRead, percent(read));
            metricRow(s.t, kDramWrite, percent(s.tenths - read));
            break;
        }
        case Series::HitRate: break;  // Nsight's GPU metrics have no L2 hit rate
        }
    }
}

bool NsysWriter::finish() {
    if (!m_error.empty()) return false;
    m_counterStream.finish(m_lastStepEnd, [this](const std::vector<CounterSample>& samples) { counterRows(samples); });
    m_counts.events = 0;
    for (const auto& [table, n] : m_counts.phases) m_counts.events += n;
    for (sqlite3_stmt** st : {&m_kernel, &m_runtime, &m_sync, &m_nvtx, &m_metric, &m_string}) {
        sqlite3_finalize(*st);
        *st = nullptr;
    }
    if (!m_error.empty() || !exec("COMMIT;")) return false;
    if (sqlite3_close(m_db) != SQLITE_OK) return fail(sqlite3_errmsg(m_db));
    m_db = nullptr;
    std::error_code ec;
    m_bytes = static_cast<std::uint64_t>(std::filesystem::file_size(m_file->tempPath(), ec));
    if (std::optional<Failure> failed = m_file->commit()) return fail(failed->reason);
    m_finished = true;
    return true;
}

}  // namespace contend::sim
