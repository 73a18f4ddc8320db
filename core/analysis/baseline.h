#pragma once
// The robust baseline of each signature and how far each occurrence sits above it.
//
// Rule:
//  * Reference sample: the signature's "quiet" occurrences when it has at least kMinSolo of
//    them, else all of them. Quiet means it ran alone (another track busy for at most
//    kSoloOverlap of its time) or, where counters exist, with nothing over capacity: no
//    resource asked for beyond 1 + kOverload of what it has and the cache no more thrashed
//    than the operator thrashes it alone (see quietOccurrences in pressure.h).
//  * Baseline: the median of the reference sample. The median ignores up to half of the
//    occurrences being slowed, so an operator contended in a minority of steps keeps its
//    uncontended duration. A signature with fewer than kMinSolo quiet occurrences whose
//    occurrences ran oversubscribed (contended in every step: nothing quiet to compare with)
//    takes, per occurrence, its solo duration estimated from the counters (soloEstimates in
//    pressure.h) instead of its duration, when at least kMinSolo have an estimate (rule
//    "estimated"). When the sample splits into two well-separated groups and the
//    slower group is the majority (contended in most steps, e.g. a lock held in 60% of them),
//    the faster group is the reference instead (rule "mode"): contention only ever slows an
//    operator down. Well separated: the faster group holds at least max(kMinForMad, 20%) of
//    the sample, and the gap between the groups is at least kModeGap of the faster group's
//    median and 4 of its spreads.
//  * Spread: scale = max(1.4826 * MAD * (1 + 1.65 / sqrt(n)), relativeFloor * baseline,
//    absoluteFloorNs, timer resolution: 1 us for traces written in whole microseconds), where
//    MAD is the median absolute deviation of the same n reference occurrences (1.4826 * MAD
//    estimates the standard deviation of normal noise; the second factor adds one standard
//    error of the MAD itself, which matters for a signature seen a dozen times). The floors
//    keep a very regular operator (MAD near 0) from being flagged for a few percent of noise:
//    with the default 5% floor and coefficient 3, an occurrence must be at least 15% slower
//    than its baseline.
//  * score = (duration - baseline) / scale; occurrences faster than the baseline score <= 0.
//  * Few occurrences (fewer than kMinForMad): the spread cannot be estimated. The baseline is
//    the fastest occurrence (the least disturbed run seen) and the scale is kFewSpread of it, so
//    at coefficient 3 only a run at least 1.75x the fastest is flagged. A signature seen once
//    has no baseline but itself: score 0, never flagged.
//  * Copies and DMA tasks without a byte count (Ascend SDMA / MEMCPY_ASYNC tasks, a Kineto
//    memcpy without "bytes"): one signature holds transfers of any size, and a long copy is
//    usually a big one, so their durations say nothing about contention (rule "unsized"):
//    score 0, never flagged. They still take part in overlaps, windows and clusters.
#include <cstdint>
#include <vector>

#include "core/analysis/signatures.h"
#include "core/trace/trace.h"

namespace contend {

enum class BaselineRule : std::uint8_t { Solo, All, Few, Single, Mode, Unsized, Estimated };
// "solo", "all", "few", "single", "mode", "unsized", "estimated"
const char* baselineRuleName(BaselineRule r);

struct BaselineSettings {
    bool preferSolo = true;          // use the quiet occurrences when there are enough
    bool splitModes = true;          // the "mode" rule
    double relativeFloor = 0.05;     // fraction of the baseline
    TimeNs absoluteFloorNs = 250;    // timer and launch noise of tiny kernels, ns
};

inline constexpr double kSoloOverlap = 0.10;     // fraction of an occurrence's duration
inline constexpr std::uint32_t kMinSolo = 5;
inline constexpr std::uint32_t kMinForMad = 5;
inline constexpr double kFewSpread = 0.25;       // fraction of the fastest occurrence
inline constexpr double kMadToSigma = 1.4826;
inline constexpr double kMadSe = 1.65;           // relative standard error of the MAD * sqrt(n)
inline constexpr double kModeGap = 0.20;         // of the faster group's median
inline constexpr double kModeMinShare = 0.20;    // of the sample, for the faster group

struct SignatureBaseline {
    TimeNs baselineNs = 0;
    TimeNs scaleNs = 0;       // the spread the score divides by, ns
    TimeNs p50Ns = 0;         // over all occurrences
    TimeNs p95Ns = 0;
    TimeNs minNs = 0;
    TimeNs maxNs = 0;
    TimeNs totalNs = 0;
    double meanNs = 0;
    std::uint32_t count = 0;
    std::uint32_t soloCount = 0;   // quiet occurrences
    BaselineRule rule = BaselineRule::All;
};

struct BaselineResult {
    std::vector<SignatureBaseline> signatures;
    std::vector<float> score;     // per op
    std::vector<TimeNs> excessNs; // per op: duration - baseline (may be negative; 0 for rules single, unsized)
};

// quiet: per op, nonzero when the occurrence ran undisturbed (quietOccurrences()); empty to
// treat none as quiet (the baseline then uses all occurrences). soloEstimate: per op, its
// estimated solo duration (soloEstimates(), -1 unknown), or empty.
BaselineResult computeBaselines(const Trace& trace, const OperatorSet& ops, const std::vector<std::uint8_t>& quiet,
                                const BaselineSettings& settings = {}, const std::vector<TimeNs>& soloEstimate = {});

// Median of v (reorders v); for even sizes the mean of the two middle values.
TimeNs medianOf(std::vector<TimeNs>& v);
// Value at quantile q in [0, 1] of v (reorders v), nearest rank.
TimeNs quantileOf(std::vector<TimeNs>& v, double q);

}  // namespace contend
