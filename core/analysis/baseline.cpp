#include "core/analysis/baseline.h"

#include <algorithm>
#include <cmath>

namespace contend {

const char* baselineRuleName(BaselineRule r) {
    switch (r) {
    case BaselineRule::Solo: return "solo";
    case BaselineRule::All: return "all";
    case BaselineRule::Few: return "few";
    case BaselineRule::Single: return "single";
    case BaselineRule::Mode: return "mode";
    case BaselineRule::Unsized: return "unsized";
    case BaselineRule::Estimated: return "estimated";
    }
    return "all";
}

TimeNs quantileOf(std::vector<TimeNs>& v, double q) {
    if (v.empty()) return 0;
    q = std::clamp(q, 0.0, 1.0);
    auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    k = k == 0 ? 0 : k - 1;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

TimeNs medianOf(std::vector<TimeNs>& v) {
    if (v.empty()) return 0;
    const std::size_t k = (v.size() - 1) / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    if (v.size() % 2 == 1) return v[k];
    // Even size: the mean of the two middle values (the upper one is the smallest above k).
    const TimeNs upper = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(k) + 1, v.end());
    return v[k] + (upper - v[k]) / 2;
}

namespace {

struct Robust {
    TimeNs median = 0;
    double sigma = 0;   // 1.4826 * MAD * (1 + 1.65 / sqrt(n))
};

Robust robustOf(std::vector<TimeNs> sample, std::vector<TimeNs>& work) {
    Robust r;
    r.median = medianOf(sample);
    work.resize(sample.size());
    for (std::size_t i = 0; i < sample.size(); ++i)
        work[i] = sample[i] >= r.median ? sample[i] - r.median : r.median - sample[i];
    // The MAD of a small sample is itself uncertain (relative standard error about 1.65 /
    // sqrt(n) for normal noise): inflate it by one standard error so a naturally variable
    // operator seen a dozen times is not flagged for an ordinary draw.
    const double n = static_cast<double>(sample.size());
    r.sigma = kMadToSigma * static_cast<double>(medianOf(work)) * (1.0 + kMadSe / std::sqrt(n));
    return r;
}

// The faster of two well-separated groups, when the slower one is the majority. Returns the
// size of the faster group within `sorted` (ascending), or 0 when there is no such split.
std::size_t fastModeSize(const std::vector<TimeNs>& sorted, std::vector<TimeNs>& work) {
    const std::size_t n = sorted.size();
    const auto minFast = std::max<std::size_t>(kMinForMad, static_cast<std::size_t>(std::ceil(kModeMinShare * n)));
    // The faster group must be at most half: otherwise the plain median already sits in it.
    std::size_t best = 0;
    double bestGap = 0;
    for (std::size_t k = minFast; k <= n / 2; ++k) {
        const auto gap = static_cast<double>(sorted[k] - sorted[k - 1]);
        if (gap > bestGap) {
            bestGap = gap;
            best = k;
        }
    }
    if (best == 0) return 0;
    const Robust fast = robustOf(std::vector<TimeNs>(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(best)), work);
    if (bestGap < kModeGap * static_cast<double>(fast.median) || bestGap < 4.0 * fast.sigma) return 0;
    return best;
}

}  // namespace

BaselineResult computeBaselines(const Trace& trace, const OperatorSet& ops, const std::vector<std::uint8_t>& quiet,
                                const BaselineSettings& settings, const std::vector<TimeNs>& soloEstimate) {
    BaselineResult r;
    const std::size_t sigs = ops.signatures.size();
    r.signatures.resize(sigs);
    r.score.assign(ops.size(), 0.0f);
    r.excessNs.assign(ops.size(), 0);
    const auto& slices = trace.slices();
    std::vector<TimeNs> all, solo, estimated, work;
    // A difference the timer cannot resolve is no evidence: never finer than 1 tick.
    const TimeNs absFloor = std::max(settings.absoluteFloorNs, ops.resolutionNs);
    for (std::size_t s = 0; s < sigs; ++s) {
        SignatureBaseline& b = r.signatures[s];
        all.clear();
        solo.clear();
        estimated.clear();
        std::size_t estimates = 0;
        for (std::uint32_t k = ops.sigBegin[s]; k < ops.sigBegin[s + 1]; ++k) {
            const std::uint32_t op = ops.sigOps[k];
            const TimeNs d = slices[ops.slices[op]].dur;
            all.push_back(d);
            b.totalNs += d;
            if (!quiet.empty() && quiet[op]) solo.push_back(d);
            const TimeNs e = soloEstimate.empty() ? -1 : soloEstimate[op];
            estimates += e >= 0;
            estimated.push_back(e >= 0 ? e : d);
        }
        b.count = static_cast<std::uint32_t>(all.size());
        b.soloCount = static_cast<std::uint32_t>(solo.size());
        b.meanNs = b.count ? static_cast<double>(b.totalNs) / b.count : 0.0;
        auto [mn, mx] = std::minmax_element(all.begin(), all.end());
        b.minNs = *mn;
        b.maxNs = *mx;
        b.p95Ns = quantileOf(all, 0.95);
        b.p50Ns = medianOf(all);

        const SignatureKey& key = ops.signatures[s];
        const bool copy = key.opType == "memcpy" || key.opType == "memset" ||
                          slices[ops.slices[ops.sigOps[ops.sigBegin[s]]]].is(kSliceMemory);
        if (copy && key.bytes < 0) {
            b.rule = BaselineRule::Unsized;
            b.baselineNs = b.p50Ns;
            b.scaleNs = std::max<TimeNs>(1, absFloor);
        } else if (b.count == 1) {
            b.rule = BaselineRule::Single;
            b.baselineNs = b.minNs;
            b.scaleNs = std::max<TimeNs>(1, absFloor);
        } else if (b.count < kMinForMad) {
            b.rule = BaselineRule::Few;
            b.baselineNs = b.minNs;
            b.scaleNs = std::max<TimeNs>({1, absFloor, static_cast<TimeNs>(kFewSpread * static_cast<double>(b.minNs))});
        } else {
            const bool useSolo = settings.preferSolo && b.soloCount >= kMinSolo;
            const bool useEstimates = !useSolo && settings.preferSolo && estimates >= kMinSolo;
            std::vector<TimeNs>& sample = useSolo ? solo : useEstimates ? estimated : all;
            b.rule = useSolo ? BaselineRule::Solo : useEstimates ? BaselineRule::Estimated : BaselineRule::All;
            std::sort(sample.begin(), sample.end());
            if (settings.splitModes) {
                if (const std::size_t fast = fastModeSize(sample, work)) {
                    sample.resize(fast);
                    b.rule = BaselineRule::Mode;
                }
            }
            const Robust rb = robustOf(sample, work);
            b.baselineNs = rb.median;
            const double rel = settings.relativeFloor * static_cast<double>(rb.median);
            b.scaleNs = std::max<TimeNs>({1, absFloor, static_cast<TimeNs>(std::llround(rb.sigma)),
                                          static_cast<TimeNs>(std::llround(rel))});
        }
        for (std::uint32_t k = ops.sigBegin[s]; k < ops.sigBegin[s + 1]; ++k) {
            const std::uint32_t op = ops.sigOps[k];
            const TimeNs d = slices[ops.slices[op]].dur;
            // Without a baseline of its own (seen once, or an unsized copy) an occurrence is
            // never slower than it: no excess, score 0.
            const bool judged = b.rule != BaselineRule::Single && b.rule != BaselineRule::Unsized;
            r.excessNs[op] = judged ? d - b.baselineNs : 0;
            r.score[op] = judged ? static_cast<float>(static_cast<double>(d - b.baselineNs) / static_cast<double>(b.scaleNs)) : 0.0f;
        }
    }
    return r;
}

}  // namespace contend
