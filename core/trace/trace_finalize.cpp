// TraceBuilder::finalize(): structure only. Pairs B/E, applies the base time, sorts each track,
// lays out metrics, nesting depth, track kinds and order, counters, flows and launch links, then
// freezes the Trace. What names mean was tagged by the readers (core/trace/conventions.h).
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <numeric>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/common/parallel.h"
#include "core/common/radix_sort.h"
#include "core/trace/trace_builder.h"

namespace contend {

namespace {

// Slices from which finalize() splits its work over two threads (below, a thread costs more than
// it saves).
constexpr std::size_t kTwoThreadsFrom = 1u << 16;

}  // namespace

void TraceBuilder::pairBeginEnd() {
    if (m_begins.empty() && m_ends.empty()) return;
    // Merge B and E per track in time order; at equal times an E closes before a B opens
    // (back-to-back slices), matching Chrome's own importer.
    struct Ev {
        TimeNs ts;
        std::uint32_t track;
        bool isEnd;
        std::uint32_t index;
    };
    std::vector<Ev> evs;
    evs.reserve(m_begins.size() + m_ends.size());
    for (std::uint32_t i = 0; i < m_begins.size(); ++i) evs.push_back({m_begins[i].start, m_begins[i].track, false, i});
    for (std::uint32_t i = 0; i < m_ends.size(); ++i) evs.push_back({m_ends[i].ts, m_ends[i].track, true, i});
    std::stable_sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) {
        if (a.track != b.track) return a.track < b.track;
        if (a.ts != b.ts) return a.ts < b.ts;
        return a.isEnd && !b.isEnd;
    });
    std::vector<std::uint32_t> stack;
    std::uint32_t curTrack = kNone;
    auto flushUnmatched = [&] {
        for (auto b : stack) {
            warn(ImportProblem::UnmatchedBegin, "byte " + std::to_string(m_beginInfos[b].srcOffset));
        }
        stack.clear();
    };
    for (const Ev& e : evs) {
        if (e.track != curTrack) {
            flushUnmatched();
            curTrack = e.track;
        }
        if (!e.isEnd) {
            stack.push_back(e.index);
            continue;
        }
        if (stack.empty()) {
            warn(ImportProblem::UnmatchedEnd, "byte " + std::to_string(m_ends[e.index].offset));
            continue;
        }
        std::uint32_t b = stack.back();
        stack.pop_back();
        Slice s = m_begins[b];
        s.dur = std::max<TimeNs>(0, e.ts - s.start);
        s.phase = 'B';
        addSlice(s, m_beginInfos[b]);
    }
    flushUnmatched();
    m_begins.clear();
    m_beginInfos.clear();
    m_ends.clear();
}

