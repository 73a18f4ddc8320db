#include "core/analysis/findings/sync_clusters.h"

#include <algorithm>

#include "core/analysis/scoring/baseline.h"

namespace contend {

namespace {

struct RunOp {
    std::uint32_t slice;
    TimeNs start;
    TimeNs end;
};

// Scratch reused across runs and pieces (a vector made per piece was a malloc for each of the
// 293k pieces of 1M Kineto kernels).
struct Scratch {
    std::vector<TimeNs> gaps;
    std::vector<char> packed;
};

// Judges one piece of a run [b, e) and appends it to `out` when it is a cluster.
void judge(const std::vector<RunOp>& run, std::size_t b, std::size_t e, std::uint32_t track,
           const SyncClusterSettings& settings, std::vector<Cluster>& out, Scratch& scratch) {
    if (e - b < settings.minOps) return;
    TimeNs busy = 0, wait = 0, reach = run[b].start;
    std::vector<TimeNs>& gaps = scratch.gaps;
    gaps.clear();
    for (std::size_t k = b; k < e; ++k) {
        if (k > b) {
            const TimeNs g = std::max<TimeNs>(0, run[k].start - reach);
            wait += g;
            gaps.push_back(g);
        }
        busy += run[k].end - run[k].start;
        reach = std::max(reach, run[k].end);
    }
    if (wait <= busy) return;
    Cluster c;
    c.track = track;
    c.firstSlice = run[b].slice;
    c.lastSlice = run[e - 1].slice;
    c.start = run[b].start;
    c.end = reach;
    c.ops = static_cast<std::uint32_t>(e - b);
    c.busyNs = busy;
    c.waitNs = wait;
    c.savingNs = std::max<TimeNs>(0, wait - medianOf(gaps));
    out.push_back(c);
}

// Splits a run at tightly packed stretches (at least minOps operators, each starting within
// its own duration of the previous one's end) so a packed burst next to a sparse one is judged
// on its own instead of diluting (or inflating) its neighbour.
void splitAndJudge(const std::vector<RunOp>& run, std::uint32_t track, const SyncClusterSettings& settings,
                   std::vector<Cluster>& out, Scratch& scratch) {
    const std::size_t m = run.size();
    if (m < settings.minOps) return;
    // packed[k] for k >= 1: the gap before op k is shorter than op k (or one timer tick).
    std::vector<char>& packed = scratch.packed;
    packed.assign(m, 0);
    for (std::size_t k = 1; k < m; ++k) {
        const TimeNs gap = run[k].start - run[k - 1].end;
        packed[k] = gap < run[k].end - run[k].start || gap <= settings.resolutionNs;
    }
    std::size_t pieceBegin = 0;
    for (std::size_t k = 1; k < m;) {
        if (!packed[k]) {
            ++k;
            continue;
        }
        std::size_t j = k;
        while (j < m && packed[j]) ++j;
        // Ops k-1 .. j-1 are packed together.
        if (j - (k - 1) >= settings.minOps) {
            judge(run, pieceBegin, k - 1, track, settings, out, scratch);
            judge(run, k - 1, j, track, settings, out, scratch);
            pieceBegin = j;
        }
        k = j;
    }
    judge(run, pieceBegin, m, track, settings, out, scratch);
}

}  // namespace

std::vector<Cluster> findClusters(const Trace& trace, const OperatorSet& ops, const SyncClusterSettings& settings) {
    std::vector<Cluster> out;
    const auto& slices = trace.slices();
    std::vector<RunOp> run;
    // A run lies on one track: room for the longest track once (pages are touched only as a run
    // fills it), where a run of millions of tiny ops grew by doubling copies.
    std::size_t longestTrack = 0;
    for (const Track& tr : trace.tracks())
        longestTrack = std::max<std::size_t>(longestTrack, tr.sliceEnd - tr.sliceBegin);
    run.reserve(std::min<std::size_t>(longestTrack, ops.size()));
    Scratch scratch;
    std::uint32_t track = kNone;
    auto endRun = [&] {
        splitAndJudge(run, track, settings, out, scratch);
        run.clear();
    };
    // Ops are in trace order: per track, by start. Host-scope ops may nest; only outermost
    // slices (depth 0) form runs there.
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        const std::uint32_t sl = ops.slices[op];
        const Slice& s = slices[sl];
        if (!ops.deviceScope && s.depth != 0) continue;
        if (s.track != track) {
            endRun();
            track = s.track;
        }
        if (s.dur > settings.maxOpNs) {
            endRun();
            continue;
        }
        if (!run.empty() && s.start - run.back().end > settings.maxGapNs) endRun();
        run.push_back({sl, s.start, s.end()});
    }
    endRun();
    std::sort(out.begin(), out.end(), [](const Cluster& a, const Cluster& b) {
        return a.start != b.start ? a.start < b.start : a.track < b.track;
    });
    for (std::uint32_t i = 0; i < out.size(); ++i) out[i].id = i;
    return out;
}

void judgeClusterEvidence(const Trace& trace, const OperatorSet& ops, std::vector<Cluster>& clusters) {
    if (clusters.empty()) return;
    const auto& slices = trace.slices();
    // Every sync call and wait task, by start, with the running maximum of their ends.
    std::vector<std::pair<TimeNs, TimeNs>> sync;
    for (std::uint32_t i = 0; i < slices.size(); ++i) {
        const Slice& s = slices[i];
        if (s.dur <= 0) continue;
        if (isSyncCall(trace.str(s.name)) || isWaitTask(trace, i)) sync.push_back({s.start, s.end()});
    }
    std::sort(sync.begin(), sync.end());
    std::vector<TimeNs> maxEnd(sync.size());
    for (std::size_t k = 0; k < sync.size(); ++k) maxEnd[k] = std::max(k ? maxEnd[k - 1] : kTimeMin, sync[k].second);
    auto covered = [&](TimeNs a, TimeNs b) {
        // Some sync interval starts before b and ends after a.
        const auto it = std::lower_bound(sync.begin(), sync.end(), std::make_pair(b, kTimeMin));
        if (it == sync.begin()) return false;
        return maxEnd[static_cast<std::size_t>(it - sync.begin()) - 1] > a;
    };
    for (Cluster& c : clusters) {
        std::uint32_t gaps = 0, seen = 0;
        TimeNs reach = kTimeMin;
        for (std::uint32_t sl = c.firstSlice; sl <= c.lastSlice && sl < slices.size(); ++sl) {
            if (ops.opOfSlice[sl] == kNone) continue;
            const Slice& s = slices[sl];
            if (reach != kTimeMin && s.start > reach) {
                ++gaps;
                seen += covered(reach, s.start);
            }
            reach = std::max(reach, s.end());
        }
        c.syncGaps = seen;
        c.provenance = gaps > 0 && 2 * seen >= gaps ? Provenance::Measured : Provenance::Unknown;
        c.evidence = c.provenance == Provenance::Measured
                         ? "measured: " + std::to_string(seen) + " of its " + std::to_string(gaps) +
                               " gaps hold a sync call or wait task: the device waited at barriers"
                         : "unknown: the device waited between tiny operators, but " +
                               (sync.empty() ? std::string("the trace has no host sync calls or wait tasks")
                                             : std::to_string(seen) + " of its " + std::to_string(gaps) +
                                                   " gaps hold a sync call") +
                               " to say why (launch overhead, host work, or an unrecorded barrier)";
    }
}

}  // namespace contend
