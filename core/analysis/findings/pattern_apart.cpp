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

// The runs of `signature` not exposed to factor `bit`, in `sample` and at least `w` long.
std::vector<TimeNs> apartRuns(const CauseInputs& in, const std::vector<std::uint8_t>& aloneOp, std::uint32_t signature,
                              std::uint32_t bit, ApartSample sample, TimeNs w) {
    const OperatorSet& ops = in.ops;
    const auto& slices = in.trace.slices();
    std::vector<TimeNs> apart;
    for (std::uint32_t j = ops.sigBegin[signature]; j < ops.sigBegin[signature + 1]; ++j) {
        const std::uint32_t op = ops.sigOps[j];
        const TimeNs d = slices[ops.slices[op]].dur;
        if (d >= w && !(in.exposure.exposedMask[op] & (1u << bit)) && inSample(sample, in, aloneOp, op))
            apart.push_back(d);
    }
    return apart;
}

// The estimate with the runs beside cut at W x ratio, the ratio settled on the medians' ratio
// (linear; three rounds at most), then one Hodges-Lehmann pass at the settled cut, each side
// thinned to kMatchedSample (a million pairs: at 1M kernels, 15 patterns re-estimated at the
// full 2000 x 2000 in three rounds each took 3.7 s). `first` when it says no slowdown or a side
// is too small.
RatioEstimate settled(const std::vector<TimeNs>& beside, const std::vector<TimeNs>& apart, TimeNs w,
                      const RatioEstimate& first) {
    auto median = [](std::vector<TimeNs> v) {
        const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        return static_cast<double>(*mid);
    };
    if (apart.empty() || !(first.ratio > 1.0)) return first;
    const double apartMedian = median(apart);
    if (apartMedian <= 0) return first;
    double ratio = first.ratio;
    std::vector<TimeNs> kept, next;
    for (int round = 0; round < 3; ++round) {
        const auto cut = static_cast<TimeNs>(std::ceil(static_cast<double>(w) * ratio));
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
    RatioEstimate e = hodgesLehmannRatio(kept, apart, kMatchedSample, false);
    e.p = first.p;
    return e;
}

}  // namespace

RatioEstimate matchedEstimate(const CauseInputs& in, const std::vector<std::uint8_t>& aloneOp, std::uint32_t signature,
                              std::uint32_t bit, ApartSample sample, const RatioEstimate& first) {
    const OperatorSet& ops = in.ops;
    const auto& slices = in.trace.slices();
    const TimeNs w = in.exposure.signatures[signature].windowNs;
    std::vector<TimeNs> beside;
    for (std::uint32_t j = ops.sigBegin[signature]; j < ops.sigBegin[signature + 1]; ++j) {
        const std::uint32_t op = ops.sigOps[j];
        const TimeNs d = slices[ops.slices[op]].dur;
        if (d >= w && (in.exposure.exposedMask[op] & (1u << bit))) beside.push_back(d);
    }
    return settled(beside, apartRuns(in, aloneOp, signature, bit, sample, w), w, first);
}

std::optional<RatioEstimate> subsetEstimate(const CauseInputs& in, const std::vector<std::uint8_t>& aloneOp,
                                            std::uint32_t signature, std::uint32_t bit, ApartSample sample,
                                            const std::vector<TimeNs>& beside) {
    const TimeNs w = in.exposure.signatures[signature].windowNs;
    std::vector<TimeNs> compared;
    for (const TimeNs d : beside)
        if (d >= w) compared.push_back(d);
    const std::vector<TimeNs> apart = apartRuns(in, aloneOp, signature, bit, sample, w);
    if (compared.size() < kMinGroup || apart.size() < kMinGroup) return std::nullopt;
    return settled(compared, apart, w, hodgesLehmannRatio(compared, apart, kMatchedSample, false));
}

}  // namespace contend
