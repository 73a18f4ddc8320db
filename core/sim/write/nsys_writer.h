#pragma once
// Writes simulated steps as an NVIDIA Nsight Systems SQLite export (what `nsys export --type
// sqlite` makes of a `nsys profile --gpu-metrics-devices=all` run), with the tables and column
// names of export schema 3.25 (the real samples in ../shared/traces/nsys-*):
//   StringIds                        names (kernels' demangled and short names, CUDA calls)
//   TARGET_INFO_SESSION_START_TIME   utcEpochNs: times in every table are ns since the session
//                                    start, here the simulator's clock itself (first step at
//                                    1 s), so the ground truth's start_ns match unchanged
//   TARGET_INFO_GPU                  the device: smCount, l2CacheSize, memoryBandwidth (B/s), ...
//   META_DATA_EXPORT                 EXPORT_PRODUCT_VERSION "contend-sim", EXPORT_SCHEMA_VERSION
//   PROCESSES, ThreadNames           the host process and its thread
//   CUPTI_ACTIVITY_KIND_KERNEL       one row per kernel (deviceId 0, streamId, correlationId,
//                                    grid/block, registers, shared memory)
//   CUPTI_ACTIVITY_KIND_RUNTIME      cudaLaunchKernel_v7000, cudaStreamSynchronize_v3020,
//                                    cudaDeviceSynchronize_v3020 (with host events)
//   CUPTI_ACTIVITY_KIND_SYNCHRONIZATION  syncType 3 (stream) and 4 (context) for those calls
//   NVTX_EVENTS                      ProfilerStep#N and each framework op as push/pop ranges
//                                    (eventType 59), as torch.autograd.profiler.emit_nvtx writes
//   TARGET_INFO_GPU_METRICS,         GPU metrics keyed by (typeId, metricId), GPU = typeId & 0xFF,
//   GPU_METRICS                      integer percent values (see below)
//
// GPU metrics are what Nsight's GPU-metrics sets sample, from the simulator's series:
//   "SMs Active [Throughput %]"           <- Compute Units
//   "SM Issue [Throughput %]"             <- Issue Slots
//   "DRAM Read Bandwidth [Throughput %]"  <- DRAM Bandwidth, 60% of it (reads)
//   "DRAM Write Bandwidth [Throughput %]" <- DRAM Bandwidth, the other 40% (writes)
//   "GPC Clock Frequency [MHz]"           constant (the device's clock), with each compute sample
// Nsight samples no L2 hit rate, so none is written. The counter mode (counter_mode.h) says which
// samples: every change (full), none (no GPU-metrics tables, as without --gpu-metrics-devices),
// or one time-weighted mean per period (Nsight's default is 10 kHz: 100 us).
//
// The file is written as PATH.tmp and renamed into place when complete (an interrupted run
// leaves no half database under the name). No stdout and no gzip: a database needs a file.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/common/atomic_write.h"
#include "core/sim/model/counter_mode.h"
#include "core/sim/model/simulator.h"
#include "core/sim/write/counter_resampler.h"
#include "core/sim/write/trace_output.h"

struct sqlite3;
struct sqlite3_stmt;

namespace contend::sim {

class NsysWriter : public TraceOutput {
  public:
    struct Options {
        bool hostEvents = true;  // runtime calls, sync records, framework-op NVTX ranges (steps: always)
        std::int64_t hostPid = 4242;
        std::int64_t hostTid = 4242;
        CounterSetting counters{CounterMode::Period, 100000};
        std::uint64_t counterNoiseSeed = 0;
    };

    NsysWriter(std::string path, const SimConfig& config, const std::vector<StreamInfo>& streams, Options options);
    ~NsysWriter() override;  // not finished: closes and removes the temporary file
    NsysWriter(const NsysWriter&) = delete;
    NsysWriter& operator=(const NsysWriter&) = delete;

    bool begin() override;  // creates PATH.tmp, the schema, the target and session rows
    bool write(const Iteration& it, const IterationResult& result) override;
    bool finish() override;  // last samples, commit, close, rename into place

    const TraceCounts& counts() const override { return m_counts; }
    std::uint64_t bytes() const override { return m_bytes; }
    const std::string& error() const { return m_error; }

    // The metric names written, in metricId order (tests and docs read them).
    static const std::vector<std::string>& metricNames();

  private:
    bool fail(const std::string& what);
    bool exec(const char* sql);
    sqlite3_stmt* prepare(const char* sql);
    bool done(sqlite3_stmt* st);  // steps an insert and resets it
    std::int64_t stringId(const std::string& s);
    void counterRows(const std::vector<CounterSample>& samples);
    void metricRow(TimeNs t, int metricId, std::int64_t value);
    void runtimeRow(TimeNs start, TimeNs dur, std::int64_t correlation, std::int64_t nameId);
    void syncRow(TimeNs start, TimeNs dur, std::int64_t correlation, std::int64_t stream, int syncType);
    void nvtxRow(TimeNs start, TimeNs end, const std::string& text);

    std::string m_path;
    std::optional<AtomicFile> m_file;  // the temporary the database is written to
    const SimConfig& m_config;
    const std::vector<StreamInfo>& m_streams;
    Options m_options;
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_kernel = nullptr;
    sqlite3_stmt* m_runtime = nullptr;
    sqlite3_stmt* m_sync = nullptr;
    sqlite3_stmt* m_nvtx = nullptr;
    sqlite3_stmt* m_metric = nullptr;
    sqlite3_stmt* m_string = nullptr;
    std::unordered_map<std::string, std::int64_t> m_stringIds;
    std::int64_t m_nextString = 1;
    std::int64_t m_launchName = 0, m_streamSyncName = 0, m_deviceSyncName = 0;
    CounterStream m_counterStream;
    TimeNs m_lastStepEnd = 0;
    TraceCounts m_counts;
    std::uint64_t m_bytes = 0;
    bool m_finished = false;
    std::string m_error;
};

}  // namespace contend::sim
