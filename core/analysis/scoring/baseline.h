#pragma once
// The robust baseline of each signature and how far each occurrence sits above it.
//
// Rule:
//  * Reference sample: the occurrences exposed to none of the factors the data shows slow the
//    signature down (exposure.h: partners, partner characters, serialisation behind a partner,
//    oversubscribed counters), rule "contrast", when at least kMinSolo remain. With no such
//    factor, every occurrence (rule "all"): durations that do not depend on what runs beside
//    them keep all their occurrences, so a busy device where nothing is shared comes out clean
//    whatever the shape of its distributions. (The reference used to be the "quiet"
//    occurrences, little overlapped: short occurrences are more often quiet, so that baseline
//    sat low and every longer occurrence looked slowed.)
//  * A signature oversubscribed on a resource in (nearly) every occurrence has no uncontended
//    run to compare with: where resolving counters give each occurrence a solo-duration
//    estimate (soloEstimates in pressure.h) and at least kMinSolo have one, the baseline is the
//    median of the estimates (rule "estimated"). Without counters nothing can be told: "all".
//  * Baseline: the median of the reference sample. The median ignores up to half of it being
//    slowed by something no factor caught.
//  * Spread: scale = max(sigma_MAD, sigma_tail, relativeFloor * baseline, absoluteFloorNs, timer
//    resolution: 1 us for traces written in whole microseconds). sigma_MAD = 1.4826 * MAD *
//    (1 + 1.65 / sqrt(n)) (1.4826 * MAD estimates the standard deviation of normal noise; the
//    second factor adds one standard error of the MAD itself, which matters for a signature seen
//    a dozen times). sigma_tail reads the reference's own upper tail, its largest run left out: (q90 - median) / 1.2816
//    with at least 5 occurrences, and also (q99 - median) / 2.326 with at least 100, each what
//    normal noise would give. For normal noise sigma_tail ~ sigma_MAD; for a wide, bimodal or
//    heavy-tailed operator whose slow runs no factor explains it is what keeps its ordinary
//    slow runs from being flagged. The floors keep a very regular operator (MAD near 0) from
//    being flagged for a few percent: with the default 5% floor and coefficient 3 an occurrence
//    must be at least 15% slower than its baseline.
//  * score = (duration - baseline) / scale; occurrences faster than the baseline score <= 0.
//  * Not judged (score 0, never flagged, and said so in the report's notes): a signature seen
//    fewer than kMinForMad times (rule "few": too few runs to tell a slow one from an ordinary
//    one; its fastest run is shown as the baseline), seen once ("single"), a copy or DMA task
//    without a byte count ("unsized": one signature holds transfers of any size, and a long copy
//    is usually a big one), and host slices of a trace with no device operator ("host": what a
//    host function takes depends on what it calls; the analysis has no device to judge).
//    They still take part in overlaps, windows and clusters.
#include <cstdint>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/trace/trace.h"

namespace contend {

enum class BaselineRule : std::uint8_t { Contrast, All, Few, Single, Unsized, Estimated, Host };
// "contrast", "all", "few", "single", "unsized", "estimated", "host"
const char* baselineRuleName(BaselineRule r);

struct BaselineSettings {
    bool preferSolo = true;        // use the reference sample / estimates when there are enough
    bool tailSpread = true;        // sigma_tail (off for the duration-only comparison detector)
    bool judgeFew = false;         // score signatures seen fewer than kMinForMad times (tests)
    bool host = false;             // host scope: nothing is judged (rule "host")
    double relativeFloor = 0.05;   // fraction of the baseline
    TimeNs absoluteFloorNs = 250;  // timer and launch noise of tiny kernels, ns
};

inline constexpr std::uint32_t kMinSolo = 5;
inline constexpr std::uint32_t kMinForMad = 5;
inline constexpr double kFewSpread = 0.25;  // fraction of the fastest occurrence
inline constexpr double kMadToSigma = 1.4826;
inline constexpr double kMadSe = 1.65;            // relative standard error of the MAD * sqrt(n)
inline constexpr std::uint32_t kTailMin = 5;      // occurrences for the q90 tail spread
inline constexpr std::uint32_t kTail99Min = 100;  // occurrences for the q99 tail spread

struct SignatureBaseline {
    TimeNs baselineNs = 0;
    TimeNs scaleNs = 0;  // the spread the score divides by, ns
    TimeNs p50Ns = 0;    // over all occurrences
    TimeNs p95Ns = 0;
    TimeNs minNs = 0;
    TimeNs maxNs = 0;
    TimeNs totalNs = 0;
    double meanNs = 0;
    std::uint32_t count = 0;
    std::uint32_t soloCount = 0;  // occurrences in the reference sample
    BaselineRule rule = BaselineRule::All;
};

struct BaselineResult {
    std::vector<SignatureBaseline> signatures;
    std::vector<float> score;      // per op
    std::vector<TimeNs> excessNs;  // per op: duration - baseline (may be negative; 0 for rules single, unsized)
};

// reference: per op, nonzero when the occurrence is in its signature's reference sample
// (ExposureResult::reference); empty for all of them. contrasted: per signature, nonzero when
// the reference excludes occurrences a factor was shown to slow (empty: none). soloEstimate: per
// op, its estimated solo duration (soloEstimates(), -1 unknown), or empty. inBaseline: per op,
// 0 to keep it out of every sample (a step the capture cut), empty for none; it is still scored.
BaselineResult computeBaselines(const Trace& trace, const OperatorSet& ops, const std::vector<std::uint8_t>& reference,
                                const std::vector<std::uint8_t>& contrasted, const BaselineSettings& settings = {},
                                const std::vector<TimeNs>& soloEstimate = {},
                                const std::vector<std::uint8_t>& inBaseline = {});

// The ops that can be anomalies (score > 0 and slower than the baseline) by score, highest
// first, ties in op order, then the rest in op order; `positive` is how many come first. An
// anomaly list at any non-negative coefficient is a prefix of it. Sorted by radix on (score,
// op) keys: an indirect std::sort missed the cache on every comparison (2% of a 10M analysis).
std::vector<std::uint32_t> opsByScore(const BaselineResult& base, std::size_t& positive);

// Median of v (reorders v); for even sizes the mean of the two middle values.
TimeNs medianOf(std::vector<TimeNs>& v);
// Value at quantile q in [0, 1] of v (reorders v), nearest rank.
TimeNs quantileOf(std::vector<TimeNs>& v, double q);

}  // namespace contend
