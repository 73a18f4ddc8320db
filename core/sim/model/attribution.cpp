#include "core/sim/model/attribution.h"

// Causes come from what the engine measured while each operator ran (the ns it lost to each
// shared capacity, to lost cache hits and to spinning on a lock), never from its name.
#include <algorithm>
#include <map>

namespace contend::sim {

namespace {

Cause causeOf(const OpRecord& r, double threshold) {
    const double solo = static_cast<double>(std::max<TimeNs>(1, r.soloNs));
    const double slower = static_cast<double>(r.dur() - r.soloNs) / solo;
    if (slower > threshold) {
        // The largest loss names the cause; ties go to the earlier kind (fixed order).
        static constexpr Cause kinds[kLossKinds] = {Cause::Bandwidth, Cause::Compute, Cause::Cache, Cause::Lock};
        int best = 0;
        for (int k = 1; k < kLossKinds; ++k)
            if (r.loss[k] > r.loss[best]) best = k;
        if (r.loss[best] > 0) return kinds[best];
    }
    // A barrier does not stretch the kernel; it leaves its stream idle in front of it. Those
    // operators are what a sync cluster is made of.
    if (r.barrierNs > 0) return Cause::Sync;
    return Cause::None;
}

}  // namespace

void attribute(const Iteration& it, const SimConfig& config, IterationResult& result) {
    const std::size_t n = it.ops.size();
    for (std::size_t i = 0; i < n; ++i) result.ops[i].cause = causeOf(result.ops[i], config.causeThreshold);

    for (std::size_t i = 0; i < n; ++i) {
        const OpRecord& r = result.ops[i];
        if (r.lockWaitStart != kNoTime && r.lockWaitNs > 0)
            result.lockWaits.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(r.lockHolder),
                                        it.ops[i].lock, r.lockWaitStart, r.lockWaitNs});
    }

    // Sync clusters: maximal runs of barrier operators that follow each other on a stream.
    std::map<std::int32_t, std::vector<std::uint32_t>> byStream;  // ordered: stable output
    for (std::size_t i = 0; i < n; ++i) byStream[it.ops[i].stream].push_back(static_cast<std::uint32_t>(i));
    for (auto& [stream, ops] : byStream) {
        std::stable_sort(ops.begin(), ops.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return result.ops[a].start < result.ops[b].start; });
        std::size_t k = 0;
        while (k < ops.size()) {
            if (!it.ops[ops[k]].barrier || result.ops[ops[k]].barrierNs <= 0) {
                ++k;
                continue;
            }
            std::size_t e = k;
            while (e < ops.size() && it.ops[ops[e]].barrier && result.ops[ops[e]].barrierNs > 0) ++e;
            if (static_cast<int>(e - k) >= config.minClusterOps) {
                SyncCluster c;
                c.stream = stream;
                const OpRecord& first = result.ops[ops[k]];
                c.start = first.start - first.barrierNs;
                c.end = result.ops[ops[e - 1]].end;
                c.firstOp = ops[k];
                c.ops = static_cast<std::uint32_t>(e - k);
                for (std::size_t j = k; j < e; ++j) {
                    c.busyNs += result.ops[ops[j]].dur();
                    c.barrierNs += result.ops[ops[j]].barrierNs;
                }
                result.clusters.push_back(c);
            }
            k = e;
        }
    }
    std::stable_sort(result.clusters.begin(), result.clusters.end(),
                     [](const SyncCluster& a, const SyncCluster& b) { return a.start < b.start; });
}

}  // namespace contend::sim
