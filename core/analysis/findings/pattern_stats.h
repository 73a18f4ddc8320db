#pragma once
// The two-sample statistics behind a contention pattern (patterns.h): the Hodges-Lehmann ratio
// with its Mann-Whitney interval and p-value, and the false-discovery-rate adjustment.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/trace/trace.h"

namespace contend {

inline constexpr std::uint32_t kMaxPatternSample = 2000;  // each side thinned evenly to at most this

// The two-sample estimate behind a pattern: the Hodges-Lehmann ratio of `beside` over `apart`
// with its 95% interval, and the one-sided Mann-Whitney p-value (unadjusted).
struct RatioEstimate {
    double ratio = 1, low = 1, high = 1;
    double p = 1;
};
// `cap` thins each side to at most that many runs for the estimate; `test` false leaves p at 1
// (no Mann-Whitney over the whole samples: an estimate that only re-sizes a tested one).
RatioEstimate hodgesLehmannRatio(const std::vector<TimeNs>& beside, const std::vector<TimeNs>& apart,
                                 std::size_t cap = kMaxPatternSample, bool test = true);

// Benjamini and Hochberg's step-up adjustment of `p` (same order out): the false discovery rate
// at which each test would be a discovery.
std::vector<double> fdrAdjust(const std::vector<double>& p);

}  // namespace contend
