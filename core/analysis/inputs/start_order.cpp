#include "core/analysis/inputs/start_order.h"

#include <algorithm>
#include <utility>

#include "core/common/merge_runs.h"

namespace contend {

std::vector<std::uint32_t> startOrder(const Trace& trace, const OperatorSet& ops) {
    const auto n = static_cast<std::uint32_t>(ops.size());
    const auto& slices = trace.slices();
    std::vector<std::uint32_t> order;
    std::vector<std::size_t> runStarts;  // where each run of non-decreasing starts begins
    for (std::uint32_t op = 0; op < n; ++op)
        if (op == 0 || slices[ops.slices[op]].start < slices[ops.slices[op - 1]].start) runStarts.push_back(op);
    if (runStarts.size() > std::max<std::size_t>(64, n / 16)) {
        std::vector<std::pair<TimeNs, std::uint32_t>> keyed(n);
        for (std::uint32_t op = 0; op < n; ++op) keyed[op] = {slices[ops.slices[op]].start, op};
        std::sort(keyed.begin(), keyed.end());
        order.resize(n);
        for (std::uint32_t k = 0; k < n; ++k) order[k] = keyed[k].second;
        return order;
    }
    runStarts.push_back(n);
    mergeRuns(
        runStarts, [](std::size_t k) { return static_cast<std::uint32_t>(k); },
        [&](std::uint32_t op) {
            return std::pair<TimeNs, std::uint32_t>{slices[ops.slices[op]].start, op};
        },
        order);
    return order;
}

}  // namespace contend