void TraceBuilder::sortSlices(std::vector<std::uint32_t>& newIndexOf) {
    auto& slices = m_trace->m_slices;
    auto& infos = m_trace->m_infos;
    const auto n = static_cast<std::uint32_t>(slices.size());
    // Bucket by track (O(n)), then sort only the tracks whose slices came out of order: files
    // are mostly written in time order per thread, and a full comparison sort of 1M slices
    // was ~10% of load time.
    const std::size_t tracks = m_trace->m_tracks.size();
    auto less = [&](std::uint32_t a, std::uint32_t b) {
        const Slice& x = slices[a];
        const Slice& y = slices[b];
        if (x.start != y.start) return x.start < y.start;
        if (x.dur != y.dur) return x.dur > y.dur;  // parents before their children
        return a < b;
    };
    // One pass counts the slices of each track and checks whether every track is in order
    // already (the usual case): then each slice's place follows from the counts alone, with no
    // order array to build, walk and invert.
    std::vector<std::uint32_t> first(tracks + 1, 0);
    bool inOrder = true;
    {
        std::vector<std::uint32_t> lastOf(tracks, kNone);
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t t = slices[i].track;
            first[t + 1]++;
            if (lastOf[t] != kNone && !less(lastOf[t], i)) inOrder = false;
            lastOf[t] = i;
        }
    }
    for (std::size_t t = 0; t < tracks; ++t) first[t + 1] += first[t];
    newIndexOf.assign(n, 0);
    if (inOrder) {
        std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
        for (std::uint32_t i = 0; i < n; ++i) newIndexOf[i] = fill[slices[i].track]++;
    } else {
        std::vector<std::uint32_t> order(n);
        {
            std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
            for (std::uint32_t i = 0; i < n; ++i) order[fill[slices[i].track]++] = i;
        }
        for (std::size_t t = 0; t < tracks; ++t) {
            auto b = order.begin() + first[t];
            auto e = order.begin() + first[t + 1];
            if (std::is_sorted(b, e, less)) continue;
            // Nearly sorted (ties written in another order, a few late events): insertion sort is
            // linear in the number of moves; give up on it past a budget and sort normally.
            std::size_t budget = static_cast<std::size_t>(e - b) * 4 + 1024;
            bool done = true;
            for (auto it = b + 1; it != e && done; ++it) {
                std::uint32_t v = *it;
                auto j = it;
                while (j != b && less(v, *(j - 1))) {
                    *j = *(j - 1);
                    --j;
                    if (--budget == 0) {
                        done = false;
                        break;
                    }
                }
                *j = v;
            }
            if (!done) std::sort(b, e, less);
        }
        for (std::uint32_t i = 0; i < n; ++i) newIndexOf[order[i]] = i;
    }
    // Move the slices and their infos into place: two independent arrays, so a large trace moves
    // them on two threads. Into sorted copies (the writes go to one stream per track), or, from
    // m_permuteInPlaceFrom slices, in place (radix_sort.h: more CPU, a cycle jumps across the
    // arrays, but no second copy of 104 bytes a slice: a third of the load's peak at 10M).
    const bool inPlace = n >= m_permuteInPlaceFrom;
    std::vector<Slice> sorted;
    std::vector<SliceInfo> sortedInfo;
    auto moveSlices = [&] {
        if (inPlace) return permuteInPlace(slices, newIndexOf);
        sorted.resize(n);
        for (std::uint32_t i = 0; i < n; ++i) sorted[newIndexOf[i]] = slices[i];
        slices.swap(sorted);
    };
    auto moveInfos = [&] {
        if (inPlace) return permuteInPlace(infos, newIndexOf);
        sortedInfo.resize(n);
        for (std::uint32_t i = 0; i < n; ++i) sortedInfo[newIndexOf[i]] = infos[i];
        infos.swap(sortedInfo);
    };
    if (n >= kTwoThreadsFrom) {
        runBeside(moveInfos, moveSlices);
    } else {
        moveSlices();
        moveInfos();
    }
}

