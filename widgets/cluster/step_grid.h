#pragma once
// The ranks x iterations grid of a cluster report (core/analysis/ranks/rank_merge.h), pure: one row
// per rank (in rank order, the first rank on top), one column per step, a time per cell, and
// which cells and rows the report's stated test marked slow, and each cell's deviation from its
// step's median (what the heatmap colours: a step where every rank is slow is one colour by
// time, and the slow rank stands out only against its peers). The heatmap draws it; tests read it.
#include <cstdint>
#include <vector>

#include "core/analysis/ranks/rank_merge.h"

namespace contend::widgets {

enum class StepMetric { Step, Compute, Wait };

struct StepGrid {
    StepMetric metric = StepMetric::Step;
    std::vector<int> ranks;                 // row -> rank
    std::vector<std::uint32_t> iterations;  // column -> step index (ProfilerStep#N)
    std::vector<TimeNs> values;             // row * columns + column; -1 where the rank lacks the step
    std::vector<std::uint8_t> slow;         // per cell: the step's test marked the rank slow there
    std::vector<std::uint8_t> slowCompute;  // per cell: its compute failed the test (else it held up a collective)
    std::vector<std::uint8_t> slowRow;      // per row: the rank is one of the report's slow ranks
    TimeNs minNs = 0, maxNs = 0;            // over the cells that have a value (0, 0 when none)
    std::vector<TimeNs> medians;            // per column: the median of its ranks' values (-1: none)
    // Per cell: value / the column's median - 1 (0.25: 25% above the step's median); NaN where the
    // rank lacks the step or the median is 0.
    std::vector<double> deviations;
    double maxDeviation = 0;  // the largest |deviation| over the grid

    int rowCount() const { return static_cast<int>(ranks.size()); }
    int columnCount() const { return static_cast<int>(iterations.size()); }
    bool valid(int row, int column) const {
        return row >= 0 && column >= 0 && row < rowCount() && column < columnCount();
    }
    std::size_t cell(int row, int column) const {
        return static_cast<std::size_t>(row) * iterations.size() + static_cast<std::size_t>(column);
    }
    TimeNs value(int row, int column) const { return valid(row, column) ? values[cell(row, column)] : -1; }
    double deviation(int row, int column) const;  // NaN outside
    bool isSlow(int row, int column) const { return valid(row, column) && slow[cell(row, column)]; }
    int rowOfRank(int rank) const;               // -1 if absent
    int columnOfStep(std::uint32_t step) const;  // -1 if absent
    int slowRowCount() const;
};

StepGrid buildStepGrid(const ClusterReport& report, StepMetric metric);

// The range two grids share (compare: both heatmaps on one colour scale).
std::pair<TimeNs, TimeNs> sharedRange(const StepGrid& a, const StepGrid& b);
// The deviation scale two grids share: the larger maxDeviation.
double sharedDeviation(const StepGrid& a, const StepGrid& b);

}  // namespace contend::widgets
