#include "core/analysis/findings/patterns.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <tuple>

#include "core/analysis/findings/pattern_apart.h"
#include "core/analysis/model/pattern_excess.h"
#include "core/analysis/model/resources.h"
#include "core/common/parallel.h"
#include "core/trace/conventions.h"

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

// A baseline that judges its signature (patterns need a baseline and runs to compare).
bool judged(BaselineRule r) {
    return r == BaselineRule::Contrast || r == BaselineRule::All || r == BaselineRule::Estimated;
}

std::string percent(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * x);
    return buf;
}

struct Candidate {
    std::uint32_t signature = 0;
    std::uint32_t factor = 0;  // index into ExposureResult::factors
    std::uint32_t bit = 0;
    std::uint32_t apart = 0;
    std::uint32_t beside = 0;   // compared (at least W long)
    std::uint32_t exposed = 0;  // all its runs beside
    ApartSample sample = ApartSample::Alone;
    RatioEstimate estimate;
};

}  // namespace

namespace {

// Runs of a signature from which judgeSerialisation splits them over two threads.
constexpr std::uint32_t kSplitFrom = 1u << 14;

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

std::vector<FactorPhysics> judgeSerialisation(const CauseInputs& in) {
    const ExposureResult& ex = in.exposure;
    std::vector<FactorPhysics> out(ex.factors.size());
    if (!in.ops.deviceScope) return out;
    RunsJudged runs, side;  // side: the second half of a large signature's runs
    for (std::size_t s = 0; s < ex.signatures.size(); ++s) {
        if (in.characters[s].character == Character::Collective) continue;
        const SignatureExposure& se = ex.signatures[s];
        // The factors judged (not counters): bit k for factor se.factorBegin + k.
        std::uint32_t judgedBits = 0;
        for (std::uint32_t k = 0; k < se.factorCount && k < kMaxFactors; ++k)
            if (ex.factors[se.factorBegin + k].kind != FactorKind::Counter) judgedBits |= 1u << k;
        if (judgedBits == 0) continue;
        runs.clear();
        const std::uint32_t b0 = in.ops.sigBegin[s], b1 = in.ops.sigBegin[s + 1];
        if (b1 - b0 >= kSplitFrom && twoCores()) {
            const std::uint32_t mid = b0 + (b1 - b0) / 2;
            side.clear();
            runBeside([&] { judgeRuns(in, se, judgedBits, mid, b1, side); },
                      [&] { judgeRuns(in, se, judgedBits, b0, mid, runs); });
            runs.append(side);
        } else {
            judgeRuns(in, se, judgedBits, b0, b1, runs);
        }
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
    }
    return out;
}

PatternResult findPatterns(const CauseInputs& in, const CauseResult& causes, const std::vector<FactorPhysics>& physics,
                           std::uint64_t splitFrom) {
    PatternResult r;
    const OperatorSet& ops = in.ops;
    const ExposureResult& ex = in.exposure;
    r.patternOfOp.assign(ops.size(), kNone);
    if (!ops.deviceScope) return r;
    const auto& slices = in.trace.slices();

    const std::vector<std::uint8_t> aloneOp = aloneAtStart(in);

    // Every factor tested: its two samples and the estimate; the signatures in two parts of
    // about as many runs each, on two cores (each part's candidates in signature order, the first
    // part's first).
    std::array<std::vector<Candidate>, 2> part;
    auto runsOf = [&](std::size_t s) { return std::uint64_t{ops.sigBegin[s + 1] - ops.sigBegin[s]}; };
    auto samplesOf = [&](std::size_t s) { return runsOf(s) * ex.signatures[s].factorCount; };
    inWeightedHalves(ex.signatures.size(), splitFrom, samplesOf, [&](std::size_t from, std::size_t to, int half) {
        std::vector<Candidate>& cands = part[half];
        std::vector<TimeNs> beside, apart, rest, alone;
        for (auto s = static_cast<std::uint32_t>(from); s < to; ++s) {
            if (!judged(in.base.signatures[s].rule)) continue;
            const SignatureExposure& se = ex.signatures[s];
            for (std::uint32_t k = 0; k < se.factorCount && k < kMaxFactors; ++k) {
                // A serialised factor picks its runs by where they end (after the partner did): by
                // their duration, so its runs beside are long by construction and no contrast with
                // them is fair. Its verdict still names the runs' cause (causes.h).
                if (ex.factors[se.factorBegin + k].kind == FactorKind::Serial) continue;
                beside.clear();
                apart.clear();
                rest.clear();
                alone.clear();
                std::uint32_t exposed = 0;
                for (std::uint32_t i = ops.sigBegin[s]; i < ops.sigBegin[s + 1]; ++i) {
                    const std::uint32_t op = ops.sigOps[i];
                    const TimeNs d = slices[ops.slices[op]].dur;
                    const bool on = (ex.exposedMask[op] & (1u << k)) != 0;
                    exposed += on ? 1 : 0;
                    if (d < se.windowNs) continue;  // compared: the runs at least W long (pattern_apart.h)
                    if (on) {
                        beside.push_back(d);
                    } else {
                        rest.push_back(d);
                        if (ex.reference[op]) apart.push_back(d);
                        if (aloneOp[op]) alone.push_back(d);
                    }
                }
                // Apart: its runs with nothing beside them in their first W when there are enough
                // of them (no partner, shown or not, in the comparison), else its reference sample,
                // else the rest.
                ApartSample sample = ApartSample::Reference;
                if (alone.size() >= kMinAlone) {
                    apart.swap(alone);
                    sample = ApartSample::Alone;
                } else if (apart.size() < kMinGroup) {
                    apart.swap(rest);
                    sample = ApartSample::Rest;
                }
                if (beside.size() < kMinGroup || apart.size() < kMinGroup) continue;
                Candidate c;
                c.signature = s;
                c.factor = se.factorBegin + k;
                c.bit = k;
                c.apart = static_cast<std::uint32_t>(apart.size());
                c.beside = static_cast<std::uint32_t>(beside.size());
                c.exposed = exposed;
                c.sample = sample;
                c.estimate = hodgesLehmannRatio(beside, apart);
                cands.push_back(c);
            }
        }
    });
    std::vector<Candidate> cands = std::move(part[0]);
    cands.insert(cands.end(), part[1].begin(), part[1].end());
    std::vector<std::uint32_t> byFactor(ex.factors.size(), kNone);  // factor -> its pattern
    std::vector<std::uint32_t> factorOf;                            // pattern -> its factor
    std::vector<std::uint32_t> candidateOf;                         // pattern -> its candidate
    std::vector<double> p(cands.size());
    for (std::size_t i = 0; i < cands.size(); ++i) p[i] = cands[i].estimate.p;
    const std::vector<double> adjusted = fdrAdjust(p);

    // The significant candidates' matched estimates (pattern_apart.h), a signature's together
    // (the candidates come by signature); the signatures' groups in two parts on two cores, each
    // writing its own candidates' estimates.
    std::vector<RatioEstimate> matched(cands.size());
    {
        std::vector<std::pair<std::size_t, std::size_t>> groups;  // [i0, i1): one signature's candidates
        for (std::size_t i0 = 0; i0 < cands.size();) {
            std::size_t i1 = i0;
            while (i1 < cands.size() && cands[i1].signature == cands[i0].signature) ++i1;
            groups.emplace_back(i0, i1);
            i0 = i1;
        }
        auto requestedRuns = [&](std::size_t g) {
            std::uint64_t asked = 0;
            for (std::size_t i = groups[g].first; i < groups[g].second; ++i) asked += adjusted[i] < kPatternFdr;
            return asked * runsOf(cands[groups[g].first].signature);
        };
        inWeightedHalves(groups.size(), splitFrom, requestedRuns, [&](std::size_t from, std::size_t to, int) {
            std::vector<MatchedRequest> requests;
            std::vector<std::size_t> of;
            for (std::size_t g = from; g < to; ++g) {
                requests.clear();
                of.clear();
                for (std::size_t i = groups[g].first; i < groups[g].second; ++i) {
                    if (adjusted[i] >= kPatternFdr) continue;
                    requests.push_back({cands[i].bit, cands[i].sample, cands[i].estimate});
                    of.push_back(i);
                }
                if (requests.empty()) continue;
                const std::vector<RatioEstimate> e =
                    matchedEstimates(in, aloneOp, cands[groups[g].first].signature, requests);
                for (std::size_t k = 0; k < of.size(); ++k) matched[of[k]] = e[k];
            }
        });
    }
    // The patterns, the candidates in two parts of about as many runs each on two cores (a
    // pattern's runs are hundreds of thousands of rows, first touched here), kept in candidate
    // order.
    using Built = std::vector<std::pair<std::uint32_t, ContentionPattern>>;  // (candidate, pattern)
    std::array<Built, 2> built;
    auto runsTested = [&](std::size_t i) { return adjusted[i] < kPatternFdr ? runsOf(cands[i].signature) : 0; };
    inWeightedHalves(cands.size(), splitFrom, runsTested, [&](std::size_t from, std::size_t to, int half) {
        for (std::size_t i = from; i < to; ++i) {
            const Candidate& c = cands[i];
            if (adjusted[i] >= kPatternFdr) continue;
            const RatioEstimate& e = matched[i];
            if (e.low <= 1.0 || e.ratio - 1.0 < kMinEffect) continue;
            const ExposureFactor& fac = ex.factors[c.factor];
            ContentionPattern pat;
            pat.signature = c.signature;
            pat.victim = in.trace.str(ops.signatures[c.signature].name);
            pat.factor = factorKindName(fac.kind);
            pat.slowdown = e.ratio - 1.0;
            pat.slowdownLow = e.low - 1.0;
            pat.slowdownHigh = e.high - 1.0;
            pat.pValue = adjusted[i];
            pat.runsApart = c.apart;
            const Character own = in.characters[c.signature].character;
            Character partnerChar = Character::Unknown;
            if (fac.kind == FactorKind::Partner || fac.kind == FactorKind::Serial) {
                pat.partner = in.trace.str(ops.signatures[fac.id].name);
                partnerChar = in.characters[fac.id].character;
            } else if (fac.kind == FactorKind::Character) {
                partnerChar = static_cast<Character>(fac.id);
                pat.partner = characterName(partnerChar);
            } else {
                pat.partner = std::string("counter: ") + resourceName(kPressureResource[fac.id]);
            }
            // The runs beside, and the measured causes among the slowed ones.
            std::array<std::uint32_t, kResourceCount> measured{};
            std::uint32_t slowed = 0;
            // Their sizes are known: one allocation each (hundreds of thousands of runs grown by
            // doubling were copied and faulted in again and again).
            pat.runs.reserve(c.exposed);
            pat.apartSlices.reserve(c.apart);
            for (std::uint32_t j = ops.sigBegin[c.signature]; j < ops.sigBegin[c.signature + 1]; ++j) {
                const std::uint32_t op = ops.sigOps[j];
                if (!(ex.exposedMask[op] & (1u << c.bit))) {
                    if (slices[ops.slices[op]].dur >= ex.signatures[c.signature].windowNs &&
                        inSample(c.sample, in, aloneOp, op))
                        pat.apartSlices.push_back(ops.slices[op]);
                    continue;
                }
                PatternRun run;
                run.slice = ops.slices[op];
                run.startNs = slices[run.slice].start;
                run.durNs = slices[run.slice].dur;
                run.track = slices[run.slice].track;
                // Its share of the pattern's slowdown (pattern_excess.h), not its own excess over
                // the baseline: that one, clipped, also counts the slow half of the noise.
                run.excessNs = patternRunExcessNs(run.durNs, pat.slowdown);
                pat.costNs += run.excessNs;
                pat.runs.push_back(run);
                if (in.base.excessNs[op] > 0) {
                    ++slowed;
                    if (causes.provenance[op] == Provenance::Measured)
                        ++measured[static_cast<std::size_t>(causes.cause[op])];
                }
            }
            pat.runsBeside = static_cast<std::uint32_t>(pat.runs.size());

            // The cause: physics first, then the counters, then the characters.
            const FactorPhysics& ph = physics[c.factor];
            pat.concurrency = ph.concurrency;
            pat.lostShare = ph.runs >= kMinGroup ? ph.lostShare : -1;
            char buf[256];
            std::snprintf(buf, sizeof buf, "%u runs beside it are %s slower (95%% CI %s to %s) than %u runs apart",
                          c.beside, percent(pat.slowdown).c_str(), percent(pat.slowdownLow).c_str(),
                          percent(pat.slowdownHigh).c_str(), pat.runsApart);
            pat.evidence = buf;
            std::snprintf(buf, sizeof buf, " (p = %.2g, FDR-adjusted (Benjamini-Hochberg) over %zu tests)", pat.pValue,
                          cands.size());
            pat.evidence += buf;
            const auto best = std::max_element(measured.begin(), measured.end());
            if (fac.kind == FactorKind::Counter) {
                pat.cause = kPressureResource[fac.id];
                pat.provenance = Provenance::Measured;
                pat.evidence += "; the counters saw it oversubscribed in their windows";
            } else if (own == Character::Collective) {
                pat.cause = Resource::Sync;
                pat.provenance = Provenance::Estimated;
                pat.evidence += "; a collective's extra time is waiting for its peers";
            } else if (partnerChar != Character::Collective && (fac.kind == FactorKind::Serial || ph.serialised)) {
                const bool copy = (fac.kind == FactorKind::Partner || fac.kind == FactorKind::Serial) &&
                                  isCopySignature(in.trace, ops, fac.id);
                pat.cause = copy                                ? Resource::Bandwidth
                            : partnerChar == Character::Compute ? Resource::Queue
                                                                : Resource::Lock;
                pat.provenance = Provenance::Estimated;
                if (ph.serialised) {
                    std::snprintf(buf, sizeof buf,
                                  "; they lost %s of the time the partner overlapped them (95%% bound %s), beyond the "
                                  "%s that fair sharing among %u running operators can take: serialised",
                                  percent(ph.lostShare).c_str(), percent(ph.lostShareLow).c_str(),
                                  percent(ph.fairBound).c_str(), ph.concurrency);
                    pat.evidence += buf;
                } else {
                    pat.evidence += "; they finished just after the partner did: no progress while it ran";
                }
            } else if (*best * 2 > slowed && slowed > 0) {
                pat.cause = static_cast<Resource>(best - measured.begin());
                pat.provenance = Provenance::Measured;
                std::snprintf(buf, sizeof buf, "; the counters name it for %u of its %u slowed runs", *best, slowed);
                pat.evidence += buf;
            } else {
                const bool kernel = fac.kind == FactorKind::Partner || fac.kind == FactorKind::Serial;
                const PairVerdict v = pairResource(in, c.signature, kernel ? fac.id : kNone, partnerChar);
                pat.cause = v.cause;
                pat.provenance = pat.cause == Resource::Unknown ? Provenance::Unknown : Provenance::Estimated;
                if (v.rule != PairRule::Characters) {
                    pat.evidence += pairEvidence(v);
                } else {
                    pat.evidence += std::string("; ") + characterName(own) + " beside " + characterName(partnerChar);
                    if (pat.cause == Resource::Unknown) pat.evidence += ": nothing in the trace says what they share";
                }
            }
            built[half].emplace_back(static_cast<std::uint32_t>(i), std::move(pat));
        }
    });
    for (Built& b : built)
        for (auto& [i, pat] : b) {
            byFactor[cands[i].factor] = static_cast<std::uint32_t>(r.patterns.size());
            factorOf.push_back(cands[i].factor);
            candidateOf.push_back(i);
            r.patterns.push_back(std::move(pat));
        }
    built = {};

    // One row per set of runs: a kind of partner (or a counter) whose runs beside are exactly a
    // partner's (the same operators every time) says nothing the partner's row does not; the
    // partner's row stays (it names the kernel), then serialised, counter, kind.
    auto factorRank = [](const std::string& factor) {
        return factor == "partner" ? 0 : factor == "serialised" ? 1 : factor == "counter" ? 2 : 3;
    };
    auto sameRuns = [](const ContentionPattern& a, const ContentionPattern& b) {
        if (a.signature != b.signature || a.runs.size() != b.runs.size()) return false;
        for (std::size_t k = 0; k < a.runs.size(); ++k)
            if (a.runs[k].slice != b.runs[k].slice) return false;
        return true;
    };
    std::vector<std::uint8_t> drop(r.patterns.size(), 0);
    for (std::size_t a = 0; a < r.patterns.size(); ++a)
        for (std::size_t b = 0; b < r.patterns.size(); ++b)
            if (a != b && !drop[b] && sameRuns(r.patterns[a], r.patterns[b]) &&
                (factorRank(r.patterns[b].factor) < factorRank(r.patterns[a].factor) ||
                 (factorRank(r.patterns[b].factor) == factorRank(r.patterns[a].factor) && b < a)))
                drop[a] = 1;
    {
        std::vector<ContentionPattern> kept;
        std::vector<std::uint32_t> keptCandidates;
        std::fill(byFactor.begin(), byFactor.end(), kNone);
        for (std::size_t i = 0; i < r.patterns.size(); ++i) {
            if (drop[i]) continue;
            byFactor[factorOf[i]] = static_cast<std::uint32_t>(kept.size());
            kept.push_back(std::move(r.patterns[i]));
            keptCandidates.push_back(candidateOf[i]);
        }
        r.patterns = std::move(kept);
        candidateOf = std::move(keptCandidates);
    }

    // Each run counted in one pattern: its strongest factor's when that is one, else the pattern
    // with the largest slowdown it is beside.
    for (std::uint32_t i = 0; i < r.patterns.size(); ++i) {
        for (const PatternRun& run : r.patterns[i].runs) {
            const std::uint32_t op = ops.opOfSlice[run.slice];
            std::uint32_t& mine = r.patternOfOp[op];
            const std::uint32_t strong = ex.strongest[op] != kNone ? byFactor[ex.strongest[op]] : kNone;
            if (strong != kNone) {
                mine = strong;
            } else if (mine == kNone || r.patterns[i].slowdown > r.patterns[mine].slowdown) {
                mine = i;
            }
        }
    }
    // Each pattern's counted runs and their cost, the patterns in two parts on two cores (each
    // writes only its own patterns).
    auto runsIn = [&](std::size_t i) { return std::uint64_t{r.patterns[i].runs.size()}; };
    inWeightedHalves(r.patterns.size(), splitFrom, runsIn, [&](std::size_t from, std::size_t to, int) {
        for (auto i = static_cast<std::uint32_t>(from); i < to; ++i) {
            ContentionPattern& pat = r.patterns[i];
            pat.countedCostNs = 0;
            std::vector<TimeNs> counted;
            for (PatternRun& run : pat.runs) {
                run.counted = r.patternOfOp[ops.opOfSlice[run.slice]] == i;
                if (run.counted) counted.push_back(run.durNs);
            }
            // Where other patterns count part of its runs, the runs it counts are charged at their own
            // slowdown against its runs apart (pattern_apart.h, subsetEstimate): the pooled estimate
            // is mostly the other patterns' runs. With too few of them to estimate, the pooled one.
            if (!counted.empty() && counted.size() < pat.runs.size()) {
                const Candidate& c = cands[candidateOf[i]];
                if (const auto e = subsetEstimate(in, aloneOp, c.signature, c.bit, c.sample, counted)) {
                    const double s = std::max(0.0, e->ratio - 1.0);
                    pat.costNs = 0;  // still the sum of its runs' excess
                    for (PatternRun& run : pat.runs) {
                        if (run.counted) run.excessNs = patternRunExcessNs(run.durNs, s);
                        pat.costNs += run.excessNs;
                    }
                    char buf[160];
                    std::snprintf(buf, sizeof buf,
                                  "; the %zu runs counted here (the others are counted in patterns of their "
                                  "own) are %s slower, their cost",
                                  counted.size(), percent(s).c_str());
                    pat.evidence += buf;
                }
            }
            for (const PatternRun& run : pat.runs)
                if (run.counted) pat.countedCostNs += run.excessNs;
        }
    });

    // By cost, largest first; ids in that order; patternOfOp follows.
    std::vector<std::uint32_t> order(r.patterns.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return r.patterns[a].costNs > r.patterns[b].costNs; });
    std::vector<std::uint32_t> rank(order.size());
    std::vector<ContentionPattern> sorted;
    sorted.reserve(order.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) {
        rank[order[i]] = i;
        sorted.push_back(std::move(r.patterns[order[i]]));
        sorted.back().id = i;
    }
    r.patterns = std::move(sorted);
    for (std::uint32_t& m : r.patternOfOp)
        if (m != kNone) m = rank[m];
    return r;
}

}  // namespace contend
