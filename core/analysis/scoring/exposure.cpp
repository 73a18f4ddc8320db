#include "core/analysis/scoring/exposure.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "core/analysis/scoring/baseline.h"
#include "core/common/key_counter.h"
#include "core/common/parallel.h"
#include "core/common/radix_sort.h"

namespace contend {

const char* factorKindName(FactorKind k) {
    switch (k) {
    case FactorKind::Partner: return "partner";
    case FactorKind::Character: return "character";
    case FactorKind::Serial: return "serialised";
    case FactorKind::Counter: return "counter";
    }
    return "partner";
}

namespace {

// Rank-sum form of the test: `ranks` are the average ranks (1-based) of all n occurrences,
// `tieTerm` = sum over tie groups of (t^3 - t).
double mannWhitneyFromRanks(double rankSumExposed, double n1, double n2, double tieTerm) {
    const double n = n1 + n2;
    if (n1 < 1 || n2 < 1) return 1.0;
    const double u = rankSumExposed - n1 * (n1 + 1) / 2;
    const double mean = n1 * n2 / 2;
    const double var = n1 * n2 / 12.0 * ((n + 1) - tieTerm / (n * (n - 1)));
    if (!(var > 0)) return 1.0;
    const double z = (u - mean - 0.5) / std::sqrt(var);
    return 0.5 * std::erfc(z / std::sqrt(2.0));
}

// The indices of `values` in value order, as keys (value - min) << 32 | index, when the values
// span less than 2^32 ns and there are fewer than 2^32 of them (radix-sorted: no comparison
// reads `values`); false otherwise. Ties come in index order, which no caller can see: tied
// values share one average rank.
bool keysByValue(const std::vector<TimeNs>& values, std::vector<std::uint64_t>& keys,
                 std::vector<std::uint64_t>& scratch) {
    const std::size_t n = values.size();
    if (n == 0 || n >= (std::size_t{1} << 32)) return false;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const TimeNs min = *lo;
    if (static_cast<std::uint64_t>(*hi) - static_cast<std::uint64_t>(min) >= (std::uint64_t{1} << 32)) return false;
    keys.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        keys[i] = ((static_cast<std::uint64_t>(values[i]) - static_cast<std::uint64_t>(min)) << 32) | i;
    radixSort(keys, scratch);
    return true;
}

// Average ranks of `values` (any order) and the tie term; `keys` and `scratch` are reused.
// `keyed` (optional) tells whether `keys` then hold the values' order (keysByValue).
double averageRanks(const std::vector<TimeNs>& values, std::vector<double>& ranks, std::vector<std::uint64_t>& keys,
                    std::vector<std::uint64_t>& scratch, bool* keyed = nullptr) {
    const std::size_t n = values.size();
    ranks.assign(n, 0.0);
    double tie = 0;
    const bool byKeys = keysByValue(values, keys, scratch);
    if (keyed) *keyed = byKeys;
    if (byKeys) {
        // Tie groups in ascending value order, as below (the tie term's sum is in that order).
        for (std::size_t i = 0; i < n;) {
            const std::uint64_t v = keys[i] >> 32;
            std::size_t j = i + 1;
            while (j < n && (keys[j] >> 32) == v) ++j;
            const double r = (static_cast<double>(i) + static_cast<double>(j) + 1) / 2;  // mean of ranks i+1..j
            for (std::size_t k = i; k < j; ++k) ranks[keys[k] & 0xFFFFFFFFu] = r;
            const double t = static_cast<double>(j - i);
            tie += t * t * t - t;
            i = j;
        }
        return tie;
    }
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return values[a] < values[b]; });
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && values[order[j]] == values[order[i]]) ++j;
        const double r = (static_cast<double>(i) + static_cast<double>(j) + 1) / 2;  // mean of ranks i+1..j
        for (std::size_t k = i; k < j; ++k) ranks[order[k]] = r;
        const double t = static_cast<double>(j - i);
        tie += t * t * t - t;
        i = j;
    }
    return tie;
}

