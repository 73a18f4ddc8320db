#pragma once
// Contention patterns: the systematic cost of running beside a partner, whether or not any single
// run is an outlier, and the physics that names a serialising partner whatever the names say.
//
// A pattern is one of a signature's exposure factors (exposure.h: a partner signature, a partner
// character, serialisation behind a partner, an oversubscribed counter) whose runs beside it are
// slower than its runs apart:
//   runs beside   the signature's runs exposed to the factor;
//   runs apart    its runs that nothing on another track overlapped in their first W (the
//                 signature's exposure window, exposure.h), when there are kMinAlone of them
//                 (no partner, shown to slow it or not, on either side of the comparison; not
//                 "overlapped nothing at all", which picks the short runs: a long run is
//                 likelier to meet a neighbour: pattern_apart.h);
//                 else its reference sample (the runs exposed to none of its significant
//                 factors: baseline.h's rule "contrast"); else, when that holds fewer than
//                 kMinGroup, the runs not exposed to this factor. Both sides are compared over
//                 the runs at least W long, whose window lies inside them; the cost counts
//                 every run beside. A serialised factor (its runs picked by where they end, so
//                 by their duration) is not contrasted;
//   slowdown      the Hodges-Lehmann estimate of the ratio beside / apart (the median of the
//                 pairwise log-ratios, exponentiated), less 1, with its 95% confidence interval
//                 from the Mann-Whitney distribution (the pairwise log-ratios between the
//                 order statistics C and n1 n2 - C + 1, C from the normal approximation); each
//                 side is thinned evenly to at most kMaxPatternSample runs first, and the order
//                 statistics are selected without writing the pairs out (pattern_stats.cpp);
//   p-value       the one-sided Mann-Whitney test beside > apart, adjusted for the false
//                 discovery rate (Benjamini-Hochberg) over every factor the trace tested (all
//                 signatures): a pattern is reported when the adjusted p is below
//                 kPatternFdr (at most 5% of the reported patterns expected false: the
//                 usual false discovery rate; at 1% the lab's real pairs +10-20% slower in
//                 80 runs against 50 alone, p 0.002-0.02, were missed), the interval's low end is
//                 above 0 and the slowdown is at least kMinEffect. (Holm's family-wise bound,
//                 used before, kept every pattern true at the price of missing real ones: on
//                 the lab, pairs +10-30% slower beside a streamer in 90 runs against 50 apart
//                 were missed for a p of 1e-3 among 25-40 tests);
//   cost          the sum over the runs beside of each run's share of the slowdown s,
//                 duration x s / (1 + s) (pattern_excess.h): the time the partner cost them by
//                 the pattern's own estimate. Not (duration - baseline) clipped at 0, which
//                 also counts the slow half of every run's noise. Where patterns of their own
//                 count some of its runs, the runs it counts are charged at their own slowdown
//                 against its runs apart (pattern_apart.h, subsetEstimate).
// Where a kind of partner (or a counter) has exactly a partner's runs beside it, only the
// partner's row is kept (it names the kernel).
// A run beside several patterns is counted in one (its strongest factor's when that is a
// pattern, else the pattern with the largest slowdown): countedCostNs sums those, so the
// summary's totals never count a run twice (summary.h).
//
// Serialisation from physics (the cause of a pattern and of its runs):
//   A resource shared fairly by the k operators running at once gives each at least 1/k of it,
//   so a run that overlapped its partners for time O lost at most O (k - 1) / k to the sharing:
//   its extra time over O (the lost share) is at most (k - 1) / k (1/2 for two streams). A
//   factor's runs that lost more than that, with the 95% distribution-free confidence bound of
//   their median lost share above (k - 1) / k (k the median of 1 + the other tracks each run
//   overlapped), were not sharing: they waited for something the partner held (a lock, or
//   units it would not share). The factor is then serialising, whatever the kernel names say;
//   the cause is lock (queue when the partner is compute-bound, bandwidth when it is a copy,
//   which holds the memory path). Only runs whose partners covered at least kMinOverlap of
//   them count, and at least kMinGroup of them. Fair sharing cannot pass the bound, so a
//   bandwidth or cache pair never reads as serialised however large its slowdown; a lock whose
//   slowdown stays inside the bound is not called one (its cause is then by characters).
#include <cstdint>
#include <vector>

#include "core/analysis/findings/causes.h"
#include "core/analysis/findings/pattern_stats.h"
#include "core/analysis/model/report.h"

namespace contend {

inline constexpr double kPatternFdr = 0.05;     // the false discovery rate a pattern is reported at
inline constexpr std::uint32_t kMinAlone = 10;  // runs beside nothing that make the "apart" side

// The physics of one exposure factor (ExposureResult::factors' order).
struct FactorPhysics {
    std::uint32_t runs = 0;         // runs beside with enough overlap to judge (>= kMinOverlap)
    std::uint32_t concurrency = 0;  // k: median of 1 + the other tracks a run overlapped
    double lostShare = 0;           // median extra time over overlapped time
    double lostShareLow = 0;        // its 95% lower confidence bound
    double fairBound = 0;           // (k - 1) / k
    bool serialised = false;        // lostShareLow > fairBound
};

// Per factor; every factor of a collective or of a counter is left unjudged (serialised false).
// With two cores, from `splitFrom` runs (a test sets it: 1 splits everything, the largest value
// nothing) a signature's runs are judged in two halves (when it also holds an eighth of all the
// runs judged) and the smaller signatures are shared out between the cores; the result is the
// one of a single thread.
std::vector<FactorPhysics> judgeSerialisation(const CauseInputs& in, std::uint64_t splitFrom = 1u << 14);

struct PatternResult {
    std::vector<ContentionPattern> patterns;  // by cost, largest first
    // Per op: the pattern whose countedCostNs holds its excess (index into patterns), kNone.
    std::vector<std::uint32_t> patternOfOp;
};

// The patterns of the prepared analysis (threshold-independent: a report copies them and fills
// unflaggedCostNs). `physics` is judgeSerialisation's; `causes` the per-op causes (a pattern's
// cause is measured when most of its slowed runs have the same measured cause).
// Its four passes (the candidates' estimates, the matched estimates, the patterns' runs, the
// counted runs' cost) each run in two parts on two cores when they hold `splitFrom` runs or more:
// the result is the one of a single thread (tests lower it to force the split).
PatternResult findPatterns(const CauseInputs& in, const CauseResult& causes, const std::vector<FactorPhysics>& physics,
                           std::uint64_t splitFrom = std::uint64_t{1} << 14);

}  // namespace contend
