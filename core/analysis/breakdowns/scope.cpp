#include "core/analysis/breakdowns/scope.h"

#include <algorithm>
#include <set>
#include <utility>

namespace contend::breakdowns {

namespace {

// The start of the last ProfilerStep when the trace has two or more distinct ones, else none.
bool lastStepStart(const Trace& trace, TimeNs& start) {
    std::set<StringId> names;
    start = kTimeMin;
    for (const Slice& s : trace.slices()) {
        if (!s.is(kSliceStep)) continue;
        names.insert(s.name);
        start = std::max(start, s.start);
    }
    return names.size() >= 2;
}

// Per slice, the host call that launched it (see scope.h).
std::vector<std::uint32_t> launchCalls(const Trace& trace) {
    const std::vector<Slice>& slices = trace.slices();
    const std::vector<SliceInfo>& infos = trace.infos();
    std::unordered_map<std::int64_t, std::uint32_t> byCorrelation;
    for (std::uint32_t i = 0; i < slices.size(); ++i) {
        if (slices[i].is(kSliceDevice) || infos[i].correlation < 0) continue;
        auto [it, added] = byCorrelation.emplace(infos[i].correlation, i);
        if (!added && !slices[it->second].is(kSliceLaunch) && slices[i].is(kSliceLaunch)) it->second = i;
    }
    std::vector<std::uint32_t> out(slices.size(), kNone);
    for (std::uint32_t i = 0; i < slices.size(); ++i) {
        if (!slices[i].is(kSliceDevice)) continue;
        const auto it = infos[i].correlation >= 0 ? byCorrelation.find(infos[i].correlation) : byCorrelation.end();
        out[i] = it != byCorrelation.end() ? it->second : infos[i].launch;
    }
    return out;
}

}  // namespace

std::vector<std::uint32_t> Scope::opsOfType(const Trace& trace, KernelType t, const TimeRange& range) const {
    std::vector<std::uint32_t> out;
    const std::vector<Slice>& slices = trace.slices();
    for (std::uint32_t i : ops)
        if (type(slices[i].name) == t && range.runs(slices[i].start, slices[i].end())) out.push_back(i);
    return out;
}

std::vector<std::uint32_t> Scope::opsIn(const Trace& trace, const TimeRange& range) const {
    if (range.whole()) return ops;
    std::vector<std::uint32_t> out;
    const std::vector<Slice>& slices = trace.slices();
    // In start order: past the first operation starting after the range, none runs in it.
    for (std::uint32_t i : ops) {
        if (slices[i].start > range.end) break;
        if (range.runs(slices[i].start, slices[i].end())) out.push_back(i);
    }
    return out;
}

Scope htaScope(const Trace& trace) {
    Scope scope;
    const std::vector<Slice>& slices = trace.slices();
    const std::vector<SliceInfo>& infos = trace.infos();
    TimeNs cut = 0;
    scope.lastStepCut = lastStepStart(trace, cut);
    scope.launches = launchCalls(trace);
    std::vector<std::pair<TimeNs, std::uint32_t>> byStart;
    std::vector<std::pair<std::int32_t, std::uint32_t>> byStream;
    for (const Track& track : trace.tracks()) {
        if (track.kind != TrackKind::DeviceStream) continue;
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = slices[i];
            if (!s.is(kSliceDevice) || s.is(kSliceInstant) || infos[i].stream < 0) continue;
            ++scope.deviceOps;
            if (scope.lastStepCut) {
                const std::uint32_t launch = scope.launches[i];
                if (launch == kNone || slices[launch].start >= cut) continue;
            }
            if (scope.types.find(s.name) == scope.types.end())
                scope.types.emplace(s.name, kernelType(trace.str(s.name)));
            byStart.emplace_back(s.start, i);
            byStream.emplace_back(infos[i].stream, i);
        }
    }
    // Which launch calls enqueue work (queue length, launch statistics), each name classified once.
    scope.enqueued.assign(slices.size(), 0);
    std::unordered_map<StringId, bool> enqueues;
    for (const auto& [t, i] : byStart) {
        const std::uint32_t launch = scope.launches[i];
        if (launch == kNone) continue;
        const Slice& l = slices[launch];
        auto it = enqueues.find(l.name);
        if (it == enqueues.end())
            it = enqueues.emplace(l.name, isEnqueueCall(trace.str(l.name), l.is(kSliceLaunch))).first;
        scope.enqueued[i] = it->second ? 1 : 0;
    }
    std::sort(byStart.begin(), byStart.end());
    scope.ops.reserve(byStart.size());
    for (const auto& [t, i] : byStart) scope.ops.push_back(i);
    // Within a stream, start order; a stream's operations may lie on several tracks.
    std::sort(byStream.begin(), byStream.end(), [&](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first < b.first;
        const TimeNs sa = slices[a.second].start, sb = slices[b.second].start;
        return sa != sb ? sa < sb : a.second < b.second;
    });
    for (const auto& [stream, i] : byStream) {
        if (scope.streams.empty() || scope.streams.back().stream != stream) scope.streams.push_back({stream, {}});
        scope.streams.back().ops.push_back(i);
    }
    if (scope.lastStepCut)
        scope.text =
            "device operations launched before the last ProfilerStep began (HTA's scope: the last step "
            "may be incomplete)";
    else
        scope.text = "every device operation on a stream (fewer than two ProfilerStep markers)";
    return scope;
}

}  // namespace contend::breakdowns
