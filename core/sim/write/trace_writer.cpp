#include "core/sim/write/trace_writer.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace contend::sim {

namespace {

// CUPTI callback ids Kineto writes as "cbid" (cudaLaunchKernel, cudaStreamSynchronize,
// cudaDeviceSynchronize in CUDA 12).
constexpr int kCbidLaunch = 211;
constexpr int kCbidStreamSync = 131;
constexpr int kCbidDeviceSync = 165;
// Kineto's sort indices: GPUs after host processes.
constexpr std::int64_t kGpuSortIndex = 5000000;
constexpr int kMaxWarpsPerSm = 64;

}  // namespace

TraceWriter::TraceWriter(OutputSink& sink, const SimConfig& config, const std::vector<StreamInfo>& streams,
                         Options options)
    : m_config(config),
      m_streams(streams),
      m_options(std::move(options)),
      m_out(&sink),
      m_counterStream(m_options.counters, config.counterNoise, m_options.counterNoiseSeed) {}

void TraceWriter::open(char phase) {
    m_out.raw(m_first ? "\n  {\"ph\": \"" : ",\n  {\"ph\": \"").ch(phase).raw("\"");
    m_first = false;
    ++m_phaseCount[static_cast<unsigned char>(phase) & 127];
    ++m_counts.events;
}

bool TraceWriter::begin() {
    const DeviceConfig& d = m_config.device;
    JsonText& o = m_out;
    o.raw("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\"id\": 0, \"name\": ")
        .string(d.name)
        .raw(
            ", \"totalGlobalMem\": 85899345920, \"computeMajor\": 8, \"computeMinor\": 0, "
            "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048, "
            "\"regsPerBlock\": 65536, \"warpSize\": 32, \"sharedMemPerBlock\": 49152, \"numSms\": ")
        .integer(d.computeUnits)
        .raw(", \"sharedMemPerMultiprocessor\": 167936, \"l2CacheSize\": ")
        .integer(d.cacheBytes)
        .raw(", \"memoryBandwidthGBs\": ")
        .integer(std::llround(d.peakBandwidthGBs))
        .raw("}\n  ],\n  \"cuda_runtime_version\": 12010,\n");
    if (m_options.rank >= 0)
        o.raw("  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ")
            .integer(m_options.rank)
            .raw(", \"world_size\": ")
            .integer(m_options.worldSize)
            .raw("},\n");
    o.raw("  \"traceName\": ")
        .string(m_options.traceName)
        .raw(",\n  \"displayTimeUnit\": \"ms\",\n  \"traceEvents\": [");

    const TimeNs t0 = m_config.startNs;
    auto meta = [&](const char* name, std::int64_t pid, std::int64_t tid, const char* key, auto value) {
        open('M');
        o.raw(", \"name\": \"")
            .raw(name)
            .raw("\", \"pid\": ")
            .integer(pid)
            .raw(", \"tid\": ")
            .integer(tid)
            .raw(", \"ts\": ")
            .micros(t0)
            .raw(", \"args\": {\"")
            .raw(key)
            .raw("\": ");
        if constexpr (std::is_integral_v<decltype(value)>)
            o.integer(value);
        else
            o.string(value);
        o.raw("}}");
    };
    meta("process_name", 0, 0, "name", std::string("GPU 0"));
    meta("process_labels", 0, 0, "labels", std::string("GPU 0"));
    meta("process_sort_index", 0, 0, "sort_index", kGpuSortIndex);
    for (const StreamInfo& s : m_streams) {
        meta("thread_name", 0, s.id, "name", "stream " + std::to_string(s.id) + " ");
        meta("thread_sort_index", 0, s.id, "sort_index", static_cast<std::int64_t>(s.id));
    }
    const std::int64_t pid = m_options.hostPid;
    const std::int64_t tid = m_options.hostTid;
    meta("process_name", pid, 0, "name", std::string("python3"));
    meta("process_sort_index", pid, 0, "sort_index", pid);
    meta("thread_name", pid, tid, "name", "thread " + std::to_string(tid) + " (python3)");
    meta("thread_sort_index", pid, tid, "sort_index", tid);
    return o.maybeFlush();
}

void TraceWriter::hostX(const char* cat, std::string_view name, TimeNs ts, TimeNs dur) {
    open('X');
    m_out.raw(", \"cat\": \"")
        .raw(cat)
        .raw("\", \"name\": ")
        .string(name)
        .raw(", \"pid\": ")
        .integer(m_options.hostPid)
        .raw(", \"tid\": ")
        .integer(m_options.hostTid)
        .raw(", \"ts\": ")
        .micros(ts)
        .raw(", \"dur\": ")
        .micros(dur);
}

