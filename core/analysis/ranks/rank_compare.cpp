#include "core/analysis/ranks/rank_compare.h"

#include <cstdio>
#include <map>

namespace contend {

namespace {

struct Sums {
    TimeNs step = 0, compute = 0;
    int steps = 0;
    int slowSteps = 0;
};

std::map<int, Sums> perRank(const ClusterReport& c, TimeNs& meanStep) {
    std::map<int, Sums> out;
    for (int r : c.ranks) out[r];
    TimeNs total = 0;
    long long n = 0;
    for (const ClusterIteration& it : c.iterations)
        for (const RankStep& s : it.ranks) {
            Sums& x = out[s.rank];
            x.step += s.stepNs;
            x.compute += s.computeNs;
            ++x.steps;
            x.slowSteps += s.slow;
            total += s.stepNs;
            ++n;
        }
    meanStep = n ? total / n : 0;
    return out;
}

bool isSlow(const ClusterReport& c, int rank) {
    for (const SlowRank& s : c.slowRanks)
        if (s.rank == rank) return true;
    return false;
}

std::string ranksText(const std::vector<int>& ranks) {
    std::string s;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (i == 8) {
            s += " and " + std::to_string(ranks.size() - 8) + " more";
            break;
        }
        s += (i ? ", " : "") + std::to_string(ranks[i]);
    }
    return s;
}

std::string ms(TimeNs ns) {
    char b[48];
    std::snprintf(b, sizeof b, "%.3f ms", static_cast<double>(ns) / 1e6);
    return b;
}

}  // namespace

const char* slowChangeName(SlowChange c) {
    switch (c) {
    case SlowChange::Gone: return "gone";
    case SlowChange::Still: return "still slow";
    case SlowChange::New: return "new";
    case SlowChange::NotSlow: break;
    }
    return "-";
}

ClusterComparison compareClusters(const ClusterReport& base, const ClusterReport& now) {
    ClusterComparison out;
    const std::map<int, Sums> a = perRank(base, out.baseMeanStepNs);
    const std::map<int, Sums> b = perRank(now, out.newMeanStepNs);
    std::map<int, RankChange> all;
    for (const auto& [rank, s] : a) {
        RankChange& c = all[rank];
        c.rank = rank;
        c.inBase = true;
        c.baseStepNs = s.steps ? s.step / s.steps : 0;
        c.baseComputeNs = s.steps ? s.compute / s.steps : 0;
        c.baseSlowSteps = s.slowSteps;
    }
    for (const auto& [rank, s] : b) {
        RankChange& c = all[rank];
        c.rank = rank;
        c.inNew = true;
        c.newStepNs = s.steps ? s.step / s.steps : 0;
        c.newComputeNs = s.steps ? s.compute / s.steps : 0;
        c.newSlowSteps = s.slowSteps;
    }
    for (auto& [rank, c] : all) {
        const bool was = isSlow(base, rank), is = isSlow(now, rank);
        c.slow = was && is ? SlowChange::Still : was ? SlowChange::Gone : is ? SlowChange::New : SlowChange::NotSlow;
        if (c.slow == SlowChange::Gone) out.gone.push_back(rank);
        if (c.slow == SlowChange::Still) out.still.push_back(rank);
        if (c.slow == SlowChange::New) out.added.push_back(rank);
        out.ranks.push_back(c);
    }
    std::string v;
    if (out.gone.empty() && out.still.empty() && out.added.empty())
        v = "No rank is slow in either cluster.";
    else {
        if (!out.gone.empty())
            v += std::string(out.gone.size() == 1 ? "Slow rank " : "Slow ranks ") + ranksText(out.gone) +
                 (out.gone.size() == 1 ? " is" : " are") + " gone (not slow in the new cluster). ";
        if (!out.still.empty())
            v += std::string(out.still.size() == 1 ? "Rank " : "Ranks ") + ranksText(out.still) + " still slow. ";
        if (!out.added.empty())
            v += std::string(out.added.size() == 1 ? "Rank " : "Ranks ") + ranksText(out.added) + " newly slow. ";
        if (out.added.empty() && !out.gone.empty() && out.still.empty()) v += "No rank is slow now. ";
    }
    if (out.baseMeanStepNs > 0) {
        const double change = 100.0 * static_cast<double>(out.newMeanStepNs - out.baseMeanStepNs) /
                              static_cast<double>(out.baseMeanStepNs);
        char pct[32];
        std::snprintf(pct, sizeof pct, "%+.1f%%", change);
        if (!v.empty() && v.back() != ' ') v += ' ';
        v += "Mean step time " + ms(out.baseMeanStepNs) + " -> " + ms(out.newMeanStepNs) + " (" + pct + ").";
    }
    while (!v.empty() && v.back() == ' ') v.pop_back();
    out.verdict = v;
    return out;
}

}  // namespace contend
