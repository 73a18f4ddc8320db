#include "core/analysis/scoring/baseline.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "core/common/radix_sort.h"

namespace contend {

const char* baselineRuleName(BaselineRule r) {
    switch (r) {
    case BaselineRule::Contrast: return "contrast";
    case BaselineRule::All: return "all";
    case BaselineRule::Few: return "few";
    case BaselineRule::Single: return "single";
    case BaselineRule::Host: return "host";
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

std::vector<std::uint32_t> opsByScore(const BaselineResult& base, std::size_t& positive) {
    const auto n = static_cast<std::uint32_t>(base.score.size());
    std::vector<std::uint32_t> out;
    out.reserve(n);
    // A positive float's bits order as its value: (0x7FFFFFFF - bits) above the op's bits sorts
    // ascending as score descending, then op ascending.
    const int opBits = std::bit_width(n);
    std::vector<std::uint64_t> keys, scratch;
    keys.reserve(n);  // room only: pages are touched as keys come
    for (std::uint32_t op = 0; op < n; ++op) {
        const float score = base.score[op];
        if (!(score > 0.0f && base.excessNs[op] > 0)) continue;
        std::uint32_t bits = 0;
        std::memcpy(&bits, &score, sizeof bits);
        keys.push_back((std::uint64_t{0x7FFFFFFFu - bits} << opBits) | op);
    }
    radixSort(keys, scratch);
    scratch = {};
    const std::uint64_t opMask = (std::uint64_t{1} << opBits) - 1;
    for (std::uint64_t k : keys) out.push_back(static_cast<std::uint32_t>(k & opMask));
    positive = keys.size();
    keys = {};
    for (std::uint32_t op = 0; op < n; ++op)
        if (!(base.score[op] > 0.0f && base.excessNs[op] > 0)) out.push_back(op);
    return out;
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
    double sigma = 0;  // 1.4826 * MAD * (1 + 1.65 / sqrt(n))
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

// The reference's upper-tail spread, in the units of a normal sigma (see baseline.h).
double tailSigma(std::vector<TimeNs>& sample, TimeNs median) {
    const std::size_t n = sample.size();
    if (n < kTailMin) return 0.0;
    // Leave the largest run out: in a small sample it is the very run being judged (one slow run
    // among nine would otherwise widen the spread it is measured against).
    std::sort(sample.begin(), sample.end());
    auto rank = [&](double q) {
        const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(n - 1)));
        return sample[std::min(n - 2, k == 0 ? 0 : k - 1)];
    };
    double sigma = static_cast<double>(rank(0.90) - median) / 1.2816;
    if (n >= kTail99Min) sigma = std::max(sigma, static_cast<double>(rank(0.99) - median) / 2.326);
    return std::max(0.0, sigma);
}

}  // namespace

BaselineResult computeBaselines(const Trace& trace, const OperatorSet& ops, const std::vector<std::uint8_t>& reference,
                                const std::vector<std::uint8_t>& contrasted, const BaselineSettings& settings,
                                const std::vector<TimeNs>& soloEstimate, const std::vector<std::uint8_t>& inBaseline) {
    BaselineResult r;
    const std::size_t sigs = ops.signatures.size();
    r.signatures.resize(sigs);
    r.score.assign(ops.size(), 0.0f);
    r.excessNs.assign(ops.size(), 0);
    const auto& slices = trace.slices();
    std::vector<TimeNs> all, ref, estimated, work;
    // A difference the timer cannot resolve is no evidence: never finer than 1 tick.
    const TimeNs absFloor = std::max(settings.absoluteFloorNs, ops.resolutionNs);
    for (std::size_t s = 0; s < sigs; ++s) {
        SignatureBaseline& b = r.signatures[s];
        all.clear();
        ref.clear();
        estimated.clear();
        std::size_t estimates = 0;
        for (std::uint32_t k = ops.sigBegin[s]; k < ops.sigBegin[s + 1]; ++k) {
            const std::uint32_t op = ops.sigOps[k];
            const TimeNs d = slices[ops.slices[op]].dur;
            b.totalNs += d;
            if (!inBaseline.empty() && !inBaseline[op]) continue;
            all.push_back(d);
            if (reference.empty() || reference[op]) ref.push_back(d);
            const TimeNs e = soloEstimate.empty() ? -1 : soloEstimate[op];
            estimates += e >= 0;
            estimated.push_back(e >= 0 ? e : d);
        }
        if (all.empty()) {  // every run in a cut step: judge them on themselves
            for (std::uint32_t k = ops.sigBegin[s]; k < ops.sigBegin[s + 1]; ++k)
                all.push_back(slices[ops.slices[ops.sigOps[k]]].dur);
            ref = all;
        }
        b.count = ops.sigBegin[s + 1] - ops.sigBegin[s];
        const std::size_t runs = all.size();  // in the baseline's samples
        b.soloCount = static_cast<std::uint32_t>(ref.size());
        b.meanNs = b.count ? static_cast<double>(b.totalNs) / b.count : 0.0;
        auto [mn, mx] = std::minmax_element(all.begin(), all.end());
        b.minNs = *mn;
        b.maxNs = *mx;
        b.p95Ns = quantileOf(all, 0.95);
        b.p50Ns = medianOf(all);

        const SignatureKey& key = ops.signatures[s];
        const bool copy = isCopySignature(trace, ops, static_cast<std::uint32_t>(s));
        const bool contrast = !contrasted.empty() && contrasted[s] && b.soloCount >= kMinSolo;
        if (settings.host) {
            b.rule = BaselineRule::Host;
            b.baselineNs = b.p50Ns;
            b.scaleNs = std::max<TimeNs>(1, absFloor);
        } else if (copy && key.bytes < 0) {
            b.rule = BaselineRule::Unsized;
            b.baselineNs = b.p50Ns;
            b.scaleNs = std::max<TimeNs>(1, absFloor);
        } else if (runs == 1) {
            b.rule = BaselineRule::Single;
            b.baselineNs = b.minNs;
            b.scaleNs = std::max<TimeNs>(1, absFloor);
        } else if (runs < kMinForMad) {
            b.rule = BaselineRule::Few;
            b.baselineNs = b.minNs;
            b.scaleNs = std::max<TimeNs>({1, absFloor, static_cast<TimeNs>(kFewSpread * static_cast<double>(b.minNs))});
        } else {
            const bool useRef = settings.preferSolo && contrast;
            // Oversubscribed in (nearly) every run: no uncontended run, but the counters say
            // how long each would have taken alone.
            const bool useEstimates =
                !useRef && settings.preferSolo && estimates >= kMinSolo && estimates + kMinSolo > runs;
            std::vector<TimeNs>& sample = useRef ? ref : useEstimates ? estimated : all;
            b.rule = useRef ? BaselineRule::Contrast : useEstimates ? BaselineRule::Estimated : BaselineRule::All;
            const Robust rb = robustOf(sample, work);
            b.baselineNs = rb.median;
            const double rel = settings.relativeFloor * static_cast<double>(rb.median);
            const double tail = settings.tailSpread && !useEstimates ? tailSigma(sample, rb.median) : 0.0;
            b.scaleNs =
                std::max<TimeNs>({1, absFloor, static_cast<TimeNs>(std::llround(rb.sigma)),
                                  static_cast<TimeNs>(std::llround(tail)), static_cast<TimeNs>(std::llround(rel))});
        }
        const bool judged = b.rule != BaselineRule::Single && b.rule != BaselineRule::Unsized &&
                            b.rule != BaselineRule::Host && (b.rule != BaselineRule::Few || settings.judgeFew);
        for (std::uint32_t k = ops.sigBegin[s]; k < ops.sigBegin[s + 1]; ++k) {
            const std::uint32_t op = ops.sigOps[k];
            const TimeNs d = slices[ops.slices[op]].dur;
            // Not judged: no excess, score 0 (see the rule list in baseline.h).
            r.excessNs[op] = judged ? d - b.baselineNs : 0;
            r.score[op] =
                judged ? static_cast<float>(static_cast<double>(d - b.baselineNs) / static_cast<double>(b.scaleNs))
                       : 0.0f;
        }
    }
    return r;
}

}  // namespace contend
