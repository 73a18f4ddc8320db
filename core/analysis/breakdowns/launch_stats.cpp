#include "core/analysis/breakdowns/launch_stats.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/breakdowns/stats.h"

namespace contend::breakdowns {

BreakdownSection<KernelLaunch> launchStats(const Trace& trace, const Scope& scope, const TimeRange& range) {
    BreakdownSection<KernelLaunch> out;
    const std::vector<Slice>& slices = trace.slices();
    struct Runs {
        std::vector<double> cpu, gpu, delay;
        std::uint64_t shorter = 0;
        TimeNs total = 0;
    };
    std::unordered_map<StringId, Runs> byName;
    bool linked = false;
    for (std::uint32_t i : scope.ops) {
        const std::uint32_t launch = scope.enqueueCallOf(i);
        if (launch == kNone) continue;
        linked = true;
        if (!range.runs(slices[i].start, slices[i].end())) continue;
        const Slice& l = slices[launch];
        const Slice& s = slices[i];
        Runs& r = byName[s.name];
        r.cpu.push_back(static_cast<double>(l.dur));
        r.gpu.push_back(static_cast<double>(s.dur));
        r.delay.push_back(static_cast<double>(std::max<TimeNs>(0, s.start - l.end())));
        r.shorter += s.dur < l.dur ? 1 : 0;
        r.total += s.dur;
    }
    for (auto& [name, r] : byName) {
        KernelLaunch k;
        k.name = std::string(trace.str(name));
        k.runs = r.gpu.size();
        for (std::vector<double>* v : {&r.cpu, &r.gpu, &r.delay}) std::sort(v->begin(), v->end());
        k.cpuP50Ns = quantile(r.cpu, 0.5);
        k.cpuP95Ns = quantile(r.cpu, 0.95);
        k.gpuP50Ns = quantile(r.gpu, 0.5);
        k.gpuP95Ns = quantile(r.gpu, 0.95);
        k.delayP50Ns = quantile(r.delay, 0.5);
        k.delayP95Ns = quantile(r.delay, 0.95);
        k.shorterThanLaunch = r.shorter;
        k.gpuTotalNs = r.total;
        out.rows.push_back(std::move(k));
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const KernelLaunch& a, const KernelLaunch& b) {
        return a.gpuTotalNs != b.gpuTotalNs ? a.gpuTotalNs > b.gpuTotalNs : a.name < b.name;
    });
    if (out.rows.empty())
        out.notComputed = linked ? "no operation linked to the host call that launched it runs in the range"
                                 : "no device operation is linked to the host call that launched it (cudaLaunchKernel, "
                                   "...)";
    return out;
}

}  // namespace contend::breakdowns
