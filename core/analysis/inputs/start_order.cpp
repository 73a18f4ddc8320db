#include "core/analysis/inputs/start_order.h"

#include <algorithm>
#include <utility>

namespace contend {

// Merging reads each run front to back instead of sorting 32-byte slices by index (a cache miss
// per comparison).
std::vector<std::uint32_t> startOrder(const Trace& trace, const OperatorSet& ops) {
    const auto n = static_cast<std::uint32_t>(ops.size());
    const auto& slices = trace.slices();
    std::vector<std::uint32_t> order(n);
    std::vector<std::uint32_t> runStarts;  // where each run of non-decreasing starts begins
    for (std::uint32_t op = 0; op < n; ++op)
        if (op == 0 || slices[ops.slices[op]].start < slices[ops.slices[op - 1]].start) runStarts.push_back(op);
    if (runStarts.size() > std::max<std::size_t>(64, n / 16)) {
        std::vector<std::pair<TimeNs, std::uint32_t>> keyed(n);
        for (std::uint32_t op = 0; op < n; ++op) keyed[op] = {slices[ops.slices[op]].start, op};
        std::sort(keyed.begin(), keyed.end());
        for (std::uint32_t k = 0; k < n; ++k) order[k] = keyed[k].second;
        return order;
    }
    runStarts.push_back(n);
    // Each run's head as ((start, op), run), smallest on top; each run is in (start, op) order,
    // so popping the smallest head gives exactly the sorted order.
    using Head = std::pair<std::pair<TimeNs, std::uint32_t>, std::uint32_t>;
    std::vector<Head> h;
    h.reserve(runStarts.size() - 1);
    for (std::uint32_t r = 0; r + 1 < runStarts.size(); ++r)
        h.push_back({{slices[ops.slices[runStarts[r]]].start, runStarts[r]}, r});
    auto later = [](const Head& x, const Head& y) { return x.first > y.first; };
    std::make_heap(h.begin(), h.end(), later);
    std::uint32_t k = 0;
    while (!h.empty()) {
        std::pop_heap(h.begin(), h.end(), later);
        auto& top = h.back();
        const std::uint32_t op = top.first.second;
        order[k++] = op;
        if (op + 1 < runStarts[top.second + 1]) {
            top.first = {slices[ops.slices[op + 1]].start, op + 1};
            std::push_heap(h.begin(), h.end(), later);
        } else {
            h.pop_back();
        }
    }
    return order;
}

}  // namespace contend
