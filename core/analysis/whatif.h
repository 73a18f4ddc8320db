#pragma once
// What-if: the predicted end-to-end gain of each finding, from a replay of the dependency
// graph (depgraph.h) with the finding's operators shortened:
//
//   anomaly   its operator at its baseline (shortened by its excess)
//   window    each of its operators shortened by the extra wait it paid in the window
//   cluster   fused: its operators after the first start right after the one before on the
//             stream (their launch and wait edges dropped), as one fused kernel would
//   resource  all of it at once: every anomaly with that cause at its baseline (sync: and every
//             cluster fused): summary.extraWaitByResource's gain
//
// The gain is the fall of the graph's span (the sum of the iteration times), ns, over the whole
// run; per iteration it is that over the iteration count. Every other edge keeps its lag, so
// gaps that were not waiting (launch latency, the host's own work) stay.
//
// Exact shortcuts and the budget: shortening operators that all had slack (they could have
// ended later without delaying the run) cannot shorten it, so such findings get 0 without a
// replay (WhatIfSummary::offPath). The others are replayed, resources first, then by the
// critical time they would cut, largest first (the resources and "all at once" always), until
// the replays have recomputed `budgetNodes` nodes in all; the findings left get -1 ("not computed") and a note
// "what-if-budget". A replay costs what it moves (O(k log k) for k nodes moved), not the graph.
//
// Also fills each iteration's critical path (IterationStats::criticalPathNs, criticalTrack),
// the slack of the anomalies' and windows' operators, and Report::sliceSlackNs.
#include <cstddef>
#include <functional>

#include "core/analysis/engine.h"
#include "core/analysis/report.h"

namespace contend {

struct WhatIfSettings {
    // Nodes the replays may recompute in all; 0: 3 x the graph's nodes + 1M (about half a
    // second at a million nodes: a replay of a fix early on a busy stream moves the rest of it).
    std::size_t budgetNodes = 0;
    // Asked between replays (the app's worker: a newer trace or a closed window); false stops
    // the what-if, leaves the report half filled and makes predictGains return false.
    std::function<bool()> keepGoing;
};

// False only when settings.keepGoing stopped it (the report is then not to be shown).
bool predictGains(const PreparedAnalysis& p, Report& report, const WhatIfSettings& settings = {});

}  // namespace contend
