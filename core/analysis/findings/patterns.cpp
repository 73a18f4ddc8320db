#include "core/analysis/findings/patterns.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>
#include <tuple>

#include "core/analysis/findings/pattern_apart.h"
#include "core/analysis/model/pattern_excess.h"
#include "core/analysis/model/resources.h"
#include "core/common/parallel.h"
#include "core/trace/conventions.h"

namespace contend {

namespace {

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
        std::vector<TimeNs> beside, apart, rest, alone, compared;
        std::vector<std::uint8_t> kinds, group;
        constexpr std::uint8_t kOn = 1, kReference = 2, kAlone = 4;
        for (auto s = static_cast<std::uint32_t>(from); s < to; ++s) {
            if (!judged(in.base.signatures[s].rule)) continue;
            const SignatureExposure& se = ex.signatures[s];
            // The runs compared (at least W long), ranked once for all of the signature's tests
            // when the first one is made (exposure.h, SubsetRanks).
            std::optional<SubsetRanks> ranked;
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
                kinds.clear();  // per compared run: kOn, kReference, kAlone
                for (std::uint32_t i = ops.sigBegin[s]; i < ops.sigBegin[s + 1]; ++i) {
                    const std::uint32_t op = ops.sigOps[i];
                    const TimeNs d = slices[ops.slices[op]].dur;
                    const bool on = (ex.exposedMask[op] & (1u << k)) != 0;
                    exposed += on ? 1 : 0;
                    if (d < se.windowNs) continue;  // compared: the runs at least W long (pattern_apart.h)
                    std::uint8_t kind = 0;
                    if (on) {
                        beside.push_back(d);
                        kind = kOn;
                    } else {
                        rest.push_back(d);
                        if (ex.reference[op]) apart.push_back(d), kind |= kReference;
                        if (aloneOp[op]) alone.push_back(d), kind |= kAlone;
                    }
                    kinds.push_back(kind);
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
                // The test over the whole samples off the signature's one ranking; the estimate
                // from the (thinned) samples themselves.
                group.resize(kinds.size());
                const std::uint8_t apartKind = sample == ApartSample::Alone       ? kAlone
                                               : sample == ApartSample::Reference ? kReference
                                                                                  : 0;
                for (std::size_t j = 0; j < kinds.size(); ++j)
                    group[j] = kinds[j] == kOn ? 1 : apartKind == 0 || (kinds[j] & apartKind) != 0 ? 2 : 0;
                if (!ranked) {
                    compared.clear();
                    for (std::uint32_t i = ops.sigBegin[s]; i < ops.sigBegin[s + 1]; ++i) {
                        const TimeNs d = slices[ops.slices[ops.sigOps[i]]].dur;
                        if (d >= se.windowNs) compared.push_back(d);
                    }
                    ranked.emplace(compared);
                }
                c.estimate = hodgesLehmannRatio(beside, apart, kMaxPatternSample, false);
                c.estimate.p = ranked->mannWhitneyGreater(group);
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
