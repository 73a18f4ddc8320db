#include "core/analysis/breakdowns/scope.h"

#include <algorithm>
#include <set>
#include <utility>

#include "core/common/merge_runs.h"

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
    out.reserve(ops.size());  // room once: pages are touched only as the list fills
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
    // The operations per track, in track order: each track's slices are in start order, so each
    // track's run is in (start, index) order already.
    std::vector<std::uint32_t> collected;
    std::vector<std::size_t> runBegin;  // where each track's run starts in `collected`
    // Room for every stream's slices once, as for the lists below: grown by doubling, each list
    // faulted in about twice its size afresh (at 10M kernels a quarter of a GB in all).
    std::size_t streamSlices = 0;
    for (const Track& track : trace.tracks())
        if (track.kind == TrackKind::DeviceStream) streamSlices += track.sliceEnd - track.sliceBegin;
    collected.reserve(streamSlices);
    for (const Track& track : trace.tracks()) {
        if (track.kind != TrackKind::DeviceStream) continue;
        runBegin.push_back(collected.size());
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
            collected.push_back(i);
        }
    }
    runBegin.push_back(collected.size());
    // Which launch calls enqueue work (queue length, launch statistics), each name classified once.
    scope.enqueued.assign(slices.size(), 0);
    std::unordered_map<StringId, bool> enqueues;
    for (const std::uint32_t i : collected) {
        const std::uint32_t launch = scope.launches[i];
        if (launch == kNone) continue;
        const Slice& l = slices[launch];
        auto it = enqueues.find(l.name);
        if (it == enqueues.end())
            it = enqueues.emplace(l.name, isEnqueueCall(trace.str(l.name), l.is(kSliceLaunch))).first;
        scope.enqueued[i] = it->second ? 1 : 0;
    }
    // All of them in (start, index) order: the tracks' runs merged (merge_runs.h; a sort of
    // millions of pairs was most of this stage at 10M kernels).
    mergeRuns(
        runBegin, [&](std::size_t k) { return collected[k]; },
        [&](std::uint32_t i) {
            return std::pair<TimeNs, std::uint32_t>{slices[i].start, i};
        },
        scope.ops);
    // Within a stream, start order (ties by index); a stream's operations may lie on several
    // tracks: the start order above, split by stream (a stable counting pass), streams ascending.
    std::set<std::int32_t> distinct;
    std::int32_t last = -1;  // a stream is >= 0 here
    for (const std::uint32_t i : collected)
        if (infos[i].stream != last) distinct.insert(last = infos[i].stream);
    const std::vector<std::int32_t> streamIds(distinct.begin(), distinct.end());
    scope.streams.resize(streamIds.size());
    for (std::size_t k = 0; k < streamIds.size(); ++k) scope.streams[k].stream = streamIds[k];
    auto bucketOf = [&](std::int32_t stream) {
        return static_cast<std::size_t>(std::lower_bound(streamIds.begin(), streamIds.end(), stream) -
                                        streamIds.begin());
    };
    {
        std::vector<std::size_t> count(streamIds.size(), 0);
        std::size_t at = 0;
        last = -1;
        for (const std::uint32_t i : collected) {
            if (infos[i].stream != last) at = bucketOf(last = infos[i].stream);
            ++count[at];
        }
        for (std::size_t k = 0; k < count.size(); ++k) scope.streams[k].ops.reserve(count[k]);
    }
    std::size_t bucket = 0;
    last = -1;
    for (const std::uint32_t i : scope.ops) {
        if (infos[i].stream != last) bucket = bucketOf(last = infos[i].stream);
        scope.streams[bucket].ops.push_back(i);
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
