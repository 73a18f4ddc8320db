#include "core/report/single/advice.h"

#include <algorithm>

#include "core/trace/time_format.h"

namespace contend {

const char* adviceFor(Resource r) {
    switch (r) {
    case Resource::Bandwidth:
        return "memory bandwidth: fuse the operators or reuse data on chip to move fewer bytes, or stagger them "
               "so their memory-heavy phases do not coincide";
    case Resource::Compute:
        return "compute: the operators compete for the same units; change tiling or stream priority, or run "
               "them back to back instead of side by side";
    case Resource::Queue:
        return "queueing for compute units others hold: raise this stream's priority or shrink the operator "
               "that monopolises the units (tiling, fewer blocks)";
    case Resource::Cache:
        return "cache: the working sets no longer fit together; reorder the operators so cache-hungry ones do "
               "not overlap, or shrink tiles to fit";
    case Resource::Issue:
        return "issue slots: too many warps competing to issue; reduce concurrency or use wider instructions";
    case Resource::Sync:
        return "sync: the device waits on barriers or peers; remove needless synchronisation or fuse the "
               "operators between barriers";
    case Resource::Lock:
        return "lock: the operator spins on something another operator holds; shorten the critical section or "
               "order the operators so they do not contend";
    case Resource::Unknown:
        return "no overlap and no resource pressure explain it: look inside the operator itself (inputs, "
               "data-dependent work, clocks)";
    case Resource::None: break;
    }
    return "";
}

const char* clusterAdvice() {
    return "sync cluster: fuse the tiny operators into one kernel (or capture them in a graph) and drop the "
           "barriers between them";
}

std::string gainAboveWait(const Report& r, const ResourceGain& g) {
    if (g.gainNs <= g.extraWaitNs || g.extraWaitNs < 0) return {};
    const TimeNs more = g.gainNs - g.extraWaitNs;
    std::string s = formatDuration(more) + " more than its extra wait: ";
    if (g.resource != Resource::Sync)
        return s +
               "work that waited on the shortened operators starts sooner too (knock-on along the dependency "
               "graph)";
    // The launch gap each cluster's saving keeps: its gaps less its saving.
    TimeNs kept = 0;
    for (const Cluster& c : r.clusters) kept += std::max<TimeNs>(0, c.waitNs - c.savingNs);
    if (kept <= 0)
        return s +
               "the fused clusters drop the launch and sync edges that held their operators, so the work "
               "after them starts sooner (knock-on along the dependency graph)";
    s += "fusing a cluster removes all of its gaps, while its extra wait leaves out the one launch gap the fused "
         "operator still pays (" +
         formatDuration(kept) + " over " + std::to_string(r.clusters.size()) +
         (r.clusters.size() == 1 ? " cluster)" : " clusters)");
    if (more > kept)
        s += ", and the launch and sync edges that held its operators go, so the work after them starts sooner "
             "(knock-on along the dependency graph)";
    return s;
}

}  // namespace contend
