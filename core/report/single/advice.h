#pragma once
// What to try, per cause: the short advice the CLI summary and the Markdown report print.
#include <string>

#include "core/analysis/model/report.h"

namespace contend {

// One sentence for an anomaly or window whose cause is `r`.
const char* adviceFor(Resource r);
// For a cluster of tiny operators separated by sync barriers and launch gaps.
const char* clusterAdvice();
// Why a resource's predicted gain (whatif.h) is above its extra wait, in words after the
// numbers ("" when it is not): for sync, fusing a cluster removes all of its gaps while its
// extra wait (the clusters' saving, sync_clusters.h) leaves out the one launch gap per cluster
// the fused operator still pays, and drops the launch and sync edges that held its operators, so
// work after them starts sooner (knock-on along the dependency graph); for the others, that
// knock-on alone. Starts with how much more: "69.6 us more than its extra wait: ...".
std::string gainAboveWait(const Report& r, const ResourceGain& g);

}  // namespace contend