void TraceBuilder::finishTracks() {
    auto& t = *m_trace;
    for (auto& tr : t.m_tracks) {
        auto pn = m_processNames.find(tr.pid);
        if (pn != m_processNames.end()) tr.processName = pn->second;
        auto ps = m_processSort.find(tr.pid);
        if (ps != m_processSort.end()) tr.processSortIndex = ps->second;
        tr.sliceBegin = tr.sliceEnd = 0;
    }
    // Track ranges, depth, flags.
    const auto n = static_cast<std::uint32_t>(t.m_slices.size());
    std::uint32_t i = 0;
    std::vector<std::uint32_t> open;  // slices still open at the current start, outermost first
    m_parent.assign(n, kNone);
    while (i < n) {
        std::uint32_t tr = t.m_slices[i].track;
        std::uint32_t j = i;
        Track& track = t.m_tracks[tr];
        open.clear();
        for (; j < n && t.m_slices[j].track == tr; ++j) {
            Slice& s = t.m_slices[j];
            // Depth: pop everything that ended at or before this start.
            while (!open.empty() && t.m_slices[open.back()].end() <= s.start) open.pop_back();
            s.depth = static_cast<std::uint8_t>(std::min<std::size_t>(open.size(), 255));
            if (!open.empty()) m_parent[j] = open.back();
            track.maxDepth = std::max(track.maxDepth, s.depth);
            track.maxDur = std::max(track.maxDur, s.dur);
            if (s.dur > 0) open.push_back(j);
        }
        track.sliceBegin = i;
        track.sliceEnd = j;
        i = j;
    }
    // Track kinds: device streams by the readers' word (setDeviceTrack) or their slices.
    for (auto& tr : t.m_tracks) {
        bool device = tr.kind == TrackKind::DeviceStream;
        for (std::uint32_t k = tr.sliceBegin; k < tr.sliceEnd && !device; ++k) device = t.m_slices[k].is(kSliceDevice);
        if (device)
            tr.kind = TrackKind::DeviceStream;
        else if (tr.sliceEnd > tr.sliceBegin)
            tr.kind = TrackKind::HostThread;
        else
            tr.kind = TrackKind::Other;
    }
    // Display order: device streams, then host threads, then others; within a kind by the
    // file's sort indices, then pid/tid (numerically where both are numbers).
    auto numericLess = [](const std::string& a, const std::string& b) {
        char* ea = nullptr;
        char* eb = nullptr;
        long long va = std::strtoll(a.c_str(), &ea, 10);
        long long vb = std::strtoll(b.c_str(), &eb, 10);
        bool na = !a.empty() && *ea == '\0';
        bool nb = !b.empty() && *eb == '\0';
        if (na && nb) return va < vb;
        if (na != nb) return na;
        return a < b;
    };
    t.m_trackOrder.resize(t.m_tracks.size());
    std::iota(t.m_trackOrder.begin(), t.m_trackOrder.end(), 0u);
    std::stable_sort(t.m_trackOrder.begin(), t.m_trackOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Track& x = t.m_tracks[a];
        const Track& y = t.m_tracks[b];
        if (x.kind != y.kind) return x.kind < y.kind;
        if (x.processSortIndex != y.processSortIndex) return x.processSortIndex < y.processSortIndex;
        if (x.pid != y.pid) return numericLess(x.pid, y.pid);
        if (x.threadSortIndex != y.threadSortIndex) return x.threadSortIndex < y.threadSortIndex;
        return numericLess(x.tid, y.tid);
    });
}

// Two device operators at once on one stream: a stream runs its operators one after another, so
// this is a duplicated event or clock trouble, whatever the format. Checked here, after the
// track pass, so every reader gets it. Each operator that starts before an earlier one on its
// stream has ended is counted once: as a duplicate when it repeats the operator before it (same
// start, duration and name), else as an overlap; both of the pair are flagged kSliceOverlap.
// Wait tasks (an Ascend EVENT_WAIT beside the task it waits for) and instants are not operators.
// Copies and DMA requests (kSliceMemory, kSliceDma) may run several at once on one stream (DMA
// engines: Ascend's SDMA tasks, MTIA's dma_request): only their exact duplicates are counted.
void TraceBuilder::markStreamOverlaps() {
    auto& t = *m_trace;
    auto where = [&](const Track& tr, const Slice& s, const Slice& other) {
        std::string w = tr.label();
        w += ": '";
        w += t.m_strings.view(s.name);
        w += "' at " + std::to_string(s.start) + " ns (" + std::to_string(s.dur) + " ns) beside '";
        w += t.m_strings.view(other.name);
        w += "' at " + std::to_string(other.start) + " ns (" + std::to_string(other.dur) + " ns)";
        return w;
    };
    // Counted here and told once per kind (the first place named): a trace whose every kernel is
    // doubled builds no text per pair.
    std::uint64_t duplicates = 0, overlaps = 0;
    std::string firstDuplicate, firstOverlap;
    for (const Track& tr : t.m_tracks) {
        if (tr.kind != TrackKind::DeviceStream) continue;
        std::uint32_t last = kNone;     // the operator before, in start order
        std::uint32_t longest = kNone;  // the operator so far that ends last (copies and DMA aside)
        for (std::uint32_t k = tr.sliceBegin; k < tr.sliceEnd; ++k) {
            Slice& s = t.m_slices[k];
            if (!s.is(kSliceDevice) || s.is(kSliceWait) || s.is(kSliceInstant) || s.dur <= 0) continue;
            Slice* before = last == kNone ? nullptr : &t.m_slices[last];
            last = k;
            if (before && before->start == s.start && before->dur == s.dur && before->name == s.name) {
                if (duplicates++ == 0) firstDuplicate = where(tr, s, *before);
                s.flags |= kSliceOverlap;
                before->flags |= kSliceOverlap;
                continue;
            }
            if (s.is(kSliceMemory) || s.is(kSliceDma)) continue;
            if (longest != kNone && s.start < t.m_slices[longest].end()) {
                if (overlaps++ == 0) firstOverlap = where(tr, s, t.m_slices[longest]);
                s.flags |= kSliceOverlap;
                t.m_slices[longest].flags |= kSliceOverlap;
            }
            if (longest == kNone || s.end() > t.m_slices[longest].end()) longest = k;
        }
    }
    if (duplicates) warn(ImportProblem::DuplicateEvent, firstDuplicate, duplicates);
    if (overlaps) warn(ImportProblem::StreamOverlap, firstOverlap, overlaps);
}

