#pragma once
// Why an occurrence was slower than its baseline, and how that is known.
//
// measured (counters or per-op metrics that resolve the operator):
//   For each resource whose counter resolves it, an occurrence's credit is the fraction of its
//   run during which that resource was saturated (at or above its high threshold), counted only
//   for resources the operator itself uses (own demand >= kUseThreshold) while the operators
//   beside it asked for more than there was (for the cache: only when the cache was more
//   thrashed than in the signature's own runs). A per-op metric that moved against the
//   signature's usual value (aic_mte2_ratio up, L2 hit rate down) also earns credit.
//   Saturation earns credit only where the sharing explains the excess: what the partners'
//   asks take from the op at the rate max-min fair or proportional sharing leaves it (the
//   smaller loss: sharingLossNs, pressure.h, from the demands over each piece of its run) must
//   be at least kExplainedShare of its excess over the baseline. Only where the demands can say:
//   every one known, and the counter sampled at least kDemandSamples times within the run
//   (coarser, a demand read from it is blurred with its neighbours': the simulator's 110 us
//   kernels under 100 us samples read as asking 0.7 and 0.27 of a bandwidth they oversubscribe,
//   and the pooled samples of 2b are the better evidence). An operator slowed by its own cache
//   beside a streamer asking little more DRAM than there is loses little to the sharing, however
//   busy the counter: on the simulator's narrow device its conv2d runs read "measured: bandwidth
//   saturated" where the truth is cache (227 such verdicts in the cache and mixed workloads,
//   seeds 1-3). Such a run goes on to the estimated steps.
//   1. the resource with the largest credit, when it is at least kMinCredit;
//   2. queue: compute units were saturated by others while it ran, and it overlapped them;
//   2b. measured on the pattern, when its own samples cannot say (a ~110 us kernel under 100 us
//   samples rarely holds a whole one): the same overlap (its signature beside the same set of
//   partner signatures on the same device) repeats every iteration at another phase against
//   the sampling clock, so the samples of all its occurrences are pooled. Each sample over an
//   occurrence's overlap (the union of its pairs' spans) proves the overlap's part of it busy
//   (lower bound, ResourceTimeline::bounded's rule, >= the high mark), proves it not busy (upper
//   bound below the mark), or proves nothing; a sample wholly inside is its own value. When
//   >= kPatternMinSamples samples prove it either way, >= kPatternMinOccurrences occurrences
//   hold a busy one, and >= kPatternSaturatedShare of the deciding samples are busy, the
//   resource was saturated in that overlap: each occurrence without a measured cause of its own
//   that uses the resource, whose known demands in the overlap reach kPatternLoad at some moment
//   and whose own deciding samples do not disagree (fewer than kPatternSaturatedShare of them
//   busy keeps its own verdict) gets it as measured, with credit = overlapped share of its run
//   x the busy share of the pattern's samples (>= kMinCredit). The cache is not pooled.
// estimated (exposure.h: its slow runs are the ones beside a partner):
//   3. sync: a collective (NCCL/HCCL): its extra time is waiting for peers, never a neighbour's;
//   4. its strongest significant factor:
//      counter R  -> R (measured: the counters saw R oversubscribed in its window);
//      serialised behind P, or a factor whose runs lost more of the time P overlapped them
//        than fair sharing among the operators running at once can take (patterns.h:
//        judgeSerialisation; the physics, not the names) -> bandwidth when P is a copy or
//        fill (it holds the memory path, not a lock), queue when P is compute-bound (P held
//        the units), else lock; never for a collective P;
//      partner P or character C -> by the two characters (character.h):
//        memory-bound beside memory-bound or a collective -> bandwidth;
//        compute-bound beside compute-bound or a collective -> compute (contention with
//          communication: a collective moves data through DRAM and runs on the SMs);
//        compute-bound beside memory-bound -> cache (a compute-bound operator barely uses DRAM
//          bandwidth, so a streaming neighbour slows it through the L2 they share);
//        memory-bound beside compute-bound -> compute (issue slots and units);
//        one side unknown -> the known side's resource; both unknown -> unknown.
// unknown, with the reason:
//   5. slower than its baseline, but no partner or counter the data links to its slow runs.
// Host scope (no device operators): nothing is judged, so nothing here runs.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/inputs/overlap.h"
#include "core/analysis/model/report.h"
#include "core/analysis/scoring/baseline.h"
#include "core/analysis/scoring/character.h"
#include "core/analysis/scoring/exposure.h"
#include "core/analysis/scoring/pressure.h"

