#pragma once
// Level-of-detail maxima of one counter series (pure, no Qt): the maximum over any run of
// samples in O(16 * log16 n), so a counter track with a million samples still draws one
// value per pixel column without walking the samples in it.
#include <cstdint>
#include <vector>

#include "core/trace/trace.h"

namespace contend::widgets {

class CounterLod {
  public:
    CounterLod() = default;
    explicit CounterLod(const CounterSeries& series);
    // Over any step series' values (a queue length: widgets/timeline/timeline_data.h).
    explicit CounterLod(std::vector<double> values);

    double globalMax() const { return m_max; }
    double globalMin() const { return m_min; }
    // Max of values[begin, end); -inf for an empty range.
    double maxOf(std::size_t begin, std::size_t end) const;
    // Max of the value in effect over [t0, t1): the sample in effect at t0 and every sample
    // inside. NaN before the first sample.
    double maxOver(const CounterSeries& series, TimeNs t0, TimeNs t1) const;
    // The same for columns walked left to right: the cursor carries the sample position and the
    // samples-per-column seen so far from one column to the next, so each lookup probes near
    // where the answer is expected instead of searching (a few cache lines, not ~20).
    struct Cursor {
        std::size_t pos = 0;   // first sample after the previous column's t0
        std::size_t step = 1;  // samples the previous column spanned
    };
    double maxOver(const CounterSeries& series, TimeNs t0, TimeNs t1, Cursor& cursor) const {
        return maxOver(series.times, t0, t1, cursor);
    }
    // The same over the sample times `times` (sorted) of the values it was built on.
    double maxOver(const std::vector<TimeNs>& times, TimeNs t0, TimeNs t1, Cursor& cursor) const;

  private:
    static constexpr std::size_t kFan = 16;
    std::vector<std::vector<double>> m_levels;  // m_levels[0] = values; [k][i] = max of 16^k block i
    double m_max = 0;
    double m_min = 0;
};

}  // namespace contend::widgets
