#include "core/report/single/finding_rank.h"

#include <algorithm>
#include <numeric>

namespace contend {

TimeNs windowExtraWait(const ContentionWindow& w) {
    TimeNs c = 0;
    for (const WindowOp& o : w.ops) c += o.extraWaitNs;
    return c;
}

namespace {

// By gain (when asked), then `tie`, then list order: a total order, so a full or a partial sort
// gives the one a stable sort on the first two gives.
template <typename Tie>
std::vector<std::size_t> ranked(std::size_t n, FindingRank rank, const std::vector<TimeNs>& gain, Tie tie,
                                std::size_t limit) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto before = [&](std::size_t a, std::size_t b) {
        if (rank == FindingRank::Gain && gain[a] != gain[b]) return gain[a] > gain[b];  // -1 (not computed) last
        if (tie(a, b)) return true;
        if (tie(b, a)) return false;
        return a < b;
    };
    if (limit < n) {
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(limit), order.end(), before);
        order.resize(limit);
    } else {
        std::sort(order.begin(), order.end(), before);
    }
    return order;
}

}  // namespace

std::vector<std::size_t> anomalyOrder(const Report& r, FindingRank rank, std::size_t limit) {
    // From the list's compact fields: a lazy list (anomaly_list.h) is not materialised to rank it.
    const AnomalyList& list = r.anomalies;
    std::vector<TimeNs> gain(list.size());
    std::vector<double> score(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) {
        gain[k] = list.gainNs(k);
        score[k] = list.score(k);
    }
    return ranked(
        list.size(), rank, gain, [&](std::size_t a, std::size_t b) { return score[a] > score[b]; }, limit);
}

std::vector<std::size_t> windowOrder(const Report& r, FindingRank rank, std::size_t limit) {
    std::vector<TimeNs> gain, extra;
    for (const ContentionWindow& w : r.windows) {
        gain.push_back(w.gainNs);
        extra.push_back(windowExtraWait(w));
    }
    return ranked(
        r.windows.size(), rank, gain, [&](std::size_t a, std::size_t b) { return extra[a] > extra[b]; }, limit);
}

std::vector<std::size_t> clusterOrder(const Report& r, FindingRank rank, std::size_t limit) {
    std::vector<TimeNs> gain;
    for (const Cluster& c : r.clusters) gain.push_back(c.gainNs);
    return ranked(
        r.clusters.size(), rank, gain,
        [&](std::size_t a, std::size_t b) {
            return rank == FindingRank::Gain && r.clusters[a].savingNs > r.clusters[b].savingNs;
        },
        limit);
}

}  // namespace contend
