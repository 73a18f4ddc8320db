#pragma once
// The immutable in-memory trace: tracks of slices (operators), counter series, flows, and the
// statistics of the import. Built once by TraceBuilder; shared read-only (std::shared_ptr<const
// Trace>) by the analyses and views, which may run on different threads.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/trace/import_problem.h"
#include "core/trace/string_table.h"
#include "core/trace/trace_format.h"
#include "core/trace/types.h"

namespace contend {

// What a slice is, for the analyses. Bit flags.
enum SliceFlags : std::uint8_t {
    kSliceDevice = 1 << 0,   // runs on a device stream (kernel, NPU task, memcpy, memset)
    kSliceMemory = 1 << 1,   // memcpy / memset / DMA task
    kSliceWait = 1 << 2,     // a wait task (EVENT_WAIT_SQE, Notify Wait, cuda_sync): not resource use
    kSliceLaunch = 1 << 3,   // host-side launch (cuda_runtime / cuda_driver / CANN API)
    kSliceStep = 1 << 4,     // iteration marker (ProfilerStep#N)
    kSliceInstant = 1 << 5,  // instant event (dur 0)
    // Overlaps another device operator on its own stream, which hardware cannot do (a duplicated
    // event, clock trouble): counted at finalize (ImportProblem::StreamOverlap, DuplicateEvent)
    // and kept out of the baselines by the analysis.
    kSliceOverlap = 1 << 6,
    // A DMA request that a device queue takes several of at once (MTIA's firmware dma_request,
    // conventions.h): like a copy (kSliceMemory), not checked for overlap on its stream.
    kSliceDma = 1 << 7,
};

// Hot part of an operator/slice: what the timeline and the analyses touch in inner loops.
struct Slice {
    TimeNs start = 0;
    TimeNs dur = 0;
    StringId name = 0;
    StringId category = 0;
    std::uint32_t track = 0;
    std::uint8_t flags = 0;
    std::uint8_t depth = 0;  // nesting level on its track (0 = outermost)
    char phase = 'X';        // 'X' complete, 'B' (matched B/E pair), 'i' instant
    std::uint8_t pad = 0;

    TimeNs end() const { return start + dur; }
    bool is(SliceFlags f) const { return (flags & f) != 0; }
};
static_assert(sizeof(Slice) == 32, "Slice is packed into 32 bytes; keep it hot and small");

// One per-operator hardware metric joined from side files or args (e.g. Ascend aic_mte2_ratio,
// l2 hit rate). Values are in the unit the source gives.
struct Metric {
    StringId key = 0;
    float value = 0;
};

// Cold part of a slice: the args that matter for analysis. Parallel to Trace::slices().
struct SliceInfo {
    std::uint64_t srcOffset = 0;     // byte offset of the event's '{' in the (decompressed) source
    std::int64_t correlation = -1;   // Kineto correlation / Ascend connection id
    std::int64_t externalId = -1;    // Kineto "External id"
    std::int64_t taskId = -1;        // Ascend "Task Id"
    TimeNs waitNs = -1;              // measured wait before start (Ascend "Wait Time(us)"), -1 if unknown
    std::int32_t stream = -1;        // device stream (Kineto args.stream, Ascend Physic Stream Id)
    std::int32_t device = -1;        // device index (Kineto args.device)
    StringId taskType = 0;           // Ascend "Task Type" (AI_CORE, ...)
    StringId shape = 0;              // shape text: grid/block for kernels, Input Shapes/Dims for ops
    std::uint32_t metricsBegin = 0;  // range into Trace::metrics()
    std::uint32_t metricsCount = 0;
    std::uint32_t launch = kNone;  // host launch slice that enqueued this device op (by correlation)
};

enum class TrackKind : std::uint8_t { DeviceStream, HostThread, Other };

// "device", "host" or "other": the word reports, `info` and the Python module use for a kind.
const char* trackKindName(TrackKind k);

struct Track {
    std::string pid;  // as written in the file (number text or string)
    std::string tid;
    std::string processName;  // from process_name metadata (or process_labels)
    std::string threadName;   // from thread_name metadata
    std::int64_t processSortIndex = 0;
    std::int64_t threadSortIndex = 0;
    TrackKind kind = TrackKind::Other;
    std::uint32_t sliceBegin = 0;  // [sliceBegin, sliceEnd) in Trace::slices(), sorted by start
    std::uint32_t sliceEnd = 0;
    TimeNs maxDur = 0;  // longest slice on the track, for visible-range queries
    std::uint8_t maxDepth = 0;

