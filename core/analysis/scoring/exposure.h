#pragma once
// Which partners slow which signature, as the data shows it: the bias-free reference sample.
//
// For each signature S the question is: are S's occurrences slower when a given factor is present
// than when it is not? Exposure is judged over a fixed window at the start of every occurrence,
// [start, start + W) with W = S's 10th-percentile duration, the same for every occurrence. A
// longer occurrence is therefore not "more exposed" for being long: a per-run overlapped fraction
// is, and a reference sample of "quiet" (little overlapped) occurrences then prefers the short
// ones, sits low, and makes every longer occurrence look slowed (the length bias this replaces).
//
// Factors of S (each a yes/no per occurrence):
//   partner P      an operator of signature P on another track covers >= kExposedShare of W
//   character C    some such partner is of character C (memory-bound, compute-bound,
//                  collective: character.h)
//   serialised P   it ran its last W after an operator of P ended: P was running when it began
//                  and it finished W (+- kSerialTolerance of W) after P did, i.e. it made no
//                  progress while P ran (a lock or a unit P held). This one is chosen by where
//                  the run's own end falls, so long runs land in the band more often: it is a
//                  factor only when the band holds far more runs than the two bands beside it,
//                  twice its width in all (binomial scan test, p < kAlpha against 1/3), which a
//                  smooth spread of end times does not give and a lock does.
//   counter R      (only where R's counter resolves: median sample spacing <= kCoarseSampling *
//                  W) the operators running in the window asked for more of R than there is
//                  (loadDuring >= 1 + kOverload; S uses R: own demand >= kUseThreshold), or for
//                  the cache, its pressure rose kCacheRise above S's own level
// A factor is tested when at least kMinGroup occurrences are exposed and kMinGroup are not; at
// most kMaxFactors per signature, most often exposed first. Test: one-sided Mann-Whitney U
// (exposed slower), normal approximation with tie and continuity corrections. Significant when
// p < kAlpha / (factors tested for S) (Bonferroni) and the exposed median exceeds the unexposed
// median by at least kMinEffect of it and by the timer resolution.
// Reference of S: its occurrences exposed to none of its significant factors. With no significant
// factor every occurrence is in the reference: durations that do not depend on what overlaps
// them keep all their occurrences, whatever the shape of their distribution.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/analysis/inputs/overlap.h"
#include "core/analysis/inputs/resource_timeline.h"
#include "core/analysis/inputs/signatures.h"
#include "core/analysis/scoring/character.h"
#include "core/analysis/scoring/pressure.h"

namespace contend {

inline constexpr double kExposedShare = 0.20;     // of the window W
inline constexpr double kSerialTolerance = 0.15;  // of W
inline constexpr double kWindowQuantile = 0.10;   // W = this quantile of the durations
inline constexpr std::uint32_t kMinGroup = 5;
inline constexpr std::size_t kMaxFactors = 8;
inline constexpr double kAlpha = 0.01;
inline constexpr double kMinEffect = 0.03;

enum class FactorKind : std::uint8_t { Partner, Character, Serial, Counter };
const char* factorKindName(FactorKind k);  // "partner", "character", "serialised", "counter"

struct ExposureFactor {
    FactorKind kind = FactorKind::Partner;
    std::uint32_t id = 0;       // partner signature (Partner, Serial), Character, pressure index
    std::uint32_t exposed = 0;  // occurrences
    std::uint32_t unexposed = 0;
    TimeNs medianExposedNs = 0;
    TimeNs medianUnexposedNs = 0;
    double p = 1;  // one-sided Mann-Whitney p-value
    bool significant = false;
    double effect() const {
        return medianUnexposedNs > 0 ? static_cast<double>(medianExposedNs) / static_cast<double>(medianUnexposedNs)
                                     : 1.0;
    }
};

struct SignatureExposure {
    TimeNs windowNs = 0;
    std::uint32_t factorBegin = 0;  // its factors: factors[factorBegin .. factorBegin + factorCount)
    std::uint32_t factorCount = 0;
    std::uint32_t significant = 0;  // how many of them
    std::uint32_t reference = 0;    // occurrences exposed to none of the significant ones
    // A factor present in (nearly) every occurrence cannot be tested: no occurrence without it
    // to compare with. The most frequent such partner signature, kNone when none.
    std::uint32_t alwaysWith = kNone;
};

struct ExposureResult {
    std::vector<ExposureFactor> factors;  // grouped by signature
    std::vector<SignatureExposure> signatures;
    std::vector<std::uint8_t> reference;  // per op: 1 when in its signature's reference
    // Per op: bit k set when it was exposed to its signature's factor k (k < kMaxFactors).
    std::vector<std::uint8_t> exposedMask;
    // Per op: its strongest significant factor (index into factors), kNone when none; and the
    // partner op behind it (Partner, Serial, Character factors), kNone when none.
    std::vector<std::uint32_t> strongest;
    std::vector<std::uint32_t> partnerOp;
};

// One-sided Mann-Whitney U p-value that `exposed` durations are larger than `unexposed` ones
// (normal approximation, tie and continuity corrected). For tests and for the engine.
double mannWhitneyGreater(const std::vector<TimeNs>& exposed, const std::vector<TimeNs>& unexposed);

// Many such tests between subsets of one set of values (a pattern's runs beside a factor against
// its runs apart, for each of a signature's factors, all among that signature's runs): the values
// are ranked once, and each test is a pass over that order. On 10M Kineto kernels ranking each
// factor's two samples afresh (a radix sort of a million durations each time) was most of the
// patterns' time.
class SubsetRanks {
  public:
    explicit SubsetRanks(const std::vector<TimeNs>& values);
    // mannWhitneyGreater(the values whose group is 1, the values whose group is 2), the others
    // (group 0) left out: the same p to the last bit. `group` has one entry per value.
    double mannWhitneyGreater(const std::vector<std::uint8_t>& group) const;

  private:
    std::vector<TimeNs> m_values;
    std::vector<std::uint32_t> m_order;  // the values' indices by value
};

// keepGoing (optional) is asked every 64k operators; a stop leaves a partial result to discard.
// `timelines` are the ones that may speak for operators (the engine drops coarse ones).
// A signature of `splitFrom` occurrences or more is worked on two threads (with two cores): the
// result is the one of a single thread (tests lower it to force the split on a small trace).
ExposureResult findExposures(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap,
                             const std::vector<SignatureCharacter>& characters, const PressureResult& pressure,
                             const ResourceTimelines& timelines, const std::function<bool()>& keepGoing = {},
                             std::uint32_t splitFrom = std::uint32_t{1} << 14);

}  // namespace contend
