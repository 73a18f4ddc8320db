#pragma once
// Order statistics as HTA reports them (pandas describe(): quantiles interpolated linearly
// between the two nearest ranks), and the merged busy intervals of a set of operations.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/trace/trace.h"

namespace contend::breakdowns {

// How events at the same time are ordered where HTA's own order is its sort's (not stable, so
// not defined): decreases first (an operation that ends or starts at t before one launched or
// started at t, Contend's order: intervals are half-open) or increases first. The two bound
// every order HTA's sort may pick: tests check HTA's figures between them.
enum class Ties : std::uint8_t { DecreaseFirst, IncreaseFirst };

// The q-quantile (0..1) of `sorted` (ascending), linear between ranks; 0 for an empty vector.
double quantile(const std::vector<double>& sorted, double q);

// Mean of `v`; 0 for an empty vector.
double mean(const std::vector<double>& v);

// [start, end) intervals, disjoint and in order.
using Intervals = std::vector<std::pair<TimeNs, TimeNs>>;

// The operations' time merged into disjoint intervals (HTA merge_kernel_intervals: touching
// intervals join). `ops` are slice indices in start order.
Intervals mergedIntervals(const Trace& trace, const std::vector<std::uint32_t>& ops);

// Total length of `a`, and of the time in both `a` and `b`.
TimeNs totalLength(const Intervals& a);
TimeNs intersectionLength(const Intervals& a, const Intervals& b);

}  // namespace contend::breakdowns
