#include "widgets/cluster/step_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contend::widgets {

int StepGrid::rowOfRank(int rank) const {
    const auto it = std::find(ranks.begin(), ranks.end(), rank);
    return it == ranks.end() ? -1 : static_cast<int>(it - ranks.begin());
}

int StepGrid::columnOfStep(std::uint32_t step) const {
    const auto it = std::find(iterations.begin(), iterations.end(), step);
    return it == iterations.end() ? -1 : static_cast<int>(it - iterations.begin());
}

double StepGrid::deviation(int row, int column) const {
    return valid(row, column) ? deviations[cell(row, column)] : std::numeric_limits<double>::quiet_NaN();
}

int StepGrid::slowRowCount() const { return static_cast<int>(std::count(slowRow.begin(), slowRow.end(), 1)); }

StepGrid buildStepGrid(const ClusterReport& report, StepMetric metric) {
    StepGrid g;
    g.metric = metric;
    g.ranks = report.ranks;
    std::sort(g.ranks.begin(), g.ranks.end());
    for (const ClusterIteration& it : report.iterations) g.iterations.push_back(it.index);
    const std::size_t cells = g.ranks.size() * g.iterations.size();
    g.values.assign(cells, -1);
    g.slow.assign(cells, 0);
    g.slowCompute.assign(cells, 0);
    g.slowRow.assign(g.ranks.size(), 0);
    bool any = false;
    for (std::size_t c = 0; c < report.iterations.size(); ++c) {
        for (const RankStep& s : report.iterations[c].ranks) {
            const int row = g.rowOfRank(s.rank);
            if (row < 0) continue;
            const std::size_t i = g.cell(row, static_cast<int>(c));
            const TimeNs v = metric == StepMetric::Compute ? s.computeNs
                             : metric == StepMetric::Wait  ? s.waitNs
                                                           : s.stepNs;
            g.values[i] = std::max<TimeNs>(v, 0);
            g.slow[i] = s.slow;
            g.slowCompute[i] = s.slowCompute;
            g.minNs = any ? std::min(g.minNs, g.values[i]) : g.values[i];
            g.maxNs = any ? std::max(g.maxNs, g.values[i]) : g.values[i];
            any = true;
        }
    }
    for (const SlowRank& s : report.slowRanks)
        if (const int row = g.rowOfRank(s.rank); row >= 0) g.slowRow[static_cast<std::size_t>(row)] = 1;
    // Each step's median over the ranks that have it (the mean of the middle two for an even
    // count: of two ranks, one is as far above it as the other is below).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    g.deviations.assign(cells, nan);
    g.medians.assign(g.iterations.size(), -1);
    std::vector<TimeNs> column;
    for (int c = 0; c < g.columnCount(); ++c) {
        column.clear();
        for (int r = 0; r < g.rowCount(); ++r)
            if (g.value(r, c) >= 0) column.push_back(g.value(r, c));
        if (column.empty()) continue;
        std::sort(column.begin(), column.end());
        const std::size_t n = column.size();
        const TimeNs median = n % 2 ? column[n / 2] : (column[n / 2 - 1] + column[n / 2]) / 2;
        g.medians[static_cast<std::size_t>(c)] = median;
        if (median <= 0) continue;
        for (int r = 0; r < g.rowCount(); ++r) {
            if (g.value(r, c) < 0) continue;
            const double d = static_cast<double>(g.value(r, c)) / static_cast<double>(median) - 1.0;
            g.deviations[g.cell(r, c)] = d;
            g.maxDeviation = std::max(g.maxDeviation, std::abs(d));
        }
    }
    return g;
}

std::pair<TimeNs, TimeNs> sharedRange(const StepGrid& a, const StepGrid& b) {
    const bool ha = !a.values.empty() && a.maxNs >= a.minNs && a.rowCount() > 0;
    const bool hb = !b.values.empty() && b.maxNs >= b.minNs && b.rowCount() > 0;
    if (ha && hb) return {std::min(a.minNs, b.minNs), std::max(a.maxNs, b.maxNs)};
    if (ha) return {a.minNs, a.maxNs};
    if (hb) return {b.minNs, b.maxNs};
    return {0, 0};
}

double sharedDeviation(const StepGrid& a, const StepGrid& b) { return std::max(a.maxDeviation, b.maxDeviation); }

}  // namespace contend::widgets
