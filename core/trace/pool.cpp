#include "core/trace/pool.h"

#include <algorithm>
#include <charconv>

#include "core/trace/trace_builder.h"

namespace contend {

namespace {

constexpr std::int64_t kIdStride = std::int64_t{1} << 40;  // per capture, for correlation ids

// "ProfilerStep#N" -> N, or -1.
long stepNumber(std::string_view name) {
    const auto hash = name.find('#');
    if (hash == std::string_view::npos || name.substr(0, hash) != "ProfilerStep") return -1;
    long v = 0;
    const auto [p, ec] = std::from_chars(name.data() + hash + 1, name.data() + name.size(), v);
    return ec == std::errc() && p == name.data() + name.size() ? v : -1;
}

}  // namespace

TracePtr poolCaptures(const std::vector<TracePtr>& captures) {
    if (captures.empty()) return nullptr;
    if (captures.size() == 1) return captures.front();
    TraceBuilder b(captures.front()->traceFormat());
    Source src = captures.front()->source();
    const Source& first = captures.front()->source();
    src.path =
        (first.folder.empty() ? first.path : first.folder) + " + " + std::to_string(captures.size() - 1) + " more";
    src.folder.clear();
    b.setSource(src);
    std::size_t total = 0;
    for (const TracePtr& t : captures) total += t->slices().size();
    b.reserve(total);
    TimeNs cursor = 0;  // where the next capture begins
    long stepBase = 0;  // ProfilerStep numbers used so far
    for (std::size_t k = 0; k < captures.size(); ++k) {
        const Trace& t = *captures[k];
        const TimeNs delta = k == 0 ? 0 : cursor - t.begin();
        std::vector<std::uint32_t> trackOf(t.tracks().size());
        for (std::size_t i = 0; i < t.tracks().size(); ++i) {
            const Track& tr = t.tracks()[i];
            trackOf[i] = b.track(tr.pid, tr.tid);
            if (!tr.processName.empty()) b.setProcessName(tr.pid, tr.processName);
            if (!tr.threadName.empty()) b.setThreadName(tr.pid, tr.tid, tr.threadName);
            b.setProcessSortIndex(tr.pid, tr.processSortIndex);
            b.setThreadSortIndex(tr.pid, tr.tid, tr.threadSortIndex);
            if (tr.kind == TrackKind::DeviceStream) b.setDeviceTrack(trackOf[i]);
        }
        long maxStep = -1;
        const auto& slices = t.slices();
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            Slice s = slices[i];
            SliceInfo info = t.infos()[i];
            std::string_view name = t.str(s.name);
            std::string renamed;
            if (s.is(kSliceStep)) {
                if (const long n = stepNumber(name); n >= 0) {
                    maxStep = std::max(maxStep, n);
                    renamed = "ProfilerStep#" + std::to_string(stepBase + n);
                    name = renamed;
                }
            }
            s.name = b.intern(name);
            s.category = b.intern(t.str(s.category));
            s.track = trackOf[s.track];
            s.start += delta;
            if (info.shape) info.shape = b.intern(t.str(info.shape));
            if (info.taskType) info.taskType = b.intern(t.str(info.taskType));
            if (info.correlation >= 0) info.correlation += static_cast<std::int64_t>(k) * kIdStride;
            if (info.externalId >= 0) info.externalId += static_cast<std::int64_t>(k) * kIdStride;
            info.launch = kNone;  // linked again at finalize (flows, correlation)
            const std::uint32_t metricsBegin = info.metricsBegin, metricsCount = info.metricsCount;
            info.metricsBegin = 0;
            info.metricsCount = 0;
            const std::uint32_t at = b.addSlice(s, info);
            for (std::uint32_t m = 0; m < metricsCount; ++m) {
                const Metric& mt = t.metrics()[metricsBegin + m];
                b.addMetric(at, t.str(mt.key), mt.value);
            }
        }
        for (const CounterSeries& c : t.counters())
            for (std::size_t j = 0; j < c.times.size(); ++j)
                b.addCounter(c.pid, c.name, c.id, c.key, c.times[j] + delta, c.values[j]);
        std::size_t flowId = 0;
        for (const Flow& f : t.flows()) {
            if (f.from == kNone || f.to == kNone) continue;
            const std::string id = "pool" + std::to_string(k) + ":" + std::to_string(flowId++);
            const std::string_view cat = t.str(f.category), fname = t.str(f.name);
            b.addFlowStart(cat, fname, id, trackOf[slices[f.from].track], slices[f.from].start + delta);
            b.addFlowEnd(cat, fname, id, trackOf[slices[f.to].track], slices[f.to].start + delta, true);
        }
        // What the readers counted travels with the pool (the report's input notes read it), but
        // for what finalize counts again on the pooled slices.
        b.stats().truncated = b.stats().truncated || t.stats().truncated;
        for (const ImportWarning& w : t.stats().warnings)
            if (w.id != ImportProblem::Other && w.id != ImportProblem::DuplicateEvent &&
                w.id != ImportProblem::StreamOverlap)
                b.warn(w.id, w.example, w.count);
        if (maxStep >= 0) stepBase += maxStep + 1;
        cursor = t.end() + delta + kPoolGapNs;
    }
    return b.finalize();
}

}  // namespace contend
