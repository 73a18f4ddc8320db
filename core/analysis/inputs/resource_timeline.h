#pragma once
// One resource's utilisation over time as a single step function (0..1), built from the counter
// series mapped to it, with prefix sums so that the mean, the time spent above the "high"
// threshold and the peak over any interval cost O(log n) (two binary searches and a segment
// tree query) instead of a walk over the samples.
#include <cmath>
#include <limits>
#include <vector>

#include "core/analysis/model/resources.h"
#include "core/trace/trace.h"

namespace contend {

class ResourceTimeline {
  public:
    ResourceTimeline() = default;
    // Samples must be sorted by time; each value holds until the next sample, the last one until
    // `end`. `high` is the utilisation at or above which the resource counts as busy.
    // `spacing`: the median time between the raw samples (repeated values may have been
    // dropped from `times`); -1 to take it from `times`.
    ResourceTimeline(std::vector<TimeNs> times, std::vector<float> values, TimeNs end, double high,
                     TimeNs spacing = -1);

    bool empty() const { return m_times.empty(); }
    double high() const { return m_threshold; }
    std::size_t samples() const { return m_times.size(); }

    // Mean over the part of [a, b) the samples cover; NaN when they cover none of it.
    double mean(TimeNs a, TimeNs b) const;
    // mean(a, b) and highTime(a, b) with one search per end (the per-operator hot path).
    struct Stats {
        double mean;
        TimeNs high;
    };
    Stats stats(TimeNs a, TimeNs b) const;
    // The same, searching forward from `hint` (a sample index from the previous call) when a
    // is not before it: callers walking operators in time order pay O(1) per query.
    Stats stats(TimeNs a, TimeNs b, std::size_t& hint) const;
    // Time in [a, b) with a value at or above high(), ns.
    TimeNs highTime(TimeNs a, TimeNs b) const;
    // Largest value in effect during [a, b); NaN when not covered.
    double peak(TimeNs a, TimeNs b) const;
    // Value in effect at t; NaN before the first sample.
    double at(TimeNs t) const;
    // What the samples can prove about [a, b) when each value is the resource's mean over its
    // own span (to the next sample), as a sampling profiler writes them (Nsight's GPU metrics
    // at 10 kHz: a 100 us mean straddles a 110 us kernel). A sample of mean m whose span the
    // interval covers for a fraction f bounds the covered part's own mean: at least
    // (m - (1 - f) * capacity) / f and at most m / f (the rest of its span held between 0 and
    // capacity()), clamped to [0, capacity()]. A value that is exact where it holds (a sample
    // at every change) only makes the bound looser than the truth, never wrong.
    struct Bounded {
        TimeNs high = 0;       // time of [a, b) under samples whose lower bound is at or above high()
        int highSamples = 0;   // how many samples those were
        int samples = 0;       // samples overlapping [a, b)
        bool partial = false;  // some of them reach outside [a, b): the bound is not the plain value
        double lo = std::numeric_limits<double>::quiet_NaN();  // bounds on the mean over the covered
        double hi = std::numeric_limits<double>::quiet_NaN();  // part of [a, b)
        TimeNs covered = 0;
    };
    Bounded bounded(TimeNs a, TimeNs b) const;
    // Calls f(start, end, value) for each sample whose span (to the next sample; the last one's
    // to the end) overlaps [a, b), in time order.
    template <typename F>
    void forEachSample(TimeNs a, TimeNs b, F&& f) const {
        if (empty() || b <= a) return;
        const TimeNs ca = clampT(a), cb = clampT(b);
        for (std::size_t k = segmentOf(ca); k < m_times.size() && m_times[k] < cb; ++k) {
            const TimeNs e = k + 1 < m_times.size() ? m_times[k + 1] : m_end;
            if (e > m_times[k]) f(m_times[k], e, static_cast<double>(m_values[k]));
        }
    }
    // The most the resource can read: 1 (a share of capacity), or the largest value if more.
    double capacity() const { return m_capacity; }
    // Time-weighted quantile of the values (q in 0..1, values taken in 0..1 to 1/4096); NaN
    // when empty.
    double quantile(double q) const;
    // Median time between consecutive samples, ns (0 with fewer than two): a counter sampled
    // every 30 ms cannot say what happened during a 10 us kernel.
    TimeNs medianSpacing() const { return m_spacing; }

  private:
    std::size_t segmentOf(TimeNs t) const;  // index of the sample in effect at t (t clamped)
    double integral(TimeNs t) const;        // of the value from the first sample to t
    TimeNs highPrefix(TimeNs t) const;      // time at or above high from the first sample to t
    TimeNs clampT(TimeNs t) const;

    std::vector<TimeNs> m_times;
    std::vector<float> m_values;
    std::vector<double> m_integral;  // at m_times[k]
    std::vector<TimeNs> m_highAt;    // at m_times[k]
    std::vector<float> m_tree;       // max segment tree over m_values (bottom-up, size 2n)
    TimeNs m_end = 0;
    TimeNs m_spacing = 0;
    double m_threshold = 1;
    double m_capacity = 1;
};

// High-utilisation thresholds (0..1) by resource: bandwidth, compute and issue count as busy at
// 85% of capacity (of the configured peak, or of the largest value the trace shows); the cache
// counts as busy when its hit rate is 15% below its healthy level (see buildCacheTimelines).
inline constexpr double kHighUtilization = 0.85;
inline constexpr double kHighCachePressure = 0.15;

// NOLINTNEXTLINE(bugprone-reserved-identifier): clang-tidy 14 names the implicit copy of its arrays
struct ResourceTimelines {
    // Indexed like kPressureResource. For the cache, the timeline holds the cache *pressure*:
    // 1 - hitRate / healthyHitRate, clamped to 0..1, where the healthy hit rate is the
    // time-weighted 90th percentile of the trace's hit rate. Without hit-rate series, cache
    // throughput/utilisation series are used as a plain utilisation instead.
    ResourceTimeline pressure[kPressureResources];
    ResourceTimeline hitRate;  // the combined hit rate itself (0..1), for the report
    double healthyHitRate = std::numeric_limits<double>::quiet_NaN();

    const ResourceTimeline& of(Resource r) const { return pressure[pressureIndex(r)]; }
    bool any() const;
    // Share (0..1) of [a, b) that `r` spent at or above its high threshold, for the heatmap's
    // pressure rows; NaN for an empty interval, a resource counters do not measure, or one
    // without a timeline.
    double highShare(Resource r, TimeNs a, TimeNs b) const;
};

// Combines each resource's series: utilisation and throughput series by the maximum of their
// normalised values (any saturated channel or HBM stack means pressure), hit rates by the mean.
// Utilisation series that are two directions of one bus (names that differ only by "read" /
// "write", as Nsight's DRAM Read / Write Bandwidth) are summed first: the bus carries both.
ResourceTimelines buildTimelines(const Trace& trace, const ResourceMap& map);

}  // namespace contend
