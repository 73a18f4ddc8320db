#pragma once
// The patterns' counted runs with a cost, each pattern's in anomaly-row order, for a summary per
// slider step that reads only the runs on the short side of the flagged line.
//
// summarise (summary.h) adds to the totals the cost of each pattern's counted runs that are not
// anomalies at the report's coefficient, by iteration and by thread. Walking every run did
// that in 23 ms of a 32 ms slider step on 1M contended kernels (2.7M runs of 40 bytes streamed
// to find the unflagged ones). A run is flagged when its anomaly row is below the report's
// count (ContentionPattern::flagged), so with each pattern's runs sorted by row the flagged ones
// are a prefix: a step finds each pattern's split by a binary search and walks the smaller
// side, the flagged runs subtracted from the totals of all of them, or the unflagged ones added
// up; both give the same integer sums.
#include <cstdint>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"

namespace contend {

struct PatternCostIndex {
    // Where a run's cost goes: its excess, its iteration (index into the report's iterations,
    // kNone outside all of them) and its track (kNone when not known).
    struct Cost {
        TimeNs excessNs = 0;
        std::uint32_t iteration = kNone;
        std::uint32_t track = kNone;
    };
    // Per pattern (in the patterns' order): its runs [first[p], first[p + 1]) below.
    std::vector<std::uint32_t> first;
    // Per run (counted, excess > 0): its anomaly row (PatternRun::row; kNone sorts last),
    // ascending within its pattern, and its cost.
    std::vector<std::uint32_t> row;
    std::vector<Cost> cost;
    std::vector<TimeNs> patternTotal;    // per pattern: its runs' excess
    std::vector<TimeNs> iterationTotal;  // per iteration: the runs' excess in it
    std::vector<TimeNs> trackTotal;      // per track (by track index): the runs' excess on it
    std::size_t iterations = 0;          // the iterations it was made with (a check for summarise)

    std::size_t patterns() const { return first.empty() ? 0 : first.size() - 1; }
};

// Where summarise charges a pattern run's cost: the last of `iterations` (by start) starting at
// or before `start`, when `start` is before its end (else kNone); and the run's track, its
// slice's when the run carries none (a report read from a file), kNone when neither is known.
std::uint32_t patternRunIteration(const std::vector<IterationStats>& iterations, TimeNs start);
std::uint32_t patternRunTrack(const PatternRun& run, const Trace& trace);

// The index of `patterns`' counted runs with a cost, each placed in `iterations` (the report's)
// and on a track by the two above. Per pattern, on two cores when the runs are many.
PatternCostIndex indexPatternCosts(const std::vector<ContentionPattern>& patterns,
                                   const std::vector<IterationStats>& iterations, const Trace& trace);

// One summary step's share of the patterns' cost: per pattern its unflagged cost
// (`unflaggedOut`, resized to the patterns' count); per iteration and per track the unflagged
// runs' excess, added to `iterationExtra` and `trackExtra` (sized to the index's iterations and
// tracks). `flaggedRows` per pattern as in ContentionPattern. Returns the runs it read.
std::size_t unflaggedPatternCosts(const PatternCostIndex& index, const std::vector<ContentionPattern>& patterns,
                                  std::vector<TimeNs>& unflaggedOut, std::vector<TimeNs>& iterationExtra,
                                  std::vector<TimeNs>& trackExtra);

}  // namespace contend
