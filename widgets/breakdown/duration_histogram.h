#pragma once
// Histogram of an operator's durations (pure, no Qt): linear bins from the shortest to the
// longest or, from 100 samples on, to the 99th percentile, with everything longer counted in
// the last bin so one outlier does not squeeze the rest into a single bar.
#include <cstdint>
#include <vector>

#include "core/trace/types.h"

namespace contend::widgets {

struct DurationHistogram {
    TimeNs lo = 0;     // left edge of bin 0
    TimeNs width = 1;  // bin width, ns
    std::vector<std::uint32_t> counts;
    std::uint32_t overflow = 0;  // of the last bin's count, how many lie beyond its right edge
    TimeNs max = 0;

    TimeNs binStart(std::size_t b) const { return lo + static_cast<TimeNs>(b) * width; }
    std::size_t binOf(TimeNs d) const;  // clamped into [0, bins)
};

DurationHistogram makeHistogram(std::vector<TimeNs> durations, std::size_t bins = 40);

}  // namespace contend::widgets