namespace contend {

inline constexpr double kMinCredit = 0.25;
inline constexpr double kExplainedShare = 0.5;  // of the excess the sharing must explain (measured)
inline constexpr double kDemandSamples = 2;     // counter samples within a run for its demands to say
inline constexpr double kMinOverlap = 0.25;
// A per-op metric that moved this much (0..1) from its signature's median earns full credit.
inline constexpr double kMetricMove = 0.15;
// The pattern rule (2b above).
inline constexpr int kPatternMinSamples = 3;
inline constexpr int kPatternMinOccurrences = 2;
inline constexpr double kPatternSaturatedShare = 0.80;
// The load the known demands of the operators in the overlap must reach at some moment of the
// occurrence (PressureResult::peakLoad) for the pattern's saturation to count against it: the
// busy mark (the samples prove the overlap pinned; a 10 kHz mean over a 70 us kernel run alone
// dilutes its own-demand estimate, so the per-op rule's 1 + kOverload would discard most).
inline constexpr double kPatternLoad = kHighUtilization;

// Samples over an overlap that decide whether a resource was saturated in it.
struct SampleTally {
    int busy = 0;             // samples whose part inside the overlap must have been at or above the mark
    int deciding = 0;         // samples that prove it either way (busy, or must have been below it)
    int whole = 0;            // of the deciding ones: samples lying wholly inside the overlap
    int occurrencesBusy = 0;  // occurrences holding at least one busy sample
    int occurrences = 0;      // occurrences of the pattern (for the report)
    void add(const SampleTally& o) {
        busy += o.busy, deciding += o.deciding, whole += o.whole;
        occurrencesBusy += o.busy > 0 ? 1 : 0;
        ++occurrences;
    }
};
// Whether a pattern's pooled samples prove the resource saturated in its overlap (2b above).
bool patternSaturated(const SampleTally& t);
// The tally of resource timeline tl over the disjoint, sorted intervals (one occurrence's
// overlap): a sample reaching over several of them counts once, for its covered share.
SampleTally tallySamples(const ResourceTimeline& tl, const std::vector<std::pair<TimeNs, TimeNs>>& intervals);

struct CauseResult {
    std::vector<Resource> cause;         // per op; None when the op was not slower than its baseline
    std::vector<Provenance> provenance;  // per op
    // Per op, by pressure resource (0..1). Empty when no counter or per-op metric could give any
    // credit (all zero then: 16 bytes an operator not faulted in); read it through creditOf.
    std::vector<PressureArray> credit;
    // Per op: the exposure factor behind an estimated cause (index into ExposureResult::factors),
    // kNone when none; and the loss ratio against its partner (NaN when none).
    std::vector<std::uint32_t> factor;
    std::vector<float> lossRatio;
    // Per op: the pattern (index into patterns) its measured cause was pooled from; kNone when
    // it has its own (or none).
    std::vector<std::uint32_t> pattern;
    // Per op: its own samples of its pooled cause's resource; empty as `credit` is (ownTallyOf).
    std::vector<SampleTally> ownTally;
    const PressureArray& creditOf(std::uint32_t op) const {
        static const PressureArray kNoCredit{};
        return credit.empty() ? kNoCredit : credit[op];
    }
    const SampleTally& ownTallyOf(std::uint32_t op) const {
        static const SampleTally kNoTally{};
        return ownTally.empty() ? kNoTally : ownTally[op];
    }
    struct Pattern {
        std::vector<std::uint32_t> signatures;  // its own first, then the partners' (sorted)
        std::size_t resource = 0;               // pressure index of the pooled resource
        SampleTally tally;
    };
    std::vector<Pattern> patterns;
};

struct CauseInputs {
    const Trace& trace;
    const OperatorSet& ops;
    const BaselineResult& base;
    const OverlapResult& overlap;
    const PressureResult& pressure;
    const ResourceTimelines& timelines;  // the ones that may speak for operators
    const ExposureResult& exposure;
    const std::vector<SignatureCharacter>& characters;
    // Per exposure factor: nonzero when its runs lost more of their overlap than fair sharing can
    // take (patterns.h: judgeSerialisation); null before that is judged.
    const std::vector<std::uint8_t>* serialised = nullptr;
};

// keepGoing (optional) is asked every 64k operators; a stop leaves a partial result to discard.
// From `splitFrom` operators (with two cores) the second half is attributed on another thread:
// the result is the one of a single thread (tests lower it to force the split).
CauseResult attributeCauses(const CauseInputs& in, const std::function<bool()>& keepGoing = {},
                            std::uint32_t splitFrom = std::uint32_t{1} << 16);

// The resource two characters most likely shared (the table above); Unknown when neither is known.
Resource resourceFromCharacters(Character own, Character partner);

// A signature's own DRAM traffic as the counters measured it (pressure.h's bandwidth demand from
// a per-op metric, its runs alone or its runs beside operators of known demand), 0..1 of the
// most the device shows; negative when nothing measured it.
double measuredDramUse(const PressureResult& pressure, std::uint32_t sig);

// The resource a victim of signature `sig` shared with a partner: by the two characters, then
// checked against the counters where they measured both sides' own DRAM traffic (the physics,
// not the names):
//   both move DRAM traffic (>= kUseThreshold each) and the characters say nothing -> bandwidth,
//     the one resource the counters show them both leaning on;
//   neither does (< kUseThreshold each) and the characters say bandwidth -> unknown: two
//     operators that barely touch DRAM do not slow each other through it (kernel names that
//     read memory-bound over a lock or a cache-resident loop), and what they share the trace
//     does not say;
//   it moves no DRAM traffic to speak of (< kOnChipUse: its working set lives on chip), the
//   partner moves plenty (>= kUseThreshold), and the characters say bandwidth or nothing
//   (not for a copy, whose own traffic is the memory path) ->
//   cache: what it could lose beside a streamer is its cached data, which the partner's traffic
//   evicts, not DRAM bandwidth it does not use (a latency-bound gather moves a little DRAM
//   traffic, every access a miss, and keeps its verdict). For a kind of partner (`partnerSig`
//   kNone: nothing measured for it) the same when the kind is memory-bound by the names.
inline constexpr double kOnChipUse = 0.02;  // of the most the device shows: "no DRAM traffic"
enum class PairRule : std::uint8_t { Characters, BothUseDram, NeitherUsesDram, OnChipBesideStreamer };
struct PairVerdict {
    Resource cause = Resource::Unknown;
    PairRule rule = PairRule::Characters;
    double ownUse = -1, partnerUse = -1;  // measuredDramUse of each side
};
PairVerdict pairResource(const CauseInputs& in, std::uint32_t sig, std::uint32_t partnerSig, Character partnerChar);
// The evidence of a verdict the counters decided ("; the counters measured ..."), empty for one
// by the characters.
std::string pairEvidence(const PairVerdict& v);

// One line saying how the cause is known and on what evidence, for the report: "measured: DRAM
// bandwidth saturated for 72% of its run ...", "estimated: 1.6x in the 12 runs beside
// nchw_to_nhwc, 1.0x in the 12 without (p = 3e-05); both memory-bound (name) ...".
std::string describeCause(const CauseInputs& in, const CauseResult& causes, std::uint32_t op);
// The evidence of one exposure factor of signature `sig`, in words (no provenance prefix).
std::string describeFactor(const CauseInputs& in, std::uint32_t sig, const ExposureFactor& f);

}  // namespace contend