// medianOf (baseline.h) of the values of each group, group 0 (`mask[i] & bit` == 0, n0 of them)
// and group 1 (n1), read off `keys` (keysByValue's order of `values`): the same order
// statistics, one pass instead of two selections.
std::pair<TimeNs, TimeNs> groupMedians(const std::vector<std::uint64_t>& keys, const std::vector<std::uint8_t>& mask,
                                       std::uint8_t bit, const std::vector<TimeNs>& values, std::uint32_t n0,
                                       std::uint32_t n1) {
    const std::array<std::uint32_t, 2> n{n0, n1};
    std::array<std::uint32_t, 2> at{}, seen{};
    std::array<TimeNs, 2> lo{}, hi{};
    for (int g = 0; g < 2; ++g) at[g] = n[g] == 0 ? 0 : (n[g] - 1) / 2;
    for (std::uint64_t key : keys) {
        const auto i = static_cast<std::uint32_t>(key & 0xFFFFFFFFu);
        const std::uint8_t g = (mask[i] & bit) != 0 ? 1 : 0;
        const std::uint32_t pos = seen[g]++;
        if (pos == at[g]) lo[g] = values[i];
        if (pos == at[g] + 1) {
            hi[g] = values[i];
            if (seen[1 - g] > at[1 - g] + 1) break;  // both groups' statistics are read
        }
    }
    std::array<TimeNs, 2> med{};
    for (int g = 0; g < 2; ++g) {
        if (n[g] == 0) continue;
        med[g] = n[g] % 2 == 1 ? lo[g] : lo[g] + (hi[g] - lo[g]) / 2;
    }
    return {med[0], med[1]};
}

std::uint64_t keyOf(FactorKind k, std::uint32_t id) { return (static_cast<std::uint64_t>(k) << 32) | id; }

// Not a factor: the runs whose time after P ended fell just outside the serialised band, for the
// band's scan test (see findExposures).
constexpr std::uint32_t kSerialSideKind = 15;
std::uint64_t sideKeyOf(std::uint32_t partnerSig) {
    return (static_cast<std::uint64_t>(kSerialSideKind) << 32) | partnerSig;
}

// P(X >= k) for X ~ Binomial(n, p).
double binomialTail(std::uint32_t k, std::uint32_t n, double p) {
    if (k == 0) return 1.0;
    double sum = 0;
    for (std::uint32_t i = k; i <= n; ++i)
        sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + i * std::log(p) +
                        (n - i) * std::log1p(-p));
    return std::min(1.0, sum);
}

// Occurrences of a signature below which its factors may be tested on two threads: the rank
// sums (half-integers below 2^51) of two halves add up exactly, as the single pass's do.
constexpr std::uint32_t kSplitBelow = 1u << 26;

// Per factor of a signature, over some of its occurrences: how many were exposed and the sum of
// their ranks.
struct FactorSums {
    std::array<std::uint32_t, kMaxFactors> exposed{};
    std::array<double, kMaxFactors> rankSum{};
};

// The factors each occurrence of a signature was exposed to. Which partner stood behind a key
// is found again for the few occurrences that need it (partnerFor in findExposures): kept per
// key, it was 12 of every 20 bytes of this scratch (1.8 GB of fresh pages at 10M kernels).
struct OccurrenceKeys {
    std::vector<std::uint64_t> keys;      // per occurrence's keys, flat
    std::vector<std::uint32_t> keyBegin;  // CSR into keys, per occurrence (starts with 0)
    void reserve(std::size_t keyCount, std::size_t occurrences) {
        keys.reserve(keyCount);
        keyBegin.reserve(occurrences + 1);
    }
    void clear() {
        keys.clear();
        keyBegin.assign(1, 0);
    }
};

}  // namespace

double mannWhitneyGreater(const std::vector<TimeNs>& exposed, const std::vector<TimeNs>& unexposed) {
    std::vector<TimeNs> all(exposed);
    all.insert(all.end(), unexposed.begin(), unexposed.end());
    std::vector<double> ranks;
    std::vector<std::uint64_t> keys, scratch;
    const double tie = averageRanks(all, ranks, keys, scratch);
    double r1 = 0;
    for (std::size_t i = 0; i < exposed.size(); ++i) r1 += ranks[i];
    return mannWhitneyFromRanks(r1, static_cast<double>(exposed.size()), static_cast<double>(unexposed.size()), tie);
}

