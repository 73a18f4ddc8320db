// The physics of contention patterns (patterns.h: judgeSerialisation): for each factor, how much
// of the time a partner overlapped its runs they lost, against what fair sharing among the
// operators running at once can take; a factor whose runs lost more is serialising them.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <tuple>

#include "core/analysis/findings/patterns.h"
#include "core/common/parallel.h"

namespace contend {

namespace {

// The median of v (the mean of the two middle values for an even count) and the 95%
// distribution-free lower confidence bound of the median (an order statistic), in place: one
// selection for the median, the bound's within the lower half it leaves.
std::pair<double, double> medianAndLowerBound(std::vector<double>& v) {
    if (v.empty()) return {0, 0};
    const std::size_t m = v.size() / 2;
    const auto at = [&](std::size_t k) { return v.begin() + static_cast<std::ptrdiff_t>(k); };
    std::nth_element(v.begin(), at(m), v.end());
    const double hi = v[m];
    const double median = v.size() % 2 == 1 ? hi : (*std::max_element(v.begin(), at(m)) + hi) / 2;
    const double n = static_cast<double>(v.size());
    const auto j = static_cast<std::size_t>(std::max(0.0, std::floor((n - 1.96 * std::sqrt(n)) / 2.0)));
    if (j < m) {
        std::nth_element(v.begin(), at(j), at(m));
    } else if (j > m) {
        std::nth_element(at(m + 1), at(j), v.end());
    }
    return {median, v[j]};
}

// The median of small whole numbers (the mean of the two middle values for an even count), by
// counting.
double medianOfCounts(const std::vector<std::uint32_t>& v) {
    if (v.empty()) return 0;
    std::vector<std::uint32_t> count(*std::max_element(v.begin(), v.end()) + std::size_t{1}, 0);
    for (std::uint32_t x : v) ++count[x];
    // The value of the k-th smallest (0-based).
    auto kth = [&](std::size_t k) {
        std::size_t seen = 0;
        for (std::size_t x = 0; x < count.size(); ++x) {
            seen += count[x];
            if (seen > k) return static_cast<double>(x);
        }
        return static_cast<double>(count.size() - 1);
    };
    const std::size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? kth(m) : (kth(m - 1) + kth(m)) / 2;
}

// Per factor k of a signature: the lost shares and concurrencies of its runs beside.
struct RunsJudged {
    std::array<std::vector<double>, kMaxFactors> lost;
    std::array<std::vector<std::uint32_t>, kMaxFactors> ks;  // 1 + the other tracks overlapped
    std::vector<std::uint32_t> scratch;
    void clear() {
        for (std::size_t k = 0; k < kMaxFactors; ++k) {
            lost[k].clear();
            ks[k].clear();
        }
    }
    // `later`'s runs after these.
    void append(const RunsJudged& later) {
        for (std::size_t k = 0; k < kMaxFactors; ++k) {
            lost[k].insert(lost[k].end(), later.lost[k].begin(), later.lost[k].end());
            ks[k].insert(ks[k].end(), later.ks[k].begin(), later.ks[k].end());
        }
    }
};

// Which of a signature's factors a partner of signature `sig` is a partner of (a partner or
// serialised factor: that signature; a character factor: that character; a counter: any), all
// factors at once: bit k for factor k.
struct FactorBits {
    std::uint32_t always = 0;                                                  // counters
    std::array<std::uint32_t, kCharacterCount> byCharacter{};                  // character factors
    std::array<std::pair<std::uint32_t, std::uint32_t>, kMaxFactors> bySig{};  // (signature, bit)
    std::uint32_t sigFactors = 0;                                              // entries of bySig
    FactorBits(const CauseInputs& in, const SignatureExposure& se, std::uint32_t bits) {
        for (std::uint32_t m = bits; m != 0; m &= m - 1) {
            const auto k = static_cast<std::uint32_t>(__builtin_ctz(m));
            const ExposureFactor& fac = in.exposure.factors[se.factorBegin + k];
            switch (fac.kind) {
            case FactorKind::Partner:
            case FactorKind::Serial: bySig[sigFactors++] = {fac.id, 1u << k}; break;
            case FactorKind::Character:
                if (fac.id < kCharacterCount) byCharacter[fac.id] |= 1u << k;
                break;
            case FactorKind::Counter: always |= 1u << k; break;
            }
        }
    }
    std::uint32_t of(const CauseInputs& in, std::uint32_t sig) const {
        std::uint32_t b = always | byCharacter[static_cast<std::size_t>(in.characters[sig].character)];
        for (std::uint32_t i = 0; i < sigFactors; ++i)
            if (bySig[i].first == sig) b |= bySig[i].second;
        return b;
    }
};

// The runs sigOps[from, to) of signature `se`: each run beside one of `judgedBits`' factors walks
// its overlap partners once for all of them (the union of the matching pairs' spans, one merge
// state per factor: an op's pairs are in start order), then adds its lost share and
// concurrency to each factor whose partners covered at least kMinOverlap of it.
void judgeRuns(const CauseInputs& in, const SignatureExposure& se, std::uint32_t judgedBits, std::uint32_t from,
               std::uint32_t to, RunsJudged& out) {
    const ExposureResult& ex = in.exposure;
    const auto& slices = in.trace.slices();
    const FactorBits match(in, se, judgedBits);
    const OverlapResult& ov = in.overlap;
    // Room for every run of the signature exposed to each factor (at most that many are added,
    // here and by the other half appended after them): grown by doubling, these lists faulted
    // in about twice their size afresh for each large signature.
    for (std::uint32_t m = judgedBits; m != 0; m &= m - 1) {
        const auto k = static_cast<std::uint32_t>(__builtin_ctz(m));
        const std::uint32_t exposed = ex.factors[se.factorBegin + k].exposed;
        out.lost[k].reserve(exposed);
        out.ks[k].reserve(exposed);
    }
    for (std::uint32_t i = from; i < to; ++i) {
        const std::uint32_t op = in.ops.sigOps[i];
        const std::uint32_t mask = ex.exposedMask[op] & judgedBits;
        if (mask == 0) continue;
        const Slice& own = slices[in.ops.slices[op]];
        std::array<TimeNs, kMaxFactors> matched{}, curS{}, curE;
        curE.fill(-1);
        // The partners' tracks, for the concurrency below: a bit each below 64, the rest listed.
        std::uint64_t trackBits = 0;
        out.scratch.clear();
        for (std::uint32_t q = ov.pairBegin[op]; q < ov.pairBegin[op + 1]; ++q) {
            const std::uint32_t other = ov.partnerOf[q];
            const Slice& os = slices[in.ops.slices[other]];
            if (os.track < 64)
                trackBits |= std::uint64_t{1} << os.track;
            else
                out.scratch.push_back(os.track);
            const std::uint32_t bits = match.of(in, in.ops.signatureOf[other]) & mask;
            if (bits == 0) continue;
            // The pair's span: the two ops' shared time (overlap.h).
            const TimeNs start = std::max(own.start, os.start), end = std::min(own.end(), os.end());
            for (std::uint32_t m = bits; m != 0; m &= m - 1) {
                const auto k = static_cast<std::uint32_t>(__builtin_ctz(m));
                if (start > curE[k]) {
                    if (curE[k] > curS[k]) matched[k] += curE[k] - curS[k];
                    curS[k] = start;
                    curE[k] = end;
                } else {
                    curE[k] = std::max(curE[k], end);
                }
            }
        }
        const TimeNs dur = own.dur;
        std::uint32_t tracks = kNone;  // the other tracks it overlapped, once per run
        for (std::uint32_t m = mask; m != 0; m &= m - 1) {
            const auto k = static_cast<std::uint32_t>(__builtin_ctz(m));
            if (curE[k] > curS[k]) matched[k] += curE[k] - curS[k];
            if (dur <= 0 || static_cast<double>(matched[k]) < kMinOverlap * static_cast<double>(dur)) continue;
            out.lost[k].push_back(static_cast<double>(in.base.excessNs[op]) / static_cast<double>(matched[k]));
            if (tracks == kNone) {
                // How many other tracks it overlapped at all.
                std::sort(out.scratch.begin(), out.scratch.end());
                tracks = static_cast<std::uint32_t>(std::unique(out.scratch.begin(), out.scratch.end()) -
                                                    out.scratch.begin()) +
                         static_cast<std::uint32_t>(__builtin_popcountll(trackBits));
            }
            out.ks[k].push_back(1 + tracks);
        }
    }
}

}  // namespace

std::vector<FactorPhysics> judgeSerialisation(const CauseInputs& in, std::uint64_t splitFrom) {
    const ExposureResult& ex = in.exposure;
    std::vector<FactorPhysics> out(ex.factors.size());
    if (!in.ops.deviceScope) return out;
    // The factors judged of signature s (not counters): bit k for factor se.factorBegin + k.
    auto judgedBitsOf = [&](std::size_t s) {
        std::uint32_t judgedBits = 0;
        if (in.characters[s].character == Character::Collective) return judgedBits;
        const SignatureExposure& se = ex.signatures[s];
        for (std::uint32_t k = 0; k < se.factorCount && k < kMaxFactors; ++k)
            if (ex.factors[se.factorBegin + k].kind != FactorKind::Counter) judgedBits |= 1u << k;
        return judgedBits;
    };
    // Signature s's factors from its runs (each signature writes only its own factors).
    auto conclude = [&](std::size_t s, std::uint32_t judgedBits, RunsJudged& runs) {
        const SignatureExposure& se = ex.signatures[s];
        for (std::uint32_t m = judgedBits; m != 0; m &= m - 1) {
            const auto k = static_cast<std::uint32_t>(__builtin_ctz(m));
            FactorPhysics& ph = out[se.factorBegin + k];
            ph.runs = static_cast<std::uint32_t>(runs.lost[k].size());
            if (runs.lost[k].size() < kMinGroup) continue;
            const double kMed = std::max(2.0, std::round(medianOfCounts(runs.ks[k])));
            ph.concurrency = static_cast<std::uint32_t>(kMed);
            ph.fairBound = (kMed - 1) / kMed;
            std::tie(ph.lostShare, ph.lostShareLow) = medianAndLowerBound(runs.lost[k]);
            ph.serialised = ph.lostShareLow > ph.fairBound;
        }
    };
    RunsJudged runs, side;  // side: the second core's
    // Large signatures one after another, each's runs in two halves on the two cores; the others
    // a whole signature at a time to whichever core is free (a real trace has hundreds of small
    // signatures: one after another, they left the second core idle).
    std::uint64_t allRuns = 0;
    for (std::size_t s = 0; s < ex.signatures.size(); ++s)
        if (judgedBitsOf(s) != 0) allRuns += in.ops.sigBegin[s + 1] - in.ops.sigBegin[s];
    const std::uint64_t halvesFrom = std::max<std::uint64_t>(splitFrom, allRuns / 8);
    std::vector<std::uint32_t> small;
    std::uint64_t smallRuns = 0;
    for (std::size_t s = 0; s < ex.signatures.size(); ++s) {
        const std::uint32_t judgedBits = judgedBitsOf(s);
        if (judgedBits == 0) continue;
        const SignatureExposure& se = ex.signatures[s];
        const std::uint32_t b0 = in.ops.sigBegin[s], b1 = in.ops.sigBegin[s + 1];
        if (b1 - b0 < halvesFrom || !twoCores()) {
            small.push_back(static_cast<std::uint32_t>(s));
            smallRuns += b1 - b0;
            continue;
        }
        runs.clear();
        side.clear();
        const std::uint32_t mid = b0 + (b1 - b0) / 2;
        runBeside([&] { judgeRuns(in, se, judgedBits, mid, b1, side); },
                  [&] { judgeRuns(in, se, judgedBits, b0, mid, runs); });
        runs.append(side);
        conclude(s, judgedBits, runs);
    }
    std::atomic<std::size_t> next{0};
    auto judgeSmall = [&](RunsJudged& scratch) {
        for (std::size_t i = next++; i < small.size(); i = next++) {
            const std::uint32_t s = small[i];
            const std::uint32_t judgedBits = judgedBitsOf(s);
            scratch.clear();
            judgeRuns(in, ex.signatures[s], judgedBits, in.ops.sigBegin[s], in.ops.sigBegin[s + 1], scratch);
            conclude(s, judgedBits, scratch);
        }
    };
    if (smallRuns >= splitFrom && twoCores())
        runBeside([&] { judgeSmall(side); }, [&] { judgeSmall(runs); });
    else
        judgeSmall(runs);
    return out;
}

}  // namespace contend
