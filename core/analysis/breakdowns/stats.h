#pragma once
// Order statistics as HTA reports them (pandas describe(): quantiles interpolated linearly
// between the two nearest ranks), and the merged busy intervals of a set of operations.
#include <cstdint>
#include <string>
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

// The time range the breakdowns are taken over (breakdowns.h): [begin, end], ns on the trace's
// clock; the default holds every time (the whole trace). What "in the range" means per kind of
// figure is in breakdowns.h.
struct TimeRange {
    TimeNs begin = kTimeMin;
    TimeNs end = kTimeMax;
    bool whole() const { return begin == kTimeMin && end == kTimeMax; }
    // An instant (a sample, a launch) in the range; both ends included.
    bool holds(TimeNs t) const { return begin <= t && t <= end; }
    // An operation [start, stop) runs in the range: some of its time lies inside, or, lasting
    // 0 ns, its instant does.
    bool runs(TimeNs start, TimeNs stop) const { return stop > start ? start < end && stop > begin : holds(start); }
    // The length of [a, b) inside the range; 0 when none (and for b <= a).
    TimeNs inside(TimeNs a, TimeNs b) const {
        const TimeNs lo = a > begin ? a : begin, hi = b < end ? b : end;
        return hi > lo ? hi - lo : 0;
    }
};

// A section's reason for not being computed over the whole trace, said of a range when `range`
// is one ("... in the range").
std::string inRange(std::string why, const TimeRange& range);

// `a` cut to the range: the intervals that run in it (TimeRange::runs), their ends clipped to it.
Intervals clipped(const Intervals& a, const TimeRange& range);

// The operations' time merged into disjoint intervals (HTA merge_kernel_intervals: touching
// intervals join). `ops` are slice indices in start order.
Intervals mergedIntervals(const Trace& trace, const std::vector<std::uint32_t>& ops);

// Total length of `a`, and of the time in both `a` and `b`.
TimeNs totalLength(const Intervals& a);
TimeNs intersectionLength(const Intervals& a, const Intervals& b);

}  // namespace contend::breakdowns
