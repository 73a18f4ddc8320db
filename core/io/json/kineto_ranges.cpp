#include "core/io/json/kineto_ranges.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace contend {

std::size_t attachProfilerRanges(TraceBuilder& b) {
    std::vector<Slice>& slices = b.pendingSlices();
    const StringId rangeCat = b.intern(kProfilerRangeCategory);
    const StringId kernelCat = b.intern("kernel");
    std::vector<std::uint32_t> ranges, kernels;
    for (std::uint32_t i = 0; i < slices.size(); ++i)
        if (slices[i].category == rangeCat && slices[i].phase == 'X') ranges.push_back(i);
    // Most traces have no ranges: their kernels are not listed (a list grown to 10M kernels
    // faulted in 128 MB for nothing).
    if (ranges.empty()) return 0;
    for (std::uint32_t i = 0; i < slices.size(); ++i)
        if (slices[i].category == kernelCat && slices[i].is(kSliceDevice)) kernels.push_back(i);
    auto byStart = [&](std::uint32_t x, std::uint32_t y) {
        return slices[x].start != slices[y].start ? slices[x].start < slices[y].start : x < y;
    };
    if (kernels.empty()) {
        for (std::uint32_t r : ranges) slices[r].flags |= kSliceDevice;
        return ranges.size();
    }
    std::stable_sort(ranges.begin(), ranges.end(), byStart);
    std::stable_sort(kernels.begin(), kernels.end(), byStart);
    // Per name, the kernels in time order and how many ranges took one already.
    struct Queue {
        std::vector<std::uint32_t> kernels;
        std::size_t next = 0;
    };
    std::unordered_map<StringId, Queue> byName;
    for (std::uint32_t k : kernels) byName[slices[k].name].kernels.push_back(k);
    std::unordered_map<std::uint32_t, std::uint32_t> kernelOf;  // range -> kernel
    std::size_t unmatched = 0;
    for (std::uint32_t r : ranges) {
        auto it = byName.find(slices[r].name);
        if (it == byName.end() || it->second.next >= it->second.kernels.size()) {
            ++unmatched;
            continue;
        }
        kernelOf.emplace(r, it->second.kernels[it->second.next++]);
    }
    // Copy the ranges' metrics (collected before adding: addMetric appends to the same list).
    std::vector<std::pair<std::uint32_t, Metric>> copies;
    for (std::size_t i = 0; i < b.pendingMetricCount(); ++i) {
        const auto [slice, metric] = b.pendingMetric(i);
        if (auto it = kernelOf.find(slice); it != kernelOf.end()) copies.push_back({it->second, metric});
    }
    for (const auto& [kernel, metric] : copies) b.addMetric(kernel, metric.key, metric.value);
    if (unmatched > 0)
        b.warn(ImportProblem::ProfilerRangeWithoutKernel, std::to_string(unmatched) + " cuda_profiler_range events",
               unmatched);
    return kernelOf.size();
}

}  // namespace contend