void TraceWriter::kernel(const OpSpec& spec, const OpRecord& rec) {
    const KernelShape& k = spec.shape;
    const std::int64_t blocks = static_cast<std::int64_t>(k.grid[0]) * k.grid[1] * k.grid[2];
    const std::int64_t threads = static_cast<std::int64_t>(k.block[0]) * k.block[1] * k.block[2];
    const std::int64_t warps = blocks * ((threads + 31) / 32);
    const std::int64_t sms = std::max(1, m_config.device.computeUnits);
    const std::int64_t occupancy = std::min<std::int64_t>(100, warps * 100 / (sms * kMaxWarpsPerSm));
    JsonText& o = m_out;
    open('X');
    o.raw(", \"cat\": \"kernel\", \"name\": ")
        .string(spec.name)
        .raw(", \"pid\": 0, \"tid\": ")
        .integer(spec.stream)
        .raw(", \"ts\": ")
        .micros(rec.start)
        .raw(", \"dur\": ")
        .micros(rec.dur())
        .raw(", \"args\": {\"External id\": ")
        .integer(rec.externalId)
        .raw(", \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": ")
        .integer(spec.stream)
        .raw(", \"correlation\": ")
        .integer(rec.correlation)
        .raw(", \"registers per thread\": ")
        .integer(k.registers)
        .raw(", \"shared memory\": ")
        .integer(k.sharedMemory)
        .raw(", \"blocks per SM\": ")
        .ratio(blocks, sms, 2)
        .raw(", \"warps per SM\": ")
        .ratio(warps, sms, 2)
        .raw(", \"grid\": [")
        .integer(k.grid[0])
        .raw(", ")
        .integer(k.grid[1])
        .raw(", ")
        .integer(k.grid[2])
        .raw("], \"block\": [")
        .integer(k.block[0])
        .raw(", ")
        .integer(k.block[1])
        .raw(", ")
        .integer(k.block[2])
        .raw("], \"est. achieved occupancy %\": ")
        .integer(occupancy)
        .raw("}}");
    ++m_counts.kernels;
}

void TraceWriter::flow(std::int64_t id, const OpRecord& rec, std::int32_t stream) {
    JsonText& o = m_out;
    open('s');
    o.raw(", \"id\": ")
        .integer(id)
        .raw(", \"pid\": ")
        .integer(m_options.hostPid)
        .raw(", \"tid\": ")
        .integer(m_options.hostTid)
        .raw(", \"ts\": ")
        .micros(rec.launchStart)
        .raw(", \"cat\": \"ac2g\", \"name\": \"ac2g\"}");
    open('f');
    o.raw(", \"id\": ")
        .integer(id)
        .raw(", \"pid\": 0, \"tid\": ")
        .integer(stream)
        .raw(", \"ts\": ")
        .micros(rec.start)
        .raw(", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}");
    ++m_counts.flows;
}

bool TraceWriter::write(const Iteration& it, const IterationResult& r) {
    JsonText& o = m_out;
    hostX("user_annotation", "ProfilerStep#" + std::to_string(r.index), r.stepStart, r.stepEnd - r.stepStart);
    o.raw(", \"args\": {\"External id\": ")
        .integer(r.stepExternalId)
        .raw(", \"Ev Idx\": ")
        .integer(m_evIdx++)
        .raw("}}");

    for (std::size_t i = 0; i < it.ops.size(); ++i) {
        const OpSpec& spec = it.ops[i];
        const OpRecord& rec = r.ops[i];
        if (m_options.hostEvents) {
            if (rec.syncStart != kNoTime) {
                hostX("cuda_runtime", "cudaStreamSynchronize", rec.syncStart, rec.syncDur);
                o.raw(", \"args\": {\"cbid\": ")
                    .integer(kCbidStreamSync)
                    .raw(", \"correlation\": ")
                    .integer(rec.syncCorrelation)
                    .raw("}}");
            }
            hostX("cpu_op", spec.hostOp, rec.cpuStart, rec.cpuDur);
            o.raw(", \"args\": {\"External id\": ")
                .integer(rec.externalId)
                .raw(", \"Ev Idx\": ")
                .integer(m_evIdx++)
                .raw("}}");
            hostX("cuda_runtime", "cudaLaunchKernel", rec.launchStart, rec.launchDur);
            o.raw(", \"args\": {\"External id\": ")
                .integer(rec.externalId)
                .raw(", \"cbid\": ")
                .integer(kCbidLaunch)
                .raw(", \"correlation\": ")
                .integer(rec.correlation)
                .raw("}}");
        }
        kernel(spec, rec);
        if (m_options.hostEvents) flow(rec.correlation, rec, spec.stream);
        if (!o.maybeFlush()) return false;
    }
    if (m_options.hostEvents) {
        hostX("cuda_runtime", "cudaDeviceSynchronize", r.deviceSyncStart, r.deviceSyncDur);
        o.raw(", \"args\": {\"cbid\": ")
            .integer(kCbidDeviceSync)
            .raw(", \"correlation\": ")
            .integer(r.deviceSyncCorrelation)
            .raw("}}");
    }

    counters(r);
    m_lastStepEnd = r.stepEnd;
    return o.maybeFlush();
}

void TraceWriter::counters(const IterationResult& r) {
    m_counterStream.step(r.samples, r.stepStart, r.stepEnd,
                         [this](const std::vector<CounterSample>& samples) { counterEvents(samples); });
}

void TraceWriter::counterEvents(const std::vector<CounterSample>& samples) {
    JsonText& o = m_out;
    for (const CounterSample& s : samples) {
        const CounterName& c = kCounterNames[static_cast<std::size_t>(s.series)];
        open('C');
        o.raw(", \"name\": \"")
            .raw(c.name)
            .raw("\", \"pid\": 0, \"tid\": 0, \"ts\": ")
            .micros(s.t)
            .raw(", \"args\": {\"")
            .raw(c.key)
            .raw("\": ")
            .fixed(s.tenths, 1)
            .raw("}}");
        ++m_counts.counters;
    }
}

bool TraceWriter::finish() {
    m_counterStream.finish(m_lastStepEnd,
                           [this](const std::vector<CounterSample>& samples) { counterEvents(samples); });
    m_out.raw("\n  ]\n}\n");
    m_counts.phases.clear();
    for (std::size_t c = 0; c < m_phaseCount.size(); ++c)
        if (m_phaseCount[c] > 0) m_counts.phases[std::string(1, static_cast<char>(c))] = m_phaseCount[c];
    return m_out.flush();
}

}  // namespace contend::sim