SubsetRanks::SubsetRanks(const std::vector<TimeNs>& values) : m_values(values) {
    std::vector<std::uint64_t> keys, scratch;
    if (keysByValue(values, keys, scratch)) {
        m_order.resize(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i) m_order[i] = static_cast<std::uint32_t>(keys[i] & 0xFFFFFFFFu);
        return;
    }
    m_order.resize(values.size());
    std::iota(m_order.begin(), m_order.end(), 0u);
    std::sort(m_order.begin(), m_order.end(), [&](std::uint32_t a, std::uint32_t b) { return values[a] < values[b]; });
}

double SubsetRanks::mannWhitneyGreater(const std::vector<std::uint8_t>& group) const {
    // averageRanks over the values kept, read off the one order: each tie group (equal values,
    // the kept ones among them) in ascending value order, as there. The rank sum is a sum of
    // half-integers, exact in any order while it stays below 2^52 (below kSplitBelow values);
    // beyond, the two samples are ranked as mannWhitneyGreater ranks them.
    const std::size_t n = m_order.size();
    if (n >= kSplitBelow) {
        std::vector<TimeNs> exposedValues, unexposedValues;
        for (std::size_t i = 0; i < n; ++i)
            if (group[i] != 0) (group[i] == 1 ? exposedValues : unexposedValues).push_back(m_values[i]);
        return contend::mannWhitneyGreater(exposedValues, unexposedValues);
    }
    double r1 = 0, tie = 0;
    std::uint64_t n1 = 0, n2 = 0, ranked = 0;
    for (std::size_t i = 0; i < n;) {
        const TimeNs v = m_values[m_order[i]];
        std::uint64_t kept = 0, exposed = 0;
        for (; i < n && m_values[m_order[i]] == v; ++i) {
            const std::uint8_t g = group[m_order[i]];
            kept += g != 0;
            exposed += g == 1;
        }
        if (kept == 0) continue;
        const double r = (static_cast<double>(ranked) + static_cast<double>(ranked + kept) + 1) / 2;
        r1 += static_cast<double>(exposed) * r;
        const double t = static_cast<double>(kept);
        tie += t * t * t - t;
        ranked += kept;
        n1 += exposed;
        n2 += kept - exposed;
    }
    return mannWhitneyFromRanks(r1, static_cast<double>(n1), static_cast<double>(n2), tie);
}

