#include "core/analysis/breakdowns/figures.h"

#include <map>
#include <tuple>
#include <utility>

namespace contend {

std::vector<BreakdownFigure> breakdownFigures(const TraceBreakdowns& b) {
    std::vector<BreakdownFigure> out;
    auto add = [&out](const char* section, int rank, std::string subject, const char* figure, double value) {
        out.push_back({section, rank, std::move(subject), figure, value});
    };
    auto d = [](auto v) { return static_cast<double>(v); };
    for (const RankTemporal& t : b.temporal.rows) {
        add("temporal", t.rank, "", "idle_ns", d(t.idleNs));
        add("temporal", t.rank, "", "compute_ns", d(t.computeNs));
        add("temporal", t.rank, "", "non_compute_ns", d(t.nonComputeNs));
        add("temporal", t.rank, "", "kernel_ns", d(t.kernelNs));
    }
    for (const StreamIdle& s : b.idle.rows) {
        const std::string st = std::to_string(s.stream);
        add("idle", s.rank, st, "host_wait_ns", d(s.hostWaitNs));
        add("idle", s.rank, st, "kernel_wait_ns", d(s.kernelWaitNs));
        add("idle", s.rank, st, "other_ns", d(s.otherNs));
    }
    for (const RankOverlap& v : b.commCompOverlap.rows) add("comm_comp_overlap", v.rank, "", "fraction", v.fraction);
    for (const StreamQueue& q : b.queueLength.rows) {
        const std::string st = std::to_string(q.stream);
        add("queue_length", q.rank, st, "mean", q.mean);
        add("queue_length", q.rank, st, "p50", q.p50);
        add("queue_length", q.rank, st, "max", d(q.max));
        add("queue_length", q.rank, st, "blocked_on_full_queue_ns", d(q.blockedOnFullQueueNs));
    }
    for (const CopyBandwidth& c : b.memoryBandwidth.rows) {
        add("memory_bandwidth", c.rank, c.kind, "count", d(c.count));
        add("memory_bandwidth", c.rank, c.kind, "mean_gbps", c.meanGbps);
        add("memory_bandwidth", c.rank, c.kind, "p50_gbps", c.p50Gbps);
        add("memory_bandwidth", c.rank, c.kind, "max_gbps", c.maxGbps);
        add("memory_bandwidth", c.rank, c.kind, "copy_p50_gbps", c.copyP50Gbps);
    }
    for (const KernelLaunch& k : b.launch.rows) {
        add("launch", -1, k.name, "runs", d(k.runs));
        add("launch", -1, k.name, "cpu_p50_ns", k.cpuP50Ns);
        add("launch", -1, k.name, "gpu_p50_ns", k.gpuP50Ns);
        add("launch", -1, k.name, "delay_p50_ns", k.delayP50Ns);
        add("launch", -1, k.name, "delay_p95_ns", k.delayP95Ns);
        add("launch", -1, k.name, "shorter_than_launch", d(k.shorterThanLaunch));
    }
    for (const AnnotationTime& a : b.annotations.rows) {
        add("annotations", -1, a.name, "kernels", d(a.kernels));
        add("annotations", -1, a.name, "kernel_ns", d(a.kernelNs));
    }
    return out;
}

std::vector<BreakdownChange> compareBreakdowns(const TraceBreakdowns& base, const TraceBreakdowns& now) {
    // A report is one trace, one rank: the figures match whatever the two ranks (trace_diff
    // compares rank 3 of one job with rank 1 of another).
    using Key = std::tuple<std::string, std::string, std::string>;
    auto keyOf = [](const BreakdownFigure& f) { return Key{f.section, f.subject, f.figure}; };
    auto kept = [](const BreakdownFigure& f) { return f.section != "launch" && f.section != "annotations"; };
    std::vector<BreakdownChange> out;
    std::map<Key, std::size_t> at;
    for (const BreakdownFigure& f : breakdownFigures(base)) {
        if (!kept(f)) continue;
        at.emplace(keyOf(f), out.size());
        out.push_back({f, 0, true, false});
    }
    for (const BreakdownFigure& f : breakdownFigures(now)) {
        if (!kept(f)) continue;
        const auto it = at.find(keyOf(f));
        if (it != at.end()) {
            out[it->second].now = f.value;
            out[it->second].inNow = true;
        } else {
            BreakdownFigure names = f;
            names.value = 0;
            out.push_back({names, f.value, false, true});
        }
    }
    return out;
}

}  // namespace contend
