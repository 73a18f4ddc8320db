#include "core/analysis/findings/causes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "core/common/parallel.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

float finiteOr(float v, float fallback) { return std::isfinite(v) ? v : fallback; }

// What the samples of resource p prove about op's run (ResourceTimeline::bounded): the part of
// it under samples whose lower bound clears the busy mark. Nothing when the resource's counters
// do not resolve the operator (highFrac NaN: sampled too coarsely for it).
ResourceTimeline::Bounded saturation(const CauseInputs& in, std::uint32_t op, std::size_t p) {
    if (!std::isfinite(PressureResult::of(in.pressure.highFrac, op, p))) return {};
    const Slice& s = in.trace.slices()[in.ops.slices[op]];
    return in.timelines.pressure[p].bounded(s.start, s.end());
}

// Whether the sharing of resource index p explains most of op's excess (causes.h,
// kExplainedShare): what its partners' asks take from it at the rate the sharing leaves it is at
// least that share of its excess over the baseline. True when the demands are not all known or
// the counters sample too coarsely for them to say.
bool sharingExplains(const CauseInputs& in, std::uint32_t op, std::size_t p) {
    const TimeNs excess = in.base.excessNs[op];
    if (excess <= 0) return true;
    // The demands come from the same counters: with fewer than kDemandSamples samples within a
    // run, what a run asked for is blurred with what ran before and after it (a 110 us kernel
    // under 100 us samples reads as asking a fraction of its real demand), too rough to overrule
    // its own samples or the pooled ones of 2b.
    const ResourceTimeline& tl = in.timelines.pressure[p];
    const TimeNs dur = in.trace.slices()[in.ops.slices[op]].dur;
    if (tl.empty() || static_cast<double>(tl.medianSpacing()) * kDemandSamples > static_cast<double>(dur)) return true;
    const double loss = sharingLossNs(in.ops, in.overlap, in.pressure, in.trace, op, p);
    return loss < 0 || loss >= kExplainedShare * static_cast<double>(excess);
}

// The measured path (1 and 2 in causes.h). Returns Resource::None when counters do not say.
Resource measuredCause(const CauseInputs& in, std::uint32_t op, PressureArray& credit) {
    const PressureResult& pressure = in.pressure;
    const std::uint32_t sig = in.ops.signatureOf[op];
    const TimeNs dur = std::max<TimeNs>(1, in.trace.slices()[in.ops.slices[op]].dur);
    for (std::size_t p = 0; p < kPressureResources; ++p) {
        const Resource res = kPressureResource[p];
        const float hf = finiteOr(PressureResult::of(pressure.highFrac, op, p), 0);
        const float demand = pressure.demand[sig][p];
        float c = 0;
        if (res == Resource::Cache) {
            const float rise =
                finiteOr(PressureResult::of(pressure.mean, op, p), 0) - usualCachePressure(pressure, sig);
            if (rise >= kCacheRise) c = hf;
            // Per-op hit rate: lower than the signature's usual.
            const float drop = finiteOr(pressure.metricRef[sig][p], 0) -
                               finiteOr(PressureResult::of(pressure.metric, op, p), pressure.metricRef[sig][p]);
            if (std::isfinite(drop) && drop > 0)
                c = std::max(c, std::min(1.0f, drop / static_cast<float>(kMetricMove)));
        } else {
            // Saturation counts against the op only when it uses the resource and the operators
            // beside it asked for more than there was; the share of its run saturated is what
            // the samples prove (a sample that straddles the run's edge counts only when its
            // mean is high enough that the run's part of it must have been busy).
            if (demand >= kUseThreshold && hf > 0 && PressureResult::of(pressure.peakLoad, op, p) >= 1.0 + kOverload &&
                sharingExplains(in, op, p))
                c = static_cast<float>(static_cast<double>(saturation(in, op, p).high) / static_cast<double>(dur));
            const float move =
                finiteOr(PressureResult::of(pressure.metric, op, p), 0) - finiteOr(pressure.metricRef[sig][p], 1);
            if (move > 0) c = std::max(c, std::min(1.0f, move / static_cast<float>(kMetricMove)));
        }
        credit[p] = c;
    }
    std::size_t best = 0;
    for (std::size_t p = 1; p < kPressureResources; ++p)
        if (credit[p] > credit[best]) best = p;
    if (credit[best] >= kMinCredit) return kPressureResource[best];
    const int cu = pressureIndex(Resource::Compute);
    const double overlapFrac = static_cast<double>(in.overlap.overlappedNs[op]) / static_cast<double>(dur);
    if (cu >= 0 && finiteOr(PressureResult::of(pressure.highFrac, op, static_cast<std::size_t>(cu)), 0) >= kMinCredit &&
        overlapFrac >= kMinOverlap)
        return Resource::Queue;
    return Resource::None;
}