ExposureResult findExposures(const Trace& trace, const OperatorSet& ops, const OverlapResult& overlap,
                             const std::vector<SignatureCharacter>& characters, const PressureResult& pressure,
                             const ResourceTimelines& timelines, const std::function<bool()>& keepGoing,
                             std::uint32_t splitFrom) {
    ExposureResult r;
    const std::size_t n = ops.size();
    r.reference.assign(n, 1);
    r.exposedMask.assign(n, 0);
    r.strongest.assign(n, kNone);
    r.partnerOp.assign(n, kNone);
    r.signatures.resize(ops.signatures.size());
    if (!ops.deviceScope) return r;
    const auto& slices = trace.slices();
    const TimeNs resolution = std::max<TimeNs>(1, ops.resolutionNs);

    // Scratch, reused across signatures.
    std::vector<TimeNs> durs, work;
    OccurrenceKeys occ, side;  // side: the second half of a large signature's occurrences
    KeyCounter counter;
    std::vector<double> ranks;
    std::vector<std::uint64_t> rankKeys, rankScratch;
    std::vector<std::uint8_t> maskOf;
    std::vector<TimeNs> ex, un;
    std::uint32_t tick = 0;
    // Room for the largest signature once, on this thread, where what the side thread allocated
    // would stay with its malloc arena (an occurrence has at most three keys a pair and one a
    // counter; room never touched costs no pages): grown signature after signature, each growth
    // was faulted afresh.
    std::size_t maxKeys = 0, maxCount = 0;
    for (std::size_t s = 0; s < ops.signatures.size(); ++s) {
        std::size_t k = 0;
        for (std::uint32_t j = ops.sigBegin[s]; j < ops.sigBegin[s + 1]; ++j) {
            const std::uint32_t op = ops.sigOps[j];
            k += 3 * std::size_t{overlap.pairBegin[op + 1] - overlap.pairBegin[op]} + kPressureResources;
        }
        maxKeys = std::max(maxKeys, k);
        maxCount = std::max<std::size_t>(maxCount, ops.sigBegin[s + 1] - ops.sigBegin[s]);
    }
    for (OccurrenceKeys* o : {&occ, &side}) o->reserve(maxKeys, maxCount);
    for (std::vector<std::uint64_t>* v : {&rankKeys, &rankScratch}) v->reserve(maxCount);
    for (std::vector<TimeNs>* v : {&durs, &work}) v->reserve(maxCount);
    ranks.reserve(maxCount);
    maskOf.reserve(maxCount);

    for (std::size_t s = 0; s < ops.signatures.size(); ++s) {
        SignatureExposure& se = r.signatures[s];
        se.factorBegin = static_cast<std::uint32_t>(r.factors.size());
        const std::uint32_t b0 = ops.sigBegin[s], b1 = ops.sigBegin[s + 1];
        const std::uint32_t count = b1 - b0;
        se.reference = count;
        if (count < 2 * kMinGroup) continue;
        durs.clear();
        for (std::uint32_t k = b0; k < b1; ++k) durs.push_back(slices[ops.slices[ops.sigOps[k]]].dur);
        work = durs;
        const TimeNs w = std::max<TimeNs>(resolution, quantileOf(work, kWindowQuantile));
        se.windowNs = w;
        const TimeNs minCover = std::max<TimeNs>(1, static_cast<TimeNs>(kExposedShare * static_cast<double>(w)));
        const TimeNs serialTol =
            std::max<TimeNs>(resolution, static_cast<TimeNs>(kSerialTolerance * static_cast<double>(w)));

        // Counter factors this signature can be judged on.
        std::array<bool, kPressureResources> counterOk{};
        for (std::size_t p = 0; p < kPressureResources; ++p) {
            const ResourceTimeline& tl = timelines.pressure[p];
            if (tl.empty() || static_cast<double>(tl.medianSpacing()) > kCoarseSampling * static_cast<double>(w))
                continue;
            if (kPressureResource[p] == Resource::Cache)
                counterOk[p] = true;
            else
                counterOk[p] = pressure.demand[s][p] >= kUseThreshold;
        }

        // Every occurrence's keys: the occurrences [from, to) into `into`. A large signature is
        // split in two halves, the second on another thread (its keys appended after the
        // first's, so the result is the one of a single pass).
        // The keys a run `sl` gets from one partner `os` (of signature osig), each with that
        // partner's cover: what collect() records, and how partnerFor() finds the partner behind
        // a key again. Inlined by force: called through collect() for every pair, a call cost
        // the stage about a tenth (1M contended kernels).
        auto pairKeys = [&](const Slice& sl, const Slice& os, std::uint32_t osig, const auto& visit)
            __attribute__((always_inline)) {
            const TimeNs a = sl.start, e = sl.start + w;
            const TimeNs cover = std::min(os.end(), e) - std::max(os.start, a);
            if (cover >= minCover) {
                visit(keyOf(FactorKind::Partner, osig), cover);
                const Character c = characters[osig].character;
                if (c != Character::Unknown) visit(keyOf(FactorKind::Character, static_cast<std::uint32_t>(c)), cover);
            }
            // Serialised: the partner was running when it began, ended inside its run, and it
            // then ran for about W: no progress while the partner ran.
            if (os.start <= a + serialTol && os.end() - a >= serialTol && os.end() < sl.end()) {
                const TimeNs after = sl.end() - os.end();
                const TimeNs off = after >= w ? after - w : w - after;
                if (off <= serialTol)
                    visit(keyOf(FactorKind::Serial, osig), os.end() - a);
                else if (off <= 3 * serialTol)
                    visit(sideKeyOf(osig), TimeNs{0});
            }
        };
        auto collect = [&](std::uint32_t from, std::uint32_t to, OccurrenceKeys& into, const auto& cancelled) {
            into.clear();
            for (std::uint32_t k = from; k < to; ++k) {
                if (cancelled()) return false;
                const std::uint32_t op = ops.sigOps[k];
                const Slice& sl = slices[ops.slices[op]];
                const TimeNs a = sl.start, e = sl.start + w;
                const std::size_t first = into.keys.size();
                auto add = [&](std::uint64_t key) {
                    for (std::size_t i = first; i < into.keys.size(); ++i)
                        if (into.keys[i] == key) return;
                    into.keys.push_back(key);
                };
                for (std::uint32_t q = overlap.pairBegin[op]; q < overlap.pairBegin[op + 1]; ++q) {
                    const std::uint32_t other = overlap.partnerOf[q];
                    pairKeys(sl, slices[ops.slices[other]], ops.signatureOf[other],
                             [&](std::uint64_t key, TimeNs) { add(key); });
                }
                for (std::size_t p = 0; p < kPressureResources; ++p) {
                    if (!counterOk[p]) continue;
                    bool hit;
                    if (kPressureResource[p] == Resource::Cache) {
                        const double m = timelines.pressure[p].mean(a, std::min(e, sl.end()));
                        hit = m >= ownCachePressure(pressure, static_cast<std::uint32_t>(s)) + kCacheRise;
                    } else {
                        hit = loadDuring(ops, overlap, pressure, trace, op, p, a, std::min(e, sl.end())) >=
                              1.0 + kOverload;
                    }
                    if (hit) add(keyOf(FactorKind::Counter, static_cast<std::uint32_t>(p)));
                }
                into.keyBegin.push_back(static_cast<std::uint32_t>(into.keys.size()));
            }
            return true;
        };
        auto mainCancelled = [&] { return (++tick & 0xFFFF) == 0 && keepGoing && !keepGoing(); };
        const bool split = count >= splitFrom && twoCores();
        if (!inHalves(b0, b1, split, mainCancelled,
                      [&](std::uint32_t from, std::uint32_t to, int half, const auto& cancelled) {
                          return collect(from, to, half == 0 ? occ : side, cancelled);
                      }))
            return r;
        // Occurrence i's keys: in `occ` for the occurrences it collected, in `side` after them
        // (read where they are: copying the second half after the first was a tenth of this stage
        // on 10M kernels).
        const auto sideFrom = static_cast<std::uint32_t>(occ.keyBegin.size() - 1);
        auto keysOf = [&](std::uint32_t i) {
            return i < sideFrom ? std::pair<const OccurrenceKeys*, std::uint32_t>{&occ, i}
                                : std::pair<const OccurrenceKeys*, std::uint32_t>{&side, i - sideFrom};
        };

        // Candidate factors: exposed and unexposed at least kMinGroup times, most exposed first;
        // a large signature's duration ranks meanwhile on the second core (needed only when
        // there is a candidate).
        struct Cand {
            std::uint64_t key;
            std::uint32_t exposed;
        };
        std::vector<Cand> cands;
        auto candidates = [&] {
            counter.count(occ.keys, split ? &side.keys : nullptr);
            const std::vector<KeyCounter::Count>& counted = counter.sorted();
            std::uint32_t alwaysCount = 0;
            for (const auto& [key, e] : counted) {
                const auto kindCode = static_cast<std::uint32_t>(key >> 32);
                if (kindCode == kSerialSideKind) continue;
                // Serialised is chosen by where its own end falls, so longer runs fall in the band
                // more often: it counts only when the band holds far more runs than its two
                // neighbouring bands of twice its width (a scan test, binomial p = 1/3 under a
                // smooth spread of end times), i.e. the runs really end one W after P does.
                if (static_cast<FactorKind>(kindCode) == FactorKind::Serial) {
                    const std::uint32_t side =
                        counter.countOf(sideKeyOf(static_cast<std::uint32_t>(key & 0xFFFFFFFFu)));
                    if (binomialTail(e, e + side, 1.0 / 3.0) >= kAlpha) continue;
                }
                if (e >= kMinGroup && count - e >= kMinGroup) cands.push_back({key, e});
                const auto kind = static_cast<FactorKind>(kindCode);
                if (kind == FactorKind::Partner && count - e < kMinGroup && e > alwaysCount) {
                    alwaysCount = e;
                    se.alwaysWith = static_cast<std::uint32_t>(key & 0xFFFFFFFFu);
                }
            }
            std::stable_sort(cands.begin(), cands.end(),
                             [](const Cand& x, const Cand& y) { return x.exposed > y.exposed; });
            if (cands.size() > kMaxFactors) cands.resize(kMaxFactors);
        };
        bool keyed = false;
        double tie = 0;
        auto rank = [&] { tie = averageRanks(durs, ranks, rankKeys, rankScratch, &keyed); };
        const bool splitFactors = split && count < kSplitBelow;
        if (splitFactors) {
            runBeside(rank, candidates);
            if (cands.empty()) continue;
        } else {
            candidates();
            if (cands.empty()) continue;
            rank();
        }

        // Which candidates each occurrence was exposed to (bit f: cands[f]), how many were and
        // their rank sums: occurrences [from, to) into `sums`.
        const auto nc = static_cast<std::uint32_t>(cands.size());
        maskOf.assign(count, 0);
        auto expose = [&](std::uint32_t from, std::uint32_t to, FactorSums& sums) {
            for (std::uint32_t i = from; i < to; ++i) {
                std::uint8_t m = 0;
                const auto [o, j] = keysOf(i);
                for (std::uint32_t k = o->keyBegin[j]; k < o->keyBegin[j + 1]; ++k)
                    for (std::uint32_t f = 0; f < nc; ++f)
                        if (o->keys[k] == cands[f].key) m |= static_cast<std::uint8_t>(1u << f);
                if (m == 0) continue;
                maskOf[i] = m;
                r.exposedMask[ops.sigOps[b0 + i]] |= m;
                for (std::uint32_t f = 0; f < nc; ++f) {
                    if (!(m & (1u << f))) continue;
                    ++sums.exposed[f];
                    sums.rankSum[f] += ranks[i];
                }
            }
        };
        FactorSums sums, sideSums;
        const std::uint32_t half = count / 2;
        if (splitFactors) {
            runBeside([&] { expose(half, count, sideSums); }, [&] { expose(0, half, sums); });
            for (std::uint32_t f = 0; f < nc; ++f) {
                sums.exposed[f] += sideSums.exposed[f];
                sums.rankSum[f] += sideSums.rankSum[f];  // (half-integers: exact, whatever the order)
            }
        } else {
            expose(0, count, sums);
        }
        // Each factor's group medians (off the ranks' order when it is known: `keyed`).
        std::array<std::pair<TimeNs, TimeNs>, kMaxFactors> medians{};  // (unexposed, exposed)
        auto median = [&](std::uint32_t f0, std::uint32_t f1) {
            for (std::uint32_t f = f0; f < f1; ++f)
                medians[f] = groupMedians(rankKeys, maskOf, static_cast<std::uint8_t>(1u << f), durs,
                                          count - sums.exposed[f], sums.exposed[f]);
        };
        if (keyed && splitFactors && nc > 1)
            runBeside([&] { median(nc / 2, nc); }, [&] { median(0, nc / 2); });
        else if (keyed)
            median(0, nc);
        const double alpha = kAlpha / static_cast<double>(cands.size());
        for (std::uint32_t f = 0; f < nc; ++f) {
            ExposureFactor fac;
            fac.kind = static_cast<FactorKind>(cands[f].key >> 32);
            fac.id = static_cast<std::uint32_t>(cands[f].key & 0xFFFFFFFFu);
            fac.exposed = sums.exposed[f];
            fac.unexposed = count - sums.exposed[f];
            if (keyed) {
                fac.medianExposedNs = medians[f].second;
                fac.medianUnexposedNs = medians[f].first;
            } else {
                ex.clear();
                un.clear();
                for (std::uint32_t i = 0; i < count; ++i) (maskOf[i] & (1u << f) ? ex : un).push_back(durs[i]);
                fac.medianExposedNs = medianOf(ex);
                fac.medianUnexposedNs = medianOf(un);
            }
            fac.p = mannWhitneyFromRanks(sums.rankSum[f], fac.exposed, fac.unexposed, tie);
            const TimeNs gain = fac.medianExposedNs - fac.medianUnexposedNs;
            fac.significant = fac.p < alpha && gain >= resolution &&
                              static_cast<double>(gain) >= kMinEffect * static_cast<double>(fac.medianUnexposedNs);
            se.significant += fac.significant;
            r.factors.push_back(fac);
        }
        se.factorCount = static_cast<std::uint32_t>(r.factors.size()) - se.factorBegin;
        if (se.significant == 0) continue;

        // The partner behind occurrence op's key: the first in its list with the largest cover,
        // as that key was collected (pairKeys); kNone for a counter.
        auto partnerFor = [&](std::uint32_t op, std::uint64_t key) {
            std::uint32_t best = kNone;
            TimeNs bestCover = 0;
            const Slice& sl = slices[ops.slices[op]];
            const auto kind = static_cast<FactorKind>(key >> 32);
            const auto id = static_cast<std::uint32_t>(key & 0xFFFFFFFFu);
            for (std::uint32_t q = overlap.pairBegin[op]; q < overlap.pairBegin[op + 1]; ++q) {
                const std::uint32_t other = overlap.partnerOf[q];
                const std::uint32_t osig = ops.signatureOf[other];
                // Only a partner of the key's signature (or kind) can give it: the others skipped.
                if (kind == FactorKind::Character ? static_cast<std::uint32_t>(characters[osig].character) != id
                                                  : osig != id)
                    continue;
                pairKeys(sl, slices[ops.slices[other]], osig, [&](std::uint64_t k, TimeNs cover) {
                    if (k == key && (best == kNone || cover > bestCover)) {
                        best = other;
                        bestCover = cover;
                    }
                });
            }
            return best;
        };
        // Reference and strongest factor per occurrence: occurrences [from, to), their reference
        // count into `refs`.
        auto strongest = [&](std::uint32_t from, std::uint32_t to, std::uint32_t& refs) {
            for (std::uint32_t i = from; i < to; ++i) {
                const std::uint32_t op = ops.sigOps[b0 + i];
                const std::uint8_t mask = r.exposedMask[op];
                double bestEffect = 0;
                for (std::uint32_t f = 0; f < se.factorCount; ++f) {
                    const ExposureFactor& fac = r.factors[se.factorBegin + f];
                    if (!fac.significant || !(mask & (1u << f))) continue;
                    r.reference[op] = 0;
                    // Named partners first (they say who; serialisation behind one says most),
                    // then measured counters, then classes.
                    const double rank = fac.effect() + (fac.kind == FactorKind::Serial    ? 20.0
                                                        : fac.kind == FactorKind::Partner ? 10.0
                                                        : fac.kind == FactorKind::Counter ? 5.0
                                                                                          : 0.0);
                    if (rank > bestEffect) {
                        bestEffect = rank;
                        r.strongest[op] = se.factorBegin + f;
                    }
                }
                if (r.strongest[op] != kNone) {
                    const ExposureFactor& fac = r.factors[r.strongest[op]];
                    r.partnerOp[op] = partnerFor(op, keyOf(fac.kind, fac.id));
                }
                refs += r.reference[op];
            }
        };
        std::uint32_t refs = 0, sideRefs = 0;
        if (splitFactors)
            runBeside([&] { strongest(half, count, sideRefs); }, [&] { strongest(0, half, refs); });
        else
            strongest(0, count, refs);
        se.reference = refs + sideRefs;
    }
    return r;
}

}  // namespace contend
