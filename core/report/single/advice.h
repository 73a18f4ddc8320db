#pragma once
// What to try, per cause: the short advice the CLI summary and the Markdown report print.
#include "core/analysis/model/report.h"

namespace contend {

// One sentence for an anomaly or window whose cause is `r`.
const char* adviceFor(Resource r);
// For a cluster of tiny operators separated by sync barriers and launch gaps.
const char* clusterAdvice();

}  // namespace contend