bool isCopy(const CauseInputs& in, std::uint32_t op) {
    return isCopySignature(in.trace, in.ops, in.ops.signatureOf[op]);
}

TimeNs sharedTime(const Trace& t, const OperatorSet& ops, std::uint32_t a, std::uint32_t b) {
    const Slice& x = t.slices()[ops.slices[a]];
    const Slice& y = t.slices()[ops.slices[b]];
    return std::max<TimeNs>(0, std::min(x.end(), y.end()) - std::max(x.start, y.start));
}

std::string sigLabel(const CauseInputs& in, std::uint32_t sig) {
    return shortName(in.trace.str(in.ops.signatures[sig].name));
}

std::string characterText(const CauseInputs& in, std::uint32_t sig) {
    const SignatureCharacter& c = in.characters[sig];
    if (c.character == Character::Unknown) return "of unknown character";
    return std::string(characterName(c.character)) + " (" + characterSourceName(c.source) + ")";
}

// One occurrence's overlap with the operators on the other tracks of its device: the union of
// its pairs' spans, sorted.
std::vector<std::pair<TimeNs, TimeNs>> overlapIntervals(const CauseInputs& in, std::uint32_t op) {
    std::vector<std::pair<TimeNs, TimeNs>> iv;
    const OverlapResult& overlap = in.overlap;
    for (std::uint32_t k = overlap.pairBegin[op]; k < overlap.pairBegin[op + 1]; ++k) {
        const auto [start, end] = pairSpan(in.trace, in.ops, op, overlap.partnerOf[k]);
        if (end > start) iv.emplace_back(start, end);
    }
    std::sort(iv.begin(), iv.end());
    std::vector<std::pair<TimeNs, TimeNs>> merged;
    for (const auto& x : iv) {
        if (!merged.empty() && x.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, x.second);
        else
            merged.push_back(x);
    }
    return merged;
}

