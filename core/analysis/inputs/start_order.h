#pragma once
// The operators in one global start order, ties by op index: the order the overlap sweep visits
// them and the order its pairs come in (overlap.h), for every stage that walks the pairs as the
// sweep made them.
#include <cstdint>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/trace/trace.h"

namespace contend {

// Ops come by track, then start (signatures.h): a few runs already in that order, merged with a
// heap of their heads. Where the ops do not fall into few ordered runs, a plain sort.
std::vector<std::uint32_t> startOrder(const Trace& trace, const OperatorSet& ops);

}  // namespace contend
