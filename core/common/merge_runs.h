#pragma once
// Runs already in ascending order, merged into one ascending order through a heap of their heads:
// each run is read front to back, where a sort of millions of items by a key read through an
// index took a cache miss per comparison. The operators in start order (analysis/inputs/
// start_order.h) and HTA's device operations in start order (analysis/breakdowns/scope.cpp) are
// their tracks' runs merged this way.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace contend {

// The items of runs [runBegin[r], runBegin[r + 1]) of positions 0..runBegin.back(), each run's
// items in ascending keyOf order, appended to `out` in ascending keyOf order. itemAt(position)
// gives the item there; keyOf(item) its key, which must tell any two items apart (a tie between
// runs would otherwise be merged in no defined order: a (time, index) pair does).
template <class ItemAt, class KeyOf>
void mergeRuns(const std::vector<std::size_t>& runBegin, ItemAt&& itemAt, KeyOf&& keyOf,
               std::vector<std::uint32_t>& out) {
    using Key = decltype(keyOf(itemAt(std::size_t{0})));
    struct Head {
        Key key;
        std::size_t at;  // the run's position now
        std::size_t run;
    };
    auto later = [](const Head& x, const Head& y) { return y.key < x.key; };
    std::vector<Head> heads;
    for (std::size_t r = 0; r + 1 < runBegin.size(); ++r)
        if (runBegin[r] < runBegin[r + 1]) heads.push_back({keyOf(itemAt(runBegin[r])), runBegin[r], r});
    std::make_heap(heads.begin(), heads.end(), later);
    out.reserve(out.size() + (runBegin.empty() ? 0 : runBegin.back()));
    while (!heads.empty()) {
        std::pop_heap(heads.begin(), heads.end(), later);
        Head& top = heads.back();
        out.push_back(itemAt(top.at));
        if (++top.at < runBegin[top.run + 1]) {
            top.key = keyOf(itemAt(top.at));
            std::push_heap(heads.begin(), heads.end(), later);
        } else {
            heads.pop_back();
        }
    }
}

}  // namespace contend