    std::uint32_t size() const { return sliceEnd - sliceBegin; }
    // "Ascend Hardware / Stream 2", "GPU 0 / stream 7", "python3 (123) / thread 45"
    std::string label() const;
};

struct CounterSeries {
    std::string pid;
    std::string processName;
    std::string name;           // event name, e.g. "HBM 0/Read"
    std::string key;            // args key, e.g. "Read(MB/s)"
    std::string id;             // optional per-instance id
    std::string unit;           // from the key: "MB/s", "%", "MHz", "KB", or ""
    std::vector<TimeNs> times;  // sorted
    std::vector<double> values;

    std::string label() const;  // "HBM 0/Read Read(MB/s)"
    // Value in effect at t (step function: last sample at or before t); NaN before the first.
    double valueAt(TimeNs t) const;
};

struct Flow {
    StringId category = 0;
    StringId name = 0;
    std::uint32_t from = kNone;  // slice index the flow leaves ('s'), kNone if unbound
    std::uint32_t to = kNone;    // slice index it arrives at ('f'), kNone if unbound
    TimeNs fromTs = 0;
    TimeNs toTs = 0;
};

// One import problem (import_problem.h) with how often it happened and where first.
struct ImportWarning {
    ImportProblem id = ImportProblem::Other;
    std::string kind;  // its text: importProblemInfo(id).text
    std::uint64_t count = 0;
    std::string example;                    // where the first one was: "byte 1234 (line 5)"
    ProblemUnit unit = ProblemUnit::Event;  // what `count` counts
    std::string_view unitName() const { return problemUnitName(unit); }
    ProblemSeverity severity() const { return importProblemInfo(id).severity; }
};

struct ImportStats {
    std::uint64_t events = 0;                     // events in the file, as written (dropped ones too)
    std::map<std::string, std::uint64_t> phases;  // per "ph" value, as written
    std::vector<ImportWarning> warnings;
    bool truncated = false;
    std::uint64_t bytes = 0;         // JSON bytes read (decompressed)
    std::uint64_t fileBytes = 0;     // bytes on disk
    double seconds = 0;              // wall time of the load
    std::uint64_t modelBytes = 0;    // what the model held when reading ended (estimate)
    std::uint64_t memoryBudget = 0;  // the load's memory budget (0: none)
};

// Per-name statistics over all slices with that name, computed once at finalize.
struct NameStats {
    StringId name = 0;
    std::uint64_t count = 0;
    TimeNs total = 0;
    TimeNs min = 0;
    TimeNs max = 0;
};

struct Source {
    std::string path;  // the file the events came from
    bool gzip = false;
    std::string folder;                  // Ascend profiler folder, when opened as one
    std::vector<std::string> sideFiles;  // CSVs joined in
    // What the file says about the capture, as (what, value) for `contend-cli info`: GPUs,
    // exporter version, session start (Nsight Systems exports). Not read by the analyses.
    std::vector<std::pair<std::string, std::string>> details;
    // The peaks the file states for each device (Nsight Systems' TARGET_INFO_GPU), which the
    // analyses use for it: a device-to-device copy's or a memset's bytes per second against the
    // device's memory bandwidth. Empty when the file states none.
    struct Device {
        std::int32_t id = -1;
        double memoryBandwidth = 0;  // bytes/s; 0 unknown
        std::int64_t smCount = -1;
        double clockHz = 0;  // SM clock; 0 unknown
        std::int64_t l2Bytes = -1;
    };
    std::vector<Device> devices;
    // What the file lacks that the analyses would use, in the words of the reader that knows it
    // (empty: nothing it knows of), for the report's notes to say so without knowing the format:
    // - devicePeaks: why no device states its peaks though the format can ("no TARGET_INFO_GPU
    //   table" of an Nsight Systems export);
    // - shapes: why the operators carry no input shapes ("an Ascend trace_view.json opened on its
    //   own"), and shapesRemedy: what to open instead, as a sentence.
    struct Gaps {
        std::string devicePeaks;
        std::string shapes;
        std::string shapesRemedy;
    } gaps;
    const Device* device(std::int32_t id) const {
        for (const Device& d : devices)
            if (d.id == id) return &d;
        return nullptr;
    }
};

class Trace {
  public:
    const Source& source() const { return m_source; }
    // What kind of file it was read from; its name and values are in core/trace/conventions.h.
    TraceFormat traceFormat() const { return m_format; }
    const StringTable& strings() const { return m_strings; }
    std::string_view str(StringId id) const { return m_strings.view(id); }