void TraceBuilder::finishCounters() {
    auto& t = *m_trace;
    for (auto& c : t.m_counters) {
        auto pn = m_processNames.find(c.pid);
        if (pn != m_processNames.end()) c.processName = pn->second;
        if (!std::is_sorted(c.times.begin(), c.times.end())) {
            std::vector<std::size_t> idx(c.times.size());
            std::iota(idx.begin(), idx.end(), 0);
            std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return c.times[a] < c.times[b]; });
            std::vector<TimeNs> ts(idx.size());
            std::vector<double> vs(idx.size());
            for (std::size_t k = 0; k < idx.size(); ++k) {
                ts[k] = c.times[idx[k]];
                vs[k] = c.values[idx[k]];
            }
            c.times.swap(ts);
            c.values.swap(vs);
        }
    }
    std::stable_sort(t.m_counters.begin(), t.m_counters.end(), [](const CounterSeries& a, const CounterSeries& b) {
        if (a.processName != b.processName) return a.processName < b.processName;
        if (a.name != b.name) return a.name < b.name;
        if (a.id != b.id) return a.id < b.id;
        return a.key < b.key;
    });
}

std::uint32_t TraceBuilder::sliceAt(std::uint32_t track, TimeNs ts, bool enclosing) const {
    const auto& t = *m_trace;
    if (track >= t.m_tracks.size()) return kNone;
    const Track& tr = t.m_tracks[track];
    auto first = t.m_slices.begin() + tr.sliceBegin;
    auto last = t.m_slices.begin() + tr.sliceEnd;
    // First slice starting after ts.
    auto it = std::upper_bound(first, last, ts, [](TimeNs v, const Slice& s) { return v < s.start; });
    if (enclosing && it != first) {
        // Deepest slice that encloses ts: the last one starting at or before ts, or the nearest
        // of its ancestors that is still open at ts (O(depth), not a walk over the track).
        auto c = static_cast<std::uint32_t>((it - 1) - t.m_slices.begin());
        while (c != kNone && !(t.m_slices[c].start <= ts && ts <= t.m_slices[c].end())) c = m_parent[c];
        if (c != kNone) return c;
        // Kineto writes the 'f' of ac2g at the kernel's start, with rounding: fall through to
        // the next slice when it starts at ts.
    }
    if (it != first && (it - 1)->start == ts) --it;
    if (it == last) return kNone;
    return static_cast<std::uint32_t>(it - t.m_slices.begin());
}

