#pragma once
// The only way to make a Trace: readers, the simulator and tests add events in any order, then
// finalize() sorts, pairs, links and freezes them into an immutable Trace. The builder knows no
// format: what a name means (a device task, a step marker) is tagged by the readers
// (core/trace/conventions.h); finalize does structure only.
#include <array>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/trace/trace.h"

namespace contend {

class TraceBuilder {
  public:
    explicit TraceBuilder(TraceFormat format = TraceFormat{});

    void setFormat(TraceFormat format) { m_trace->m_format = format; }
    TraceFormat format() const { return m_trace->m_format; }
    void setSource(Source source) { m_trace->m_source = std::move(source); }
    Source& source() { return m_trace->m_source; }
    // Added to every time at finalize (Kineto baseTimeNanoseconds).
    void setBaseTime(TimeNs base) { m_trace->m_baseTimeNs = base; }
    void setDisplayTimeUnit(std::string unit) { m_trace->m_displayTimeUnit = std::move(unit); }
    void setDistributed(int rank, int worldSize) {
        m_trace->m_rank = rank;
        m_trace->m_worldSize = worldSize;
    }

    // Longest name, category or arg text kept; longer ones are cut (with a warning) so that a
    // crafted 100 MB name costs 64 KiB, not its size again for every copy the model keeps.
    static constexpr std::size_t kMaxStringBytes = 64u << 10;
    StringId intern(std::string_view s) {
        if (s.size() > kMaxStringBytes) [[unlikely]]
            return internLong(s);
        return m_trace->m_strings.intern(s);
    }
    std::string_view str(StringId id) const { return m_trace->m_strings.view(id); }

    // Finds or creates the track for (pid, tid), both as written in the file.
    std::uint32_t track(std::string_view pid, std::string_view tid);
    void setProcessName(std::string_view pid, std::string_view name);
    void setProcessSortIndex(std::string_view pid, std::int64_t index);
    void setThreadName(std::string_view pid, std::string_view tid, std::string_view name);
    void setThreadSortIndex(std::string_view pid, std::string_view tid, std::int64_t index);

    // Capacity hint for the slice vectors.
    void reserve(std::size_t slices) {
        m_trace->m_slices.reserve(slices);
        m_trace->m_infos.reserve(slices);
    }
    // The slices the builder has room for before its slice vector grows again.
    std::size_t sliceCapacity() const { return m_trace->m_slices.capacity(); }
    // Adds a complete ('X') or instant ('i') slice; returns its build-time index (for addMetric).
    std::uint32_t addSlice(const Slice& slice, const SliceInfo& info = {});
    // B/E pairs: matched per track in time order at finalize (E closes the latest open B).
    void addBegin(const Slice& slice, const SliceInfo& info = {});
    void addEnd(std::uint32_t track, TimeNs ts, std::uint64_t srcOffset);
    void addMetric(std::uint32_t buildIndex, std::string_view key, float value);
    void addMetric(std::uint32_t buildIndex, StringId key, float value) {
        m_pendingMetrics.push_back({buildIndex, Metric{key, value}});
    }

    void addCounter(std::string_view pid, std::string_view name, std::string_view id, std::string_view key, TimeNs ts,
                    double value);

    // Flow endpoints; bound to slices at finalize. `enclosing`: bind to the slice that encloses
    // ts on the track (bp:"e" and all 's'); otherwise to the next slice starting at or after ts.
    void addFlowStart(std::string_view category, std::string_view name, std::string_view id, std::uint32_t track,
                      TimeNs ts);
    void addFlowEnd(std::string_view category, std::string_view name, std::string_view id, std::uint32_t track,
                    TimeNs ts, bool enclosing);

    // Counts `count` occurrences of an import problem (import_problem.h: its text and unit come
    // from the table); the first occurrence's place is kept.
    void warn(ImportProblem problem, std::string_view where, std::uint64_t count = 1);
    ImportStats& stats() { return m_trace->m_stats; }
    std::size_t sliceCount() const { return m_trace->m_slices.size(); }
    // Bytes held so far (vector capacities, strings, counters, pending pairs and flows): what the
    // loader weighs against its memory budget while reading.
    std::size_t memoryBytes() const;

