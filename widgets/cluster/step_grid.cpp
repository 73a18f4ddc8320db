#include "widgets/cluster/step_grid.h"

#include <algorithm>

namespace contend::widgets {

int StepGrid::rowOfRank(int rank) const {
    const auto it = std::find(ranks.begin(), ranks.end(), rank);
    return it == ranks.end() ? -1 : static_cast<int>(it - ranks.begin());
}

int StepGrid::columnOfStep(std::uint32_t step) const {
    const auto it = std::find(iterations.begin(), iterations.end(), step);
    return it == iterations.end() ? -1 : static_cast<int>(it - iterations.begin());
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

}  // namespace contend::widgets