// 2b in causes.h: pools the samples of every occurrence of each overlap pattern and gives the
// pattern's occurrences that have no measured cause of their own the one the pool proves.
void poolPatterns(const CauseInputs& in, CauseResult& r, const std::function<bool()>& keepGoing) {
    const OperatorSet& ops = in.ops;
    const std::size_t n = ops.size();
    const PressureResult& pressure = in.pressure;
    // Only a utilisation counter's samples can be pooled (the resource loop below): with none,
    // the patterns would change nothing, and finding them is seconds at 10M operators.
    bool anyPoolable = false;
    for (std::size_t p = 0; p < kPressureResources; ++p)
        anyPoolable = anyPoolable || (kPressureResource[p] != Resource::Cache && !in.timelines.pressure[p].empty() &&
                                      pressure.haveCounters[p]);
    if (!anyPoolable) return;
    const std::vector<std::uint32_t> deviceOf = deviceGroups(in.trace, ops);
    std::map<std::vector<std::uint32_t>, std::uint32_t> idOf;  // (device, own sig, partner sigs...)
    std::vector<std::vector<std::uint32_t>> keys;
    std::vector<std::uint32_t> patternOf(n, kNone);
    std::vector<std::uint32_t> members;        // ops with an overlap, in op order
    std::vector<std::uint32_t> partners, key;  // per op, reused
    for (std::uint32_t op = 0; op < n; ++op) {
        if ((op & 0xFFFFu) == 0 && op != 0 && keepGoing && !keepGoing()) return;
        if (in.overlap.pairBegin[op] == in.overlap.pairBegin[op + 1]) continue;
        partners.clear();
        for (std::uint32_t k = in.overlap.pairBegin[op]; k < in.overlap.pairBegin[op + 1]; ++k)
            partners.push_back(ops.signatureOf[in.overlap.partnerOf[k]]);
        std::sort(partners.begin(), partners.end());
        partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
        key.assign({deviceOf[in.trace.slices()[ops.slices[op]].track], ops.signatureOf[op]});
        key.insert(key.end(), partners.begin(), partners.end());
        // try_emplace: a known pattern makes no node (emplace copied the key into one per op).
        auto [it, fresh] = idOf.try_emplace(key, static_cast<std::uint32_t>(keys.size()));
        if (fresh) keys.push_back(key);
        patternOf[op] = it->second;
        members.push_back(op);
    }
    if (keys.empty()) return;
    for (std::size_t p = 0; p < kPressureResources; ++p) {
        const Resource res = kPressureResource[p];
        const ResourceTimeline& tl = in.timelines.pressure[p];
        // The cache timeline is a pressure against the signature's own level (1 in causes.h),
        // not a utilisation whose samples bound an overlap alone.
        if (res == Resource::Cache || tl.empty() || !pressure.haveCounters[p]) continue;
        std::vector<SampleTally> pooled(keys.size());
        std::vector<SampleTally> own(n);
        std::vector<std::uint32_t> reported(keys.size(), kNone);  // index into r.patterns
        for (std::size_t m = 0; m < members.size(); ++m) {
            if ((m & 0xFFFFu) == 0xFFFFu && keepGoing && !keepGoing()) return;
            const std::uint32_t op = members[m];
            if (!std::isfinite(PressureResult::of(pressure.highFrac, op, p))) continue;  // sampled too coarsely for it
            own[op] = tallySamples(tl, overlapIntervals(in, op));
            pooled[patternOf[op]].add(own[op]);
        }
        for (std::uint32_t op : members) {
            if (in.base.excessNs[op] <= 0 || r.provenance[op] == Provenance::Measured) continue;
            const std::uint32_t pat = patternOf[op];
            const std::uint32_t sig = ops.signatureOf[op];
            if (in.characters[sig].character == Character::Collective) continue;  // 3: its peers' time
            if (!patternSaturated(pooled[pat])) continue;
            if (!(pressure.demand[sig][p] >= kUseThreshold) ||
                !(PressureResult::of(pressure.peakLoad, op, p) >= kPatternLoad))
                continue;
            if (!sharingExplains(in, op, p)) continue;
            const SampleTally& mine = own[op];
            if (mine.deciding > 0 && mine.busy < kPatternSaturatedShare * mine.deciding) continue;  // keeps its own
            const TimeNs dur = std::max<TimeNs>(1, in.trace.slices()[ops.slices[op]].dur);
            const double share = static_cast<double>(pooled[pat].busy) / static_cast<double>(pooled[pat].deciding);
            const auto c = static_cast<float>(
                std::min(1.0, static_cast<double>(in.overlap.overlappedNs[op]) / static_cast<double>(dur)) * share);
            if (c < kMinCredit) continue;
            // Another resource's pool may have claimed it already: the larger credit wins.
            if (r.pattern[op] != kNone && r.credit[op][r.patterns[r.pattern[op]].resource] >= c) continue;
            if (reported[pat] == kNone) {
                reported[pat] = static_cast<std::uint32_t>(r.patterns.size());
                r.patterns.push_back(
                    {std::vector<std::uint32_t>(keys[pat].begin() + 1, keys[pat].end()), p, pooled[pat]});
            }
            const std::uint32_t id = reported[pat];
            r.pattern[op] = id;
            r.ownTally[op] = mine;
            r.credit[op][p] = c;
            r.cause[op] = res;
        }
    }
    for (std::uint32_t op = 0; op < n; ++op) {
        if (r.pattern[op] == kNone) continue;
        // (factor keeps the partner its estimate rested on: the windows pair it with that partner.)
        r.provenance[op] = Provenance::Measured;
    }
}

}  // namespace