void TraceBuilder::bindFlows(const std::vector<std::uint32_t>&) {
    auto& t = *m_trace;
    std::unordered_map<std::string_view, std::uint32_t> startIndex;
    startIndex.reserve(m_flowStarts.size());
    for (std::uint32_t i = 0; i < m_flowStarts.size(); ++i) startIndex.emplace(m_flowStarts[i].key, i);
    std::vector<bool> used(m_flowStarts.size(), false);
    for (const FlowPoint& e : m_flowEnds) {
        Flow f;
        f.category = e.category;
        f.name = e.name;
        f.toTs = e.ts;
        f.to = sliceAt(e.track, e.ts, e.enclosing);
        auto it = startIndex.find(e.key);
        if (it != startIndex.end()) {
            const FlowPoint& s = m_flowStarts[it->second];
            used[it->second] = true;
            f.fromTs = s.ts;
            f.from = sliceAt(s.track, s.ts, true);
        } else {
            warn(ImportProblem::FlowEndWithoutStart, e.key.substr(e.key.find('\x1f') + 1));
        }
        t.m_flows.push_back(f);
    }
    for (std::uint32_t i = 0; i < m_flowStarts.size(); ++i) {
        if (used[i]) continue;
        const FlowPoint& s = m_flowStarts[i];
        Flow f;
        f.category = s.category;
        f.name = s.name;
        f.fromTs = s.ts;
        f.from = sliceAt(s.track, s.ts, true);
        t.m_flows.push_back(f);
    }
    m_flowStarts.clear();
    m_flowEnds.clear();
}

void TraceBuilder::linkLaunches() {
    auto& t = *m_trace;
    // Flows from a host slice to a device slice say who launched it (ac2g, async_npu, HostToDevice).
    for (const Flow& f : t.m_flows) {
        if (f.from == kNone || f.to == kNone) continue;
        if (t.m_slices[f.to].is(kSliceDevice) && !t.m_slices[f.from].is(kSliceDevice)) {
            auto& info = t.m_infos[f.to];
            // Prefer the runtime launch call over the framework op (both may have flows).
            if (info.launch == kNone || t.m_slices[f.from].is(kSliceLaunch)) info.launch = f.from;
        }
    }
    // Correlation ids link runtime launches to kernels where flows were dropped (sampled traces).
    std::unordered_map<std::int64_t, std::uint32_t> launchByCorrelation;
    for (std::uint32_t i = 0; i < t.m_slices.size(); ++i) {
        if (t.m_slices[i].is(kSliceLaunch) && t.m_infos[i].correlation >= 0)
            launchByCorrelation.emplace(t.m_infos[i].correlation, i);
    }
    if (launchByCorrelation.empty()) return;
    for (std::uint32_t i = 0; i < t.m_slices.size(); ++i) {
        auto& info = t.m_infos[i];
        if (!t.m_slices[i].is(kSliceDevice) || info.launch != kNone || info.correlation < 0) continue;
        auto it = launchByCorrelation.find(info.correlation);
        if (it != launchByCorrelation.end()) info.launch = it->second;
    }
}

void TraceBuilder::computeNameStats() {
    auto& t = *m_trace;
    std::vector<std::uint32_t> at(t.m_strings.size(), kNone);
    for (const Slice& s : t.m_slices) {
        if (at[s.name] == kNone) {
            at[s.name] = static_cast<std::uint32_t>(t.m_nameStats.size());
            t.m_nameStats.push_back({s.name, 0, 0, s.dur, s.dur});
        }
        NameStats& ns = t.m_nameStats[at[s.name]];
        ns.count++;
        ns.total += s.dur;
        ns.min = std::min(ns.min, s.dur);
        ns.max = std::max(ns.max, s.dur);
    }
    std::sort(t.m_nameStats.begin(), t.m_nameStats.end(),
              [](const NameStats& a, const NameStats& b) { return a.total > b.total; });
}