    // For side-file joins before finalize (Ascend kernel_details.csv, l2_cache.csv): the slices
    // and infos added so far, in build order (the index is the build index addMetric takes), and
    // the process name set so far for a track ("" if none). B/E pairs are not in here yet.
    std::vector<Slice>& pendingSlices() { return m_trace->m_slices; }
    std::vector<SliceInfo>& pendingInfos() { return m_trace->m_infos; }
    std::string_view processNameOf(std::uint32_t track) const;
    // The B slices still waiting for their E (paired at finalize), with their infos.
    std::vector<Slice>& pendingBegins() { return m_begins; }
    const std::vector<SliceInfo>& pendingBeginInfos() const { return m_beginInfos; }
    // Makes a track a device stream whatever its slices are (a reader that knows from the
    // file's metadata, core/trace/conventions.h). Otherwise a track is one when it holds a
    // kSliceDevice slice.
    void setDeviceTrack(std::uint32_t track) { m_trace->m_tracks[track].kind = TrackKind::DeviceStream; }
    // The metrics added so far as (build index, metric), in the order added.
    std::size_t pendingMetricCount() const { return m_pendingMetrics.size(); }
    std::pair<std::uint32_t, Metric> pendingMetric(std::size_t i) const {
        return {m_pendingMetrics[i].slice, m_pendingMetrics[i].metric};
    }
    std::size_t trackCount() const { return m_trace->m_tracks.size(); }

    // Appends everything another builder collected (a chunk parsed on a worker thread), as if
    // its events had been added here after ours: strings, tracks and counter series are mapped
    // onto ours, build indices shifted, warnings counted together.
    void absorb(TraceBuilder&& other);

    // Freezes the trace. The builder is empty afterwards.
    TracePtr finalize();

    // From how many slices finalize sorts the slices and infos in place (core/common/radix_sort.h)
    // instead of into sorted copies: measured with `contend-cli info` (farm-bench, this
    // project's 2-vCPU VM), 1M Kineto kernels load 5% faster copied, 4M compact events as fast
    // either way (peak 870 -> 640 MB in place), 10M Kineto kernels 7% faster in place (peak 2.3
    // -> 1.5 GB). A test sets it to 0 to take the in-place path on a small trace.
    static constexpr std::size_t kPermuteInPlaceFrom = std::size_t{1} << 22;
    void setPermuteInPlaceFrom(std::size_t slices) { m_permuteInPlaceFrom = slices; }

  private:
    struct PendingEnd {
        std::uint32_t track;
        TimeNs ts;
        std::uint64_t offset;
    };
    struct FlowPoint {
        std::string key;  // category + '\x1f' + id
        StringId category, name;
        std::uint32_t track;
        TimeNs ts;
        bool enclosing;
    };
    struct PendingMetric {
        std::uint32_t slice;
        Metric metric;
    };
    struct CounterKey {
        std::string pid, name, id, key;
        bool operator==(const CounterKey&) const = default;
    };
    struct CounterKeyHash {
        std::size_t operator()(const CounterKey& k) const;
    };

    StringId internLong(std::string_view s);
    void addWarning(ImportProblem id, std::string_view kind, std::string_view where, std::uint64_t count,
                    ProblemUnit unit);
    void pairBeginEnd();
    void sortSlices(std::vector<std::uint32_t>& newIndexOf);
    void finishTracks();
    void markStreamOverlaps();
    void finishCounters();
    void bindFlows(const std::vector<std::uint32_t>& newIndexOf);
    void linkLaunches();
    void computeNameStats();
    std::uint32_t sliceAt(std::uint32_t track, TimeNs ts, bool enclosing) const;

    std::shared_ptr<Trace> m_trace;
    std::unordered_map<std::string, std::uint32_t> m_trackIndex;  // pid + '\x1f' + tid
    std::unordered_map<std::string, std::string> m_processNames;
    std::unordered_map<std::string, std::int64_t> m_processSort;
    std::uint32_t m_lastTrack = kNone;
    std::string m_lastPid, m_lastTid;
    std::string m_keyBuf;
    std::vector<Slice> m_begins;
    std::vector<SliceInfo> m_beginInfos;
    std::vector<PendingEnd> m_ends;
    std::vector<PendingMetric> m_pendingMetrics;
    std::unordered_map<CounterKey, std::uint32_t, CounterKeyHash> m_counterIndex;
    struct CounterMemo {
        std::string pid, name, id, key;
        std::uint32_t idx = kNone;
    };
    std::array<CounterMemo, 8> m_counterMemo;
    std::size_t m_counterMemoNext = 0;
    std::vector<std::uint32_t> m_parent;  // enclosing slice per slice, during finalize
    std::vector<FlowPoint> m_flowStarts;
    std::vector<FlowPoint> m_flowEnds;
    std::unordered_map<std::string, std::size_t> m_warningIndex;
    std::size_t m_permuteInPlaceFrom = kPermuteInPlaceFrom;
};

}  // namespace contend