bool patternSaturated(const SampleTally& t) {
    return t.deciding >= kPatternMinSamples && t.occurrencesBusy >= kPatternMinOccurrences &&
           static_cast<double>(t.busy) >= kPatternSaturatedShare * static_cast<double>(t.deciding);
}

SampleTally tallySamples(const ResourceTimeline& tl, const std::vector<std::pair<TimeNs, TimeNs>>& intervals) {
    SampleTally t;
    // Each sample's span and the part of it the intervals cover, in time order (a sample over
    // two intervals is visited twice, adjacently).
    bool have = false;
    TimeNs lastStart = 0, lastEnd = 0, covered = 0;
    double lastValue = 0;
    auto settle = [&]() {
        if (!have || lastEnd <= lastStart || covered <= 0) return;
        const double f = static_cast<double>(covered) / static_cast<double>(lastEnd - lastStart);
        const double cap = tl.capacity();
        const double lo = std::clamp((lastValue - (1 - f) * cap) / f, 0.0, cap);
        const double hi = std::clamp(lastValue / f, 0.0, cap);
        if (lo >= tl.high()) {
            ++t.busy;
        } else if (hi >= tl.high()) {
            return;  // proves nothing either way
        }
        ++t.deciding;
        if (covered == lastEnd - lastStart) ++t.whole;
    };
    for (const auto& iv : intervals) {
        const TimeNs a = iv.first, b = iv.second;
        tl.forEachSample(a, b, [&](TimeNs s0, TimeNs s1, double v) {
            if (!have || s0 != lastStart) {
                settle();
                have = true;
                lastStart = s0, lastEnd = s1, lastValue = v, covered = 0;
            }
            if (std::isfinite(v))
                covered += std::min(b, s1) - std::max(a, s0);
            else
                covered = 0;
        });
    }
    settle();
    return t;
}

Resource resourceFromCharacters(Character own, Character partner) {
    using C = Character;
    if (own == C::Unknown && partner == C::Unknown) return Resource::Unknown;
    if (own == C::Unknown) own = partner == C::Collective ? C::Memory : partner;
    if (partner == C::Unknown) partner = own;
    switch (own) {
    case C::Memory: return partner == C::Compute ? Resource::Compute : Resource::Bandwidth;
    case C::Compute: return partner == C::Memory ? Resource::Cache : Resource::Compute;
    case C::Collective: return Resource::Sync;
    case C::Unknown: break;
    }
    return Resource::Unknown;
}

double measuredDramUse(const PressureResult& pressure, std::uint32_t sig) {
    const auto bw = static_cast<std::size_t>(pressureIndex(Resource::Bandwidth));
    if (sig >= pressure.demand.size()) return -1;
    const float d = pressure.demand[sig][bw];
    const DemandSource src = pressure.demandSource[sig][bw];
    const bool direct = src == DemandSource::Metric || src == DemandSource::Alone || src == DemandSource::Beside;
    return direct && std::isfinite(d) ? static_cast<double>(d) : -1.0;
}

