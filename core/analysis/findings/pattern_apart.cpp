#include "core/analysis/findings/pattern_apart.h"

#include <algorithm>
#include <cmath>

namespace contend {

std::vector<std::uint8_t> aloneAtStart(const CauseInputs& in) {
    const OperatorSet& ops = in.ops;
    const auto& slices = in.trace.slices();
    const OverlapResult& ov = in.overlap;
    std::vector<std::uint8_t> alone(ops.size(), 0);
    for (std::uint32_t s = 0; s < in.exposure.signatures.size(); ++s) {
        const TimeNs w = in.exposure.signatures[s].windowNs;
        for (std::uint32_t i = ops.sigBegin[s]; i < ops.sigBegin[s + 1]; ++i) {
            const std::uint32_t op = ops.sigOps[i];
            const TimeNs until = slices[ops.slices[op]].start + w;
            bool quiet = true;
            for (std::uint32_t j = ov.pairBegin[op]; quiet && j < ov.pairBegin[op + 1]; ++j)
                quiet = slices[ops.slices[ov.partnerOf[j]]].start >= until;
            alone[op] = quiet ? 1 : 0;
        }
    }
    return alone;
}

bool inSample(ApartSample sample, const CauseInputs& in, const std::vector<std::uint8_t>& alone, std::uint32_t op) {
    switch (sample) {
    case ApartSample::Alone: return alone[op] != 0;
    case ApartSample::Reference: return in.exposure.reference[op] != 0;
    case ApartSample::Rest: return true;
    }
    return false;
}

namespace {

// A factor's runs apart (not exposed to it, in its sample): those at least W long, and the share
// of the sample they are.
struct ApartRuns {
    std::vector<TimeNs> durs;
    double share = 0;
};

// The estimate with the runs beside (`beside`: those at least W long) cut at W x ratio, the
// ratio settled on the medians' ratio (linear; three rounds at most), then one Hodges-Lehmann
// pass at the settled cut, each side thinned to kMatchedSample (a million pairs: at 1M kernels,
// 15 patterns re-estimated at the full 2000 x 2000 in three rounds each took 3.7 s). `first`
// when it says no slowdown or a side is too small.
//
// The cut keeps at least the share of the runs beside at least W long that the runs apart keep
// at W (`apart.share`). A stretch by r keeps beside at W x r the runs apart keep at W, a share of
// those beside at least W long no smaller than that; a cut past it is the settling running
// away, not a stretch. It did where W (the 10th percentile) sits on a floor most runs share: an
// FMA kernel on the lab's real hardware, 667 us in most runs, was cut above its floor and
// estimated on its slowest runs: "+74% beside the gather" for runs that took 0.8% longer than
// alone.
RatioEstimate settled(const std::vector<TimeNs>& beside, const ApartRuns& apart, TimeNs w, const RatioEstimate& first) {
    auto median = [](std::vector<TimeNs> v) {
        const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        return static_cast<double>(*mid);
    };
    if (apart.durs.empty() || beside.empty() || !(first.ratio > 1.0)) return first;
    const double apartMedian = median(apart.durs);
    if (apartMedian <= 0) return first;
    // The highest cut: the shortest of the longest share of the runs beside.
    const auto keepAtLeast =
        std::min(beside.size(),
                 std::max<std::size_t>(
                     kMinGroup, static_cast<std::size_t>(std::ceil(apart.share * static_cast<double>(beside.size())))));
    std::vector<TimeNs> byLength = beside;
    const auto nth = byLength.begin() + static_cast<std::ptrdiff_t>(byLength.size() - keepAtLeast);
    std::nth_element(byLength.begin(), nth, byLength.end());
    const TimeNs highestCut = *nth;
    double ratio = first.ratio;
    std::vector<TimeNs> kept, next;
    for (int round = 0; round < 3; ++round) {
        const auto cut = std::min(highestCut, static_cast<TimeNs>(std::ceil(static_cast<double>(w) * ratio)));
        next.clear();
        for (const TimeNs d : beside)
            if (d >= cut) next.push_back(d);
        if (next.size() < kMinGroup) break;
        kept.swap(next);
        const double r = std::max(1.0, median(kept) / apartMedian);
        const bool done = std::abs(r - ratio) < 1e-3 * ratio;
        ratio = r;
        if (done) break;
    }
    if (kept.size() < kMinGroup) return first;
    RatioEstimate e = hodgesLehmannRatio(kept, apart.durs, kMatchedSample, false);
    e.p = first.p;
    return e;
}

// One pass over `signature`'s runs fills every request's runs apart and, when `beside` is given,
// its runs beside at least W long (a signature of 100k runs with several significant factors was
// read once per factor, twice each).
std::vector<ApartRuns> collect(const CauseInputs& in, const std::vector<std::uint8_t>& aloneOp, std::uint32_t signature,
                               const std::vector<MatchedRequest>& requests, TimeNs w,
                               std::vector<std::vector<TimeNs>>* beside) {
    const OperatorSet& ops = in.ops;
    const auto& slices = in.trace.slices();
    std::vector<ApartRuns> apart(requests.size());
    std::vector<std::size_t> inSampleCount(requests.size(), 0);
    if (beside) beside->assign(requests.size(), {});
    for (std::uint32_t j = ops.sigBegin[signature]; j < ops.sigBegin[signature + 1]; ++j) {
        const std::uint32_t op = ops.sigOps[j];
        const TimeNs d = slices[ops.slices[op]].dur;
        const std::uint32_t mask = in.exposure.exposedMask[op];
        for (std::size_t k = 0; k < requests.size(); ++k) {
            if (mask & (1u << requests[k].bit)) {
                if (beside && d >= w) (*beside)[k].push_back(d);
            } else if (inSample(requests[k].sample, in, aloneOp, op)) {
                ++inSampleCount[k];
                if (d >= w) apart[k].durs.push_back(d);
            }
        }
    }
    for (std::size_t k = 0; k < requests.size(); ++k)
        apart[k].share =
            inSampleCount[k] ? static_cast<double>(apart[k].durs.size()) / static_cast<double>(inSampleCount[k]) : 0.0;
    return apart;
}

}  // namespace

std::vector<RatioEstimate> matchedEstimates(const CauseInputs& in, const std::vector<std::uint8_t>& aloneOp,
                                            std::uint32_t signature, const std::vector<MatchedRequest>& requests) {
    const TimeNs w = in.exposure.signatures[signature].windowNs;
    std::vector<std::vector<TimeNs>> beside;
    const std::vector<ApartRuns> apart = collect(in, aloneOp, signature, requests, w, &beside);
    std::vector<RatioEstimate> out;
    out.reserve(requests.size());
    for (std::size_t k = 0; k < requests.size(); ++k) out.push_back(settled(beside[k], apart[k], w, requests[k].first));
    return out;
}

std::optional<RatioEstimate> subsetEstimate(const CauseInputs& in, const std::vector<std::uint8_t>& aloneOp,
                                            std::uint32_t signature, std::uint32_t bit, ApartSample sample,
                                            const std::vector<TimeNs>& beside) {
    const TimeNs w = in.exposure.signatures[signature].windowNs;
    std::vector<TimeNs> compared;
    for (const TimeNs d : beside)
        if (d >= w) compared.push_back(d);
    const ApartRuns apart = collect(in, aloneOp, signature, {{bit, sample, {}}}, w, nullptr).front();
    if (compared.size() < kMinGroup || apart.durs.size() < kMinGroup) return std::nullopt;
    return settled(compared, apart, w, hodgesLehmannRatio(compared, apart.durs, kMatchedSample, false));
}

}  // namespace contend
