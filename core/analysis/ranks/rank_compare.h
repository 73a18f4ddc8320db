#pragma once
// Two cluster reports side by side (the app's Compare Cluster, `contend --compare A.json B.json`
// on cluster reports): per rank its mean step and compute time before and after, and which slow
// ranks are gone, still slow, or new. Pure, over the reports alone; "slow" is the reports' own
// stated test (ClusterReport::slowRanks), never re-decided here.
#include <string>
#include <vector>

#include "core/analysis/ranks/rank_merge.h"

namespace contend {

enum class SlowChange { NotSlow, Gone, Still, New };

struct RankChange {
    int rank = 0;
    bool inBase = false, inNew = false;
    TimeNs baseStepNs = 0, newStepNs = 0;        // mean over the rank's steps
    TimeNs baseComputeNs = 0, newComputeNs = 0;  // mean over the rank's steps
    int baseSlowSteps = 0, newSlowSteps = 0;     // steps the test marked it slow in
    SlowChange slow = SlowChange::NotSlow;
};

struct ClusterComparison {
    std::vector<RankChange> ranks;  // by rank, every rank of either report
    std::vector<int> gone, still, added;
    TimeNs baseMeanStepNs = 0, newMeanStepNs = 0;  // over every rank and step
    std::string verdict;                           // in words
};

ClusterComparison compareClusters(const ClusterReport& base, const ClusterReport& now);

const char* slowChangeName(SlowChange c);  // "-", "gone", "still slow", "new"

}  // namespace contend