PairVerdict pairResource(const CauseInputs& in, std::uint32_t sig, std::uint32_t partnerSig, Character partnerChar) {
    PairVerdict v;
    const Character own = in.characters[sig].character;
    v.cause = resourceFromCharacters(own, partnerChar);
    v.ownUse = measuredDramUse(in.pressure, sig);
    // Its data lives on chip: its own DRAM traffic measured at almost nothing, and it is not a
    // compute-bound or collective operator, nor a copy (a copy's own traffic is the memory path
    // by definition: a counter that saw none of it did not resolve it). Asked last: this runs
    // per flagged operator.
    auto onChip = [&] {
        return v.ownUse >= 0 && v.ownUse < kOnChipUse && own != Character::Compute && own != Character::Collective &&
               !isCopySignature(in.trace, in.ops, sig);
    };
    if (partnerSig == kNone) {
        // A kind of partner: nothing measured for it, its character read from the names.
        if (v.cause == Resource::Bandwidth && partnerChar == Character::Memory && onChip()) {
            v.cause = Resource::Cache;
            v.rule = PairRule::OnChipBesideStreamer;
        }
        return v;
    }
    v.partnerUse = measuredDramUse(in.pressure, partnerSig);
    if (v.ownUse < 0 || v.partnerUse < 0) return v;
    if (v.cause == Resource::Unknown && v.ownUse >= kUseThreshold && v.partnerUse >= kUseThreshold) {
        v.cause = Resource::Bandwidth;
        v.rule = PairRule::BothUseDram;
    } else if (v.cause == Resource::Bandwidth && v.ownUse < kUseThreshold && v.partnerUse < kUseThreshold) {
        v.cause = Resource::Unknown;
        v.rule = PairRule::NeitherUsesDram;
    } else if ((v.cause == Resource::Bandwidth || v.cause == Resource::Unknown) && v.partnerUse >= kUseThreshold &&
               onChip()) {
        v.cause = Resource::Cache;
        v.rule = PairRule::OnChipBesideStreamer;
    }
    return v;
}

std::string pairEvidence(const PairVerdict& v) {
    char buf[320];
    switch (v.rule) {
    case PairRule::Characters: return {};
    case PairRule::BothUseDram:
        std::snprintf(buf, sizeof buf,
                      "; the counters measured both moving DRAM traffic of their own (%.0f%% and %.0f%% of the most "
                      "the device shows): the bandwidth they share",
                      100.0 * v.ownUse, 100.0 * v.partnerUse);
        return buf;
    case PairRule::NeitherUsesDram:
        std::snprintf(buf, sizeof buf,
                      "; the names read memory-bound, but the counters measured little DRAM traffic of their own "
                      "(%.0f%% and %.0f%% of the most the device shows): not bandwidth, and what they share the "
                      "trace does not say",
                      100.0 * v.ownUse, 100.0 * v.partnerUse);
        return buf;
    case PairRule::OnChipBesideStreamer: {
        std::snprintf(buf, sizeof buf,
                      "; the counters measured no DRAM traffic of its own to speak of (%.0f%% of the most the device "
                      "shows: its data lives on chip) ",
                      100.0 * v.ownUse);
        std::string s = buf;
        if (v.partnerUse < 0) {
            s += "beside partners whose names read memory-bound: the cache their traffic evicts";
        } else {
            std::snprintf(buf, sizeof buf, "and the partner moving %.0f%%: the cache the partner's traffic evicts",
                          100.0 * v.partnerUse);
            s += buf;
        }
        return s + ", not bandwidth it does not use";
    }
    }
    return {};
}

