#pragma once
// The "apart" side of a contention pattern (patterns.h): which runs nothing ran beside.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/findings/causes.h"
#include "core/analysis/findings/pattern_stats.h"

namespace contend {

// Per op: 1 when no operator on another track of its device ran in its first W (its
// signature's exposure window, exposure.h): alone the way exposure is judged, whatever the run's
// length, for the runs at least W long (a partner starting before the window ends and
// overlapping the run is one of its pairs). Only those runs are contrasted (patterns.h): a
// shorter run's window reaches past its end, where what starts may depend on its end (the next
// step of a synchronised schedule) and where its pairs say nothing.
//
// "Overlapped nothing over its whole duration" is not this: a long run is likelier to meet a
// neighbour, so the runs alone were the short ones, and on a trace where the streams overlap at
// random (1M Kineto-shaped kernels, durations 0-20 us, nothing slowed) every kernel read as
// +590% slower beside "compute-bound" than its 99 runs alone, 35% of the run in cost.
std::vector<std::uint8_t> aloneAtStart(const CauseInputs& in);

inline constexpr std::size_t kMatchedSample = 1000;

// Which runs made a factor's "apart" side (patterns.h).
enum class ApartSample : std::uint8_t { Alone, Reference, Rest };

// Whether a run not exposed to the factor is in `sample` (`alone`: aloneAtStart's).
bool inSample(ApartSample sample, const CauseInputs& in, const std::vector<std::uint8_t>& alone, std::uint32_t op);

// The slowdown of a significant candidate with both sides cut where the same runs would be:
// the runs apart at least W long against the runs beside at least W x ratio long, the ratio
// found again until it settles (three rounds at most, on the medians' ratio; the estimate at the
// settled cut thins each side to kMatchedSample). Cutting both at W, as the test does
// (pattern_apart.h), leaves a slower side more of its short runs and the estimate low (-27%
// on log-normal noise with a 20% stretch); under a stretch by r the runs beside that the cut
// at W keeps apart are those at least W x r long. The cut keeps at least the share of the runs
// beside at least W long that the runs apart keep at W (a stretch cannot ask for less; past it
// the settling runs away on a victim whose runs sit on a floor at W). The test's p-value
// stands: the cut depends on the estimate, so only the estimate and its interval are taken
// from it.
//
// One request per significant factor of `signature` (its bit, its apart sample and the test's
// estimate `first`); the estimates in the same order, from one pass over the signature's runs.
struct MatchedRequest {
    std::uint32_t bit = 0;
    ApartSample sample = ApartSample::Alone;
    RatioEstimate first;
};
std::vector<RatioEstimate> matchedEstimates(const CauseInputs& in, const std::vector<std::uint8_t>& aloneOp,
                                            std::uint32_t signature, const std::vector<MatchedRequest>& requests);

// The slowdown of some of a factor's runs beside (`beside`: their durations) against its runs
// apart in `sample`, estimated as matchedEstimates does from their own Hodges-Lehmann estimate
// (no test: p stays 1). What a pattern counts when other patterns count part of its runs
// (patterns.cpp): a kind of partner's pooled slowdown is mostly that of the partners with their
// own patterns, and the runs left to it are those beside the others. On the lab's 5 seeds
// (PyTorch names, counters), "triad beside memory-bound" at its pooled slowdown gave the 813 runs
// it counted 127 ms where they lost 55 (their duration less the mean of the triad's runs
// alone), "copy beside memory-bound" 78 ms where they lost 24. Nothing when fewer than kMinGroup
// runs on either side are at least W long.
std::optional<RatioEstimate> subsetEstimate(const CauseInputs& in, const std::vector<std::uint8_t>& aloneOp,
                                            std::uint32_t signature, std::uint32_t bit, ApartSample sample,
                                            const std::vector<TimeNs>& beside);

}  // namespace contend
