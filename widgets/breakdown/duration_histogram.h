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

// Two samples on one set of bins (the pooled samples', as makeHistogram makes them), each with
// its median: a contention pattern's runs beside its partner and its runs apart. Each side's
// counts sum to its sample's size.
struct PairedHistogram {
    DurationHistogram beside, apart;  // same lo, width and bins; max and overflow their own
    TimeNs medianBeside = 0, medianApart = 0;
};
PairedHistogram makePairedHistogram(std::vector<TimeNs> beside, std::vector<TimeNs> apart, std::size_t bins = 40);

// The median (the mean of the two middle values for an even count); 0 for none.
TimeNs medianOf(std::vector<TimeNs> values);

}  // namespace contend::widgets