CauseResult attributeCauses(const CauseInputs& in, const std::function<bool()>& keepGoing, std::uint32_t splitFrom) {
    CauseResult r;
    const OperatorSet& ops = in.ops;
    const std::size_t n = ops.size();
    r.cause.assign(n, Resource::None);
    r.provenance.assign(n, Provenance::Unknown);
    // Credit comes from counters and per-op metrics only: without either every op's is zero and
    // the per-op lists stay empty (36 bytes an operator: 360 MB of fresh pages at 10M kernels).
    const PressureResult& pr = in.pressure;
    const bool anyCredit = std::any_of(pr.haveCounters.begin(), pr.haveCounters.end(), [](bool b) { return b; }) ||
                           std::any_of(pr.haveMetrics.begin(), pr.haveMetrics.end(), [](bool b) { return b; });
    if (anyCredit) r.credit.assign(n, PressureArray{});
    r.factor.assign(n, kNone);
    r.lossRatio.assign(n, std::numeric_limits<float>::quiet_NaN());
    r.pattern.assign(n, kNone);
    if (anyCredit) r.ownTally.assign(n, SampleTally{});
    // Each operator on its own (writes only its own entries): ops [from, to), false when
    // `cancelled` (asked every 64k operators: this pass is seconds at 10M) said stop. From
    // `splitFrom` operators the second half runs on the second core.
    auto attribute = [&](std::uint32_t from, std::uint32_t to, const auto& cancelled) {
        for (std::uint32_t op = from; op < to; ++op) {
            if ((op & 0xFFFFu) == 0 && op != from && cancelled()) return false;
            if (in.base.excessNs[op] <= 0) continue;
            const std::uint32_t sig = ops.signatureOf[op];
            // 1-2: counters that resolve it.
            PressureArray none{};
            if (const Resource m = measuredCause(in, op, anyCredit ? r.credit[op] : none); m != Resource::None) {
                r.cause[op] = m;
                r.provenance[op] = Provenance::Measured;
                continue;
            }
            // 3: a collective's extra time is its peers'.
            if (in.characters[sig].character == Character::Collective) {
                r.cause[op] = Resource::Sync;
                r.provenance[op] = Provenance::Estimated;
                continue;
            }
            // 4: the partner the data links to its slow runs.
            const std::uint32_t f = in.exposure.strongest[op];
            if (f == kNone) {
                r.cause[op] = Resource::Unknown;
                continue;
            }
            const ExposureFactor& fac = in.exposure.factors[f];
            r.factor[op] = f;
            const std::uint32_t partner = in.exposure.partnerOp[op];
            Character partnerChar = Character::Unknown;
            if (partner != kNone) {
                partnerChar = in.characters[ops.signatureOf[partner]].character;
                const TimeNs shared = sharedTime(in.trace, ops, op, partner);
                if (shared > 0)
                    r.lossRatio[op] =
                        static_cast<float>(static_cast<double>(in.base.excessNs[op]) / static_cast<double>(shared));
            } else if (fac.kind == FactorKind::Character) {
                partnerChar = static_cast<Character>(fac.id);
            }
            Resource cause;
            Provenance prov = Provenance::Estimated;
            if (fac.kind == FactorKind::Counter) {
                cause = kPressureResource[fac.id];
                prov = Provenance::Measured;
            } else if (partnerChar != Character::Collective &&
                       (fac.kind == FactorKind::Serial || (in.serialised && (*in.serialised)[f]))) {
                // (A collective beside it shares its units and bandwidth while it moves data: that
                // is contention with communication, below, not a lock.) A copy holds no lock: what
                // it holds is the memory path (DRAM, the copy engines, the host link).
                const bool copyPartner = partner != kNone && isCopy(in, partner);
                cause = copyPartner                         ? Resource::Bandwidth
                        : partnerChar == Character::Compute ? Resource::Queue
                                                            : Resource::Lock;
            } else {
                cause = pairResource(in, sig, partner != kNone ? ops.signatureOf[partner] : kNone, partnerChar).cause;
            }
            r.cause[op] = cause;
            r.provenance[op] = cause == Resource::Unknown ? Provenance::Unknown : prov;
        }
        return true;
    };
    auto mainCancelled = [&] { return keepGoing && !keepGoing(); };
    if (!inHalves(0, static_cast<std::uint32_t>(n), n >= splitFrom && twoCores(), mainCancelled,
                  [&](std::uint32_t from, std::uint32_t to, int, const auto& cancelled) {
                      return attribute(from, to, cancelled);
                  }))
        return r;
    poolPatterns(in, r, keepGoing);
    return r;
}

std::string describeFactor(const CauseInputs& in, std::uint32_t /*sig*/, const ExposureFactor& f) {
    char buf[320];
    std::string who;
    switch (f.kind) {
    case FactorKind::Partner: who = "runs beside " + sigLabel(in, f.id); break;
    case FactorKind::Serial: who = "runs held up until " + sigLabel(in, f.id) + " ended"; break;
    case FactorKind::Character:
        who = std::string("runs beside ") + characterName(static_cast<Character>(f.id)) + " operators";
        break;
    case FactorKind::Counter:
        who = std::string("runs with ") + resourceName(kPressureResource[f.id]) + " oversubscribed";
        break;
    }
    std::snprintf(buf, sizeof buf, "%s: median %s in %u runs vs %s in the %u without (%.2fx, Mann-Whitney p = %.1g)",
                  who.c_str(), formatDuration(f.medianExposedNs).c_str(), f.exposed,
                  formatDuration(f.medianUnexposedNs).c_str(), f.unexposed, f.effect(), f.p);
    return buf;
}

