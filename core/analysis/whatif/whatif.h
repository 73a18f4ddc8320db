#pragma once
// What-if: the predicted end-to-end gain of each finding, from a replay of the dependency
// graph (depgraph.h) with the finding's operators shortened:
//
//   anomaly   its operator at its baseline (shortened by its excess)
//   window    each of its operators shortened by the extra wait it paid in the window
//   cluster   fused: its operators after the first start right after the one before on the
//             stream (their launch and wait edges dropped), as one fused kernel would
//   resource  all of it at once: every anomaly with that cause at its baseline, and every counted
//             run of a contention pattern with that cause that is not an anomaly (patterns.h)
//             at its baseline too (sync: and every cluster fused): summary.extraWaitByResource's
//             gain
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
// and the slack of the anomalies' and windows' operators (every slice's slack is the prepared
// analysis' SliceView, slice_view.h: it does not depend on the findings).
//
// Its inputs are the trace, its operators and their dependency graph (built once per trace by
// the engine); engine.h's predictGains(PreparedAnalysis, ...) passes those of a prepared analysis.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/analysis/model/report.h"
#include "core/analysis/whatif/depgraph.h"
#include "core/common/failure.h"
#include "core/trace/trace.h"

namespace contend {

// What predictGains keeps between re-thresholds of one dependency graph (the app's slider):
// the dependency graph's replayer (scratch arrays the size of the graph, allocated once) and the
// result of every replay it ran, keyed by what the replay changed (the nodes shortened and by how
// much, the nodes fused). A replay depends on nothing else (the graph is the prepared
// analysis'), so a finding whose operators and extra wait did not change (an anomaly is its
// operator at its baseline whatever the coefficient; a cluster does not depend on the
// thresholds; a window that chains the same operators) gets its gain back without a replay,
// and a resource's replay is reused while its anomalies are the same (an overlap-only change).
// A report made with a cache is the report made without one: the results and the replay
// budget's accounting (each cached replay counts the nodes it recomputed) are the same.
//
// Keys are two independent 64-bit hashes of the changes (with their counts); an entry costs
// about 90 bytes with the map's own, and the cache empties itself past kMaxEntries (about
// 90 MB). Not thread-safe:
// one predictGains at a time (the app's report worker).
class WhatIfCache {
  public:
    static constexpr std::size_t kMaxEntries = std::size_t{1} << 20;

    explicit WhatIfCache(std::shared_ptr<const DependencyGraph> graph);
    const DependencyGraph& graph() const { return *m_graph; }
    // Replays answered from the cache and replays run, since it was made.
    std::size_t hits() const { return m_hits; }
    std::size_t misses() const { return m_misses; }
    std::size_t size() const { return m_results.size(); }

    // The replay of these changes on the graph: from the cache, or run (and
    // kept). Same arguments and result as Replayer::run.
    Replayer::Result replay(const std::vector<Replayer::Change>& changes, const std::vector<std::uint32_t>& fused);

  private:
    struct Entry {
        std::uint64_t check = 0;             // the second hash of the key
        std::size_t changes = 0, fused = 0;  // and the counts, beside it
        Replayer::Result result;
    };
    std::shared_ptr<const DependencyGraph> m_graph;
    std::unique_ptr<Replayer> m_replayer;
    std::unordered_map<std::uint64_t, Entry> m_results;
    std::size_t m_hits = 0, m_misses = 0;
};

struct WhatIfSettings {
    // Nodes the replays may recompute in all; 0: 3 x the graph's nodes + 1M (about half a
    // second at a million nodes: a replay of a fix early on a busy stream moves the rest of it).
    std::size_t budgetNodes = 0;
    // From this many graph nodes (and with two cores, no cache) the replays run on two threads,
    // each with its own replayer, taken in order and merged in order: the gains and the budget's
    // accounting are a serial run's (tests set 0 to force the split on a small graph).
    std::size_t splitFromNodes = std::size_t{1} << 16;
    // While a report's windows are built on the second core (their first read), the first runs
    // the resource replays, which read no window, until the windows are done, at most this many
    // (the rest are run with the findings'). A test sets exactly this many (and no stopping when
    // the windows are done): the results are the same whatever the number.
    std::size_t resourceReplaysBeside = std::numeric_limits<std::size_t>::max();
    bool resourceReplaysUntilWindows = true;
    // Asked between replays (the app's worker: a newer trace or a closed window); false stops
    // the what-if, leaves the report half filled and makes predictGains return a Cancelled
    // Failure.
    std::function<bool()> keepGoing;
    // Optional: replays kept from earlier reports on the same dependency graph (ignored when
    // it was made for another one). Null: every replay runs, as contend-cli analyze does.
    WhatIfCache* cache = nullptr;
};

// The predicted gains of `report`'s findings on `trace`, whose operators are `ops` and their
// dependency graph `graph`. Nullopt when done; a Failure of kind Cancelled only when
// settings.keepGoing stopped it (the report is then half filled, not to be shown).
std::optional<Failure> predictGains(const Trace& trace, const OperatorSet& ops, const DependencyGraph& graph,
                                    Report& report, const WhatIfSettings& settings = {});

}  // namespace contend
