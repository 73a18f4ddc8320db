#include "core/analysis/findings/pattern_costs.h"

#include <algorithm>

#include "core/common/parallel.h"

namespace contend {

namespace {

bool costs(const PatternRun& run) { return run.counted && run.excessNs > 0; }

}  // namespace

std::uint32_t patternRunIteration(const std::vector<IterationStats>& iterations, TimeNs start) {
    const auto it = std::upper_bound(iterations.begin(), iterations.end(), start,
                                     [](TimeNs t, const IterationStats& i) { return t < i.start; });
    if (it == iterations.begin() || start >= std::prev(it)->end) return kNone;
    return static_cast<std::uint32_t>(std::prev(it) - iterations.begin());
}

std::uint32_t patternRunTrack(const PatternRun& run, const Trace& trace) {
    if (run.track != kNone) return run.track;
    return run.slice < trace.slices().size() ? trace.slices()[run.slice].track : kNone;
}

PatternCostIndex indexPatternCosts(const std::vector<ContentionPattern>& patterns,
                                   const std::vector<IterationStats>& iterations, const Trace& trace) {
    PatternCostIndex x;
    const std::size_t np = patterns.size();
    x.iterations = iterations.size();
    x.first.assign(np + 1, 0);
    for (std::size_t p = 0; p < np; ++p) {
        std::uint32_t n = 0;
        for (const PatternRun& run : patterns[p].runs.view()) n += costs(run) ? 1 : 0;
        x.first[p + 1] = x.first[p] + n;
    }
    x.row.resize(x.first[np]);
    x.cost.resize(x.first[np]);
    x.patternTotal.assign(np, 0);
    // Each part writes its own patterns' runs and totals.
    auto work = [&](std::size_t p0, std::size_t p1, int) {
        std::vector<std::uint64_t> keys;  // (row, index among the pattern's runs), sorted
        for (std::size_t p = p0; p < p1; ++p) {
            const auto runs = patterns[p].runs.view();
            keys.clear();
            for (std::size_t j = 0; j < runs.size(); ++j)
                if (costs(runs[j])) keys.push_back(std::uint64_t{runs[j].row} << 32 | j);
            std::sort(keys.begin(), keys.end());
            std::uint32_t at = x.first[p];
            for (const std::uint64_t key : keys) {
                const PatternRun& run = runs[static_cast<std::size_t>(key & 0xFFFFFFFFu)];
                PatternCostIndex::Cost c;
                c.excessNs = run.excessNs;
                c.iteration = patternRunIteration(iterations, run.startNs);
                c.track = patternRunTrack(run, trace);
                x.row[at] = static_cast<std::uint32_t>(key >> 32);
                x.cost[at] = c;
                x.patternTotal[p] += c.excessNs;
                ++at;
            }
        }
    };
    inWeightedHalves(
        np, std::uint64_t{1} << 16, [&](std::size_t p) { return patterns[p].runs.size(); }, work);
    x.iterationTotal.assign(iterations.size(), 0);
    x.trackTotal.assign(trace.tracks().size(), 0);
    for (const PatternCostIndex::Cost& c : x.cost) {
        if (c.iteration != kNone) x.iterationTotal[c.iteration] += c.excessNs;
        if (c.track < x.trackTotal.size()) x.trackTotal[c.track] += c.excessNs;
    }
    return x;
}

std::size_t unflaggedPatternCosts(const PatternCostIndex& index, const std::vector<ContentionPattern>& patterns,
                                  std::vector<TimeNs>& unflaggedOut, std::vector<TimeNs>& iterationExtra,
                                  std::vector<TimeNs>& trackExtra) {
    const std::size_t np = index.patterns();
    unflaggedOut.assign(np, 0);
    // Each pattern's first unflagged run (its flagged ones are the rows below flaggedRows).
    std::vector<std::uint32_t> split(np);
    std::size_t flagged = 0, unflagged = 0;
    for (std::size_t p = 0; p < np; ++p) {
        const auto b = index.row.begin() + index.first[p], e = index.row.begin() + index.first[p + 1];
        const auto k = std::lower_bound(b, e, patterns[p].flaggedRows);
        split[p] = static_cast<std::uint32_t>(k - index.row.begin());
        flagged += static_cast<std::size_t>(k - b);
        unflagged += static_cast<std::size_t>(e - k);
    }
    auto add = [&](const PatternCostIndex::Cost& c, TimeNs sign) {
        if (c.iteration < iterationExtra.size()) iterationExtra[c.iteration] += sign * c.excessNs;
        if (c.track < trackExtra.size()) trackExtra[c.track] += sign * c.excessNs;
    };
    if (flagged < unflagged) {
        // All of them less the flagged ones.
        for (std::size_t i = 0; i < iterationExtra.size() && i < index.iterationTotal.size(); ++i)
            iterationExtra[i] += index.iterationTotal[i];
        for (std::size_t t = 0; t < trackExtra.size() && t < index.trackTotal.size(); ++t)
            trackExtra[t] += index.trackTotal[t];
        for (std::size_t p = 0; p < np; ++p) {
            TimeNs sum = 0;
            for (std::uint32_t r = index.first[p]; r < split[p]; ++r) {
                sum += index.cost[r].excessNs;
                add(index.cost[r], -1);
            }
            unflaggedOut[p] = index.patternTotal[p] - sum;
        }
        return flagged;
    }
    for (std::size_t p = 0; p < np; ++p) {
        TimeNs sum = 0;
        for (std::uint32_t r = split[p]; r < index.first[p + 1]; ++r) {
            sum += index.cost[r].excessNs;
            add(index.cost[r], 1);
        }
        unflaggedOut[p] = sum;
    }
    return unflagged;
}

}  // namespace contend