std::string describeCause(const CauseInputs& in, const CauseResult& causes, std::uint32_t op) {
    const OperatorSet& ops = in.ops;
    const PressureResult& pressure = in.pressure;
    const TimeNs dur = in.trace.slices()[ops.slices[op]].dur;
    const double overlapPct =
        100.0 * static_cast<double>(in.overlap.overlappedNs[op]) / static_cast<double>(std::max<TimeNs>(1, dur));
    const std::uint32_t sig = ops.signatureOf[op];
    char buf[320];
    std::string s;
    const Resource c = causes.cause[op];
    const Provenance prov = causes.provenance[op];
    const int p = pressureIndex(c);
    const std::uint32_t f = causes.factor[op];
    if (prov == Provenance::Measured && p >= 0 && (f == kNone || causes.pattern[op] != kNone)) {
        const auto pi = static_cast<std::size_t>(p);
        bool pooled = false;
        if (causes.pattern[op] != kNone) {
            const CauseResult::Pattern& pat = causes.patterns[causes.pattern[op]];
            std::string names;
            for (std::size_t k = 0; k < pat.signatures.size(); ++k)
                names += (k == 0 ? "" : k == 1 ? " x " : ", ") + sigLabel(in, pat.signatures[k]);
            const SampleTally& t = pat.tally;
            const SampleTally& mine = causes.ownTallyOf(op);
            const std::string ownText =
                mine.whole > 0 ? "this occurrence holds " + std::to_string(mine.whole) + " whole sample" +
                                     (mine.whole == 1 ? "" : "s") + ", " + std::to_string(mine.busy) + " of " +
                                     std::to_string(mine.deciding) + " deciding ones busy"
                : mine.deciding > 0 ? "this occurrence holds no whole sample; " + std::to_string(mine.busy) +
                                          " of its " + std::to_string(mine.deciding) + " bounded ones prove it busy"
                                    : "this occurrence holds no whole sample and none that decides";
            std::snprintf(buf, sizeof buf,
                          "measured on the pattern: %s >= %.0f%% in %d of the %d samples that decide it inside "
                          "the overlaps of %d of its %d occurrences (%d wholly inside, %d by their bounds) "
                          "of this overlap (%s); ",
                          resourceName(c), 100.0 * in.timelines.pressure[pi].high(), t.busy, t.deciding,
                          t.occurrencesBusy, t.occurrences, t.whole, t.deciding - t.whole, names.c_str());
            s = buf + ownText;
            pooled = true;
        } else if (c == Resource::Cache && std::isfinite(pressure.hitRateOf(op))) {
            std::snprintf(buf, sizeof buf,
                          "measured: cache thrashed for %.0f%% of its run (hit rate %.0f%% while it ran)",
                          100.0 * causes.creditOf(op)[pi], 100.0 * pressure.hitRateOf(op));
        } else if (std::isfinite(PressureResult::of(pressure.metric, op, pi)) &&
                   std::isfinite(pressure.metricRef[sig][pi]) &&
                   (!std::isfinite(PressureResult::of(pressure.highFrac, op, pi)) ||
                    (PressureResult::of(pressure.metric, op, pi) - pressure.metricRef[sig][pi]) / kMetricMove >=
                        PressureResult::of(pressure.highFrac, op, pi))) {
            std::snprintf(buf, sizeof buf, "measured: its own %s metric moved from %.2f to %.2f", resourceName(c),
                          pressure.metricRef[sig][pi], PressureResult::of(pressure.metric, op, pi));
        } else {
            // Samples that reach beyond the run (coarser than it) give a bound, not the value.
            const ResourceTimeline::Bounded b = saturation(in, op, pi);
            std::string how = "measured";
            if (b.partial && b.highSamples > 0) {
                std::snprintf(buf, sizeof buf,
                              "measured (bounded from %d of the %d samples over its run, which reach beyond it)",
                              b.highSamples, b.samples);
                how = buf;
            }
            std::snprintf(buf, sizeof buf, "%s: %s saturated for %.0f%% of its run (mean %.0f%%, its own use %.0f%%)",
                          how.c_str(), resourceName(c), 100.0 * causes.creditOf(op)[pi],
                          100.0 * finiteOr(PressureResult::of(pressure.mean, op, pi), 0),
                          100.0 * finiteOr(pressure.demand[sig][pi], 0));
        }
        if (!pooled) s = buf;
    } else if (prov == Provenance::Measured && c == Resource::Queue && f == kNone) {
        s = "measured: compute units saturated by other operators while it ran";
    } else if (c == Resource::Sync) {
        s = "estimated: collective operator (" + characterText(in, sig) +
            "): its extra time is waiting for peers, not a local resource";
    } else if (f != kNone) {
        const ExposureFactor& fac = in.exposure.factors[f];
        s = std::string(provenanceName(prov)) + ": " + describeFactor(in, sig, fac);
        const std::uint32_t partner = in.exposure.partnerOp[op];
        const Character own = in.characters[sig].character;
        if (fac.kind == FactorKind::Counter) {
            // The counters' word is the evidence.
        } else if (c == Resource::Lock || c == Resource::Queue ||
                   (c == Resource::Bandwidth && partner != kNone && isCopy(in, partner) &&
                    (fac.kind == FactorKind::Serial || (in.serialised && (*in.serialised)[f])))) {
            std::snprintf(buf, sizeof buf,
                          "; it lost %.0f%% of the time they overlapped, and its runs beside it lose more than fair "
                          "sharing can take (serialised): ",
                          100.0 * std::min(1.0f, finiteOr(causes.lossRatio[op], 1.0f)));
            s += buf;
            s += c == Resource::Queue ? "the compute units the partner held"
                 : c == Resource::Bandwidth
                     ? "the memory path (DRAM, copy engines, host link) the copy held, or the copy's data"
                     : "a lock or unit the partner held";
        } else {
            const std::uint32_t partnerSig = partner != kNone ? ops.signatureOf[partner] : kNone;
            const Character partnerChar = partnerSig != kNone                 ? in.characters[partnerSig].character
                                          : fac.kind == FactorKind::Character ? static_cast<Character>(fac.id)
                                                                              : Character::Unknown;
            const PairVerdict v = pairResource(in, sig, partnerSig, partnerChar);
            if (v.rule != PairRule::Characters) {
                s += pairEvidence(v);
            } else if (c != Resource::Unknown) {
                const std::string other =
                    partnerSig != kNone ? characterText(in, partnerSig) : std::string(characterName(partnerChar));
                s += "; " + characterText(in, sig) + " beside " + other;
                if (c == Resource::Cache && own == Character::Compute)
                    s += ": it barely uses DRAM bandwidth, so the L2 they share is the likely cause";
            } else {
                s += "; neither operator's character is known, so what they shared cannot be told";
            }
        }
    } else {
        const std::uint32_t always = in.exposure.signatures.empty() ? kNone : in.exposure.signatures[sig].alwaysWith;
        if (always != kNone)
            s = "unknown: it ran beside " + sigLabel(in, always) +
                " in (nearly) every run, so the trace has no run without it to compare with";
        else
            s = "unknown: slower than its baseline, but no partner or counter in the trace goes with its slow runs: "
                "look "
                "inside the operator (input size, data-dependent work)";
    }
    std::snprintf(
        buf, sizeof buf, "; overlapped %.0f%% by other tracks; %.2fx its baseline", overlapPct,
        static_cast<double>(dur) / static_cast<double>(std::max<TimeNs>(1, in.base.signatures[sig].baselineNs)));
    return s + buf;
}

}  // namespace contend