    const std::vector<Slice>& slices() const { return m_slices; }
    const std::vector<SliceInfo>& infos() const { return m_infos; }
    const std::vector<Metric>& metrics() const { return m_metrics; }
    const std::vector<Track>& tracks() const { return m_tracks; }
    const std::vector<CounterSeries>& counters() const { return m_counters; }
    const std::vector<Flow>& flows() const { return m_flows; }
    const std::vector<NameStats>& nameStats() const { return m_nameStats; }
    const ImportStats& stats() const { return m_stats; }
    // Track indices in display order: device streams first, then host threads, then the rest.
    const std::vector<std::uint32_t>& trackOrder() const { return m_trackOrder; }

    TimeNs begin() const { return m_begin; }  // earliest slice start / counter sample
    TimeNs end() const { return m_end; }      // latest slice end
    TimeNs span() const { return m_end > m_begin ? m_end - m_begin : 0; }
    TimeNs baseTimeNs() const { return m_baseTimeNs; }
    const std::string& displayTimeUnit() const { return m_displayTimeUnit; }
    // The rank of a distributed job this trace is one of (Kineto distributedInfo.rank, Ascend
    // profiler_info_{rank}.json); -1 when the trace does not say. worldSize 0 when unknown.
    int rank() const { return m_rank; }
    int worldSize() const { return m_worldSize; }

    // Slices of a track that intersect [t0, t1): returns a half-open index range into slices().
    // Uses the track's maxDur so long slices that start before t0 are included.
    std::pair<std::uint32_t, std::uint32_t> visibleRange(std::uint32_t track, TimeNs t0, TimeNs t1) const;
    std::size_t deviceSliceCount() const;
    std::size_t operatorCount() const { return m_slices.size(); }
    // Hardware metric of a slice by key name; NaN when absent.
    float metric(std::uint32_t slice, std::string_view key) const;

    // The event's original JSON text, read back from the source file on demand (for tooltips).
    // Returns an empty string if the file is gone or changed.
    std::string rawEvent(std::uint32_t slice) const;

  private:
    friend class TraceBuilder;
    Source m_source;
    TraceFormat m_format{};
    StringTable m_strings;
    std::vector<Slice> m_slices;
    std::vector<SliceInfo> m_infos;
    std::vector<Metric> m_metrics;
    std::vector<Track> m_tracks;
    std::vector<std::uint32_t> m_trackOrder;
    std::vector<CounterSeries> m_counters;
    std::vector<Flow> m_flows;
    std::vector<NameStats> m_nameStats;
    ImportStats m_stats;
    TimeNs m_begin = 0;
    TimeNs m_end = 0;
    TimeNs m_baseTimeNs = 0;
    std::string m_displayTimeUnit;
    int m_rank = -1;
    int m_worldSize = 0;
};

using TracePtr = std::shared_ptr<const Trace>;

}  // namespace contend