TracePtr TraceBuilder::finalize() {
    auto& t = *m_trace;
    pairBeginEnd();
    // Apply the base time (Kineto baseTimeNanoseconds) once, here, so readers stay simple; mark
    // instants in the same pass.
    const TimeNs base = t.m_baseTimeNs;
    for (auto& s : t.m_slices) {
        s.start += base;
        if (s.phase == 'i') s.flags |= kSliceInstant;
    }
    if (base != 0) {
        for (auto& c : t.m_counters)
            for (auto& ts : c.times) ts += base;
        for (auto& f : m_flowStarts) f.ts += base;
        for (auto& f : m_flowEnds) f.ts += base;
    }
    std::vector<std::uint32_t> newIndexOf;
    sortSlices(newIndexOf);
    // Steps that touch different arrays run side by side on a large trace: the metric layout
    // (infos, metrics) beside the track pass (slices, tracks), then the launch links (infos)
    // beside the name statistics and the time span (reading slices).
    const bool twoThreads = t.m_slices.size() >= kTwoThreadsFrom;
    // Metrics: contiguous ranges per slice, in the new slice order. Readers add them right after
    // their slice (build order), so the common case needs no sort.
    auto metrics = [&] {
        if (m_pendingMetrics.empty()) return;
        auto byBuildIndex = [](const PendingMetric& a, const PendingMetric& b) { return a.slice < b.slice; };
        if (!std::is_sorted(m_pendingMetrics.begin(), m_pendingMetrics.end(), byBuildIndex))
            std::stable_sort(m_pendingMetrics.begin(), m_pendingMetrics.end(), byBuildIndex);
        const std::size_t n = t.m_slices.size();
        std::vector<std::uint32_t> firstOf(n + 1, 0);
        for (const auto& pm : m_pendingMetrics) firstOf[pm.slice + 1]++;
        for (std::size_t k = 0; k < n; ++k) firstOf[k + 1] += firstOf[k];
        t.m_metrics.reserve(m_pendingMetrics.size());
        std::vector<std::uint32_t> oldOf(n);
        for (std::uint32_t oldIdx = 0; oldIdx < n; ++oldIdx) oldOf[newIndexOf[oldIdx]] = oldIdx;
        for (std::uint32_t s = 0; s < n; ++s) {
            const std::uint32_t o = oldOf[s];
            const std::uint32_t cnt = firstOf[o + 1] - firstOf[o];
            if (!cnt) continue;
            t.m_infos[s].metricsBegin = static_cast<std::uint32_t>(t.m_metrics.size());
            t.m_infos[s].metricsCount = cnt;
            for (std::uint32_t k = firstOf[o]; k < firstOf[o + 1]; ++k)
                t.m_metrics.push_back(m_pendingMetrics[k].metric);
        }
        m_pendingMetrics.clear();
        m_pendingMetrics.shrink_to_fit();
    };
    auto tracks = [&] { finishTracks(); };
    if (twoThreads) {
        runBeside(metrics, tracks);
    } else {
        metrics();
        tracks();
    }
    markStreamOverlaps();
    finishCounters();
    bindFlows(newIndexOf);
    m_parent = {};
    auto launches = [&] { linkLaunches(); };
    auto stats = [&] {
        computeNameStats();
        // Time span over slices and counter samples.
        TimeNs b = kTimeMax, e = kTimeMin;
        for (const auto& s : t.m_slices) {
            b = std::min(b, s.start);
            e = std::max(e, s.end());
        }
        for (const auto& c : t.m_counters) {
            if (c.times.empty()) continue;
            b = std::min(b, c.times.front());
            e = std::max(e, c.times.back());
        }
        if (b > e) b = e = 0;
        t.m_begin = b;
        t.m_end = e;
    };
    if (twoThreads) {
        runBeside(launches, stats);
    } else {
        launches();
        stats();
    }
    TracePtr out = m_trace;
    m_trace = std::make_shared<Trace>();
    m_trackIndex.clear();
    m_processNames.clear();
    m_processSort.clear();
    m_lastTrack = kNone;
    m_counterIndex.clear();
    m_counterMemo = {};
    m_warningIndex.clear();
    return out;
}

}  // namespace contend
