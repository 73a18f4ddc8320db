#pragma once
// The order findings are shown in (CLI summary, Markdown): by the end-to-end gain the what-if
// predicts for fixing each (whatif.h), largest first, the ones without a prediction last, ties
// by score (anomalies) or extra wait (windows, clusters); or, with FindingRank::Score, the order
// before the what-if: anomalies by score, windows by extra wait, clusters as found.
#include <cstddef>
#include <vector>

#include "core/analysis/model/report.h"

namespace contend {

enum class FindingRank { Gain, Score };

TimeNs windowExtraWait(const ContentionWindow& w);
// Indices into report.anomalies / windows / clusters, in the order to show (ties in list
// order); only the first `limit` of them when it is given (a summary's top ten of a million
// anomalies is a partial sort, not a full one).
inline constexpr std::size_t kAllFindings = static_cast<std::size_t>(-1);
std::vector<std::size_t> anomalyOrder(const Report& r, FindingRank rank, std::size_t limit = kAllFindings);
std::vector<std::size_t> windowOrder(const Report& r, FindingRank rank, std::size_t limit = kAllFindings);
std::vector<std::size_t> clusterOrder(const Report& r, FindingRank rank, std::size_t limit = kAllFindings);

}  // namespace contend
