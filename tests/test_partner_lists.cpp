// The data structures the analysis' speed rests on: each op's inline partner list
// (OverlapResult::partnerOf) against the pairs it stands for, the radix sort against std::sort,
// and the Mann-Whitney test's ranks (radix-sorted) against the textbook computation; the
// exposures' two-thread split against one thread.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis_sim.h"
#include "analysis_test_trace.h"
#include "core/analysis/engine.h"
#include "core/analysis/inputs/overlap.h"
#include "core/analysis/inputs/start_order.h"
#include "core/analysis/scoring/exposure.h"
#include "core/common/merge_runs.h"
#include "core/common/radix_sort.h"
#include "core/io/json/chrome_json_reader.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_builder.h"
#include "random_trace.h"

using namespace contend;

namespace {

// Every op's partner list names ops on other tracks that ran beside it, each pair is in both
// ops' lists, and each list is in the pairs' order (their shared span's start, then a, then b).
void checkPartnerLists(const Trace& trace, const OperatorSet& ops, const OverlapResult& ov) {
    REQUIRE(ov.pairBegin.size() == ops.size() + 1);
    REQUIRE(ov.partnerOf.size() == ov.pairBegin.back());
    REQUIRE(ov.partnerOf.size() == 2 * ov.pairCount());
    const auto& sl = trace.slices();
    std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
    for (std::uint32_t op = 0; op < ops.size(); ++op) {
        std::tuple<TimeNs, std::uint32_t, std::uint32_t> last{kTimeMin, 0, 0};
        for (std::uint32_t k = ov.pairBegin[op]; k < ov.pairBegin[op + 1]; ++k) {
            const std::uint32_t other = ov.partnerOf[k];
            REQUIRE(other != op);
            REQUIRE(other < ops.size());
            const Slice& x = sl[ops.slices[op]];
            const Slice& y = sl[ops.slices[other]];
            CHECK(x.track != y.track);
            const auto [start, end] = pairSpan(trace, ops, op, other);
            CHECK(start == std::max(x.start, y.start));
            CHECK(end > start);
            const std::tuple<TimeNs, std::uint32_t, std::uint32_t> key{start, std::min(op, other), std::max(op, other)};
            CHECK(last < key);
            last = key;
            seen.insert({op, other});
        }
    }
    for (const auto& [a, b] : seen) CHECK(seen.count({b, a}) == 1);
    CHECK(listPairs(trace, ops, ov).size() == ov.pairCount());
}

// The textbook one-sided Mann-Whitney p-value (average ranks over a comparison sort), in the
// same arithmetic as exposure.cpp.
double referenceMannWhitney(const std::vector<TimeNs>& exposed, const std::vector<TimeNs>& unexposed) {
    std::vector<TimeNs> all(exposed);
    all.insert(all.end(), unexposed.begin(), unexposed.end());
    const std::size_t n = all.size();
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return all[a] < all[b]; });
    std::vector<double> ranks(n);
    double tie = 0;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && all[order[j]] == all[order[i]]) ++j;
        const double r = (static_cast<double>(i) + static_cast<double>(j) + 1) / 2;
        for (std::size_t k = i; k < j; ++k) ranks[order[k]] = r;
        const double t = static_cast<double>(j - i);
        tie += t * t * t - t;
        i = j;
    }
    double r1 = 0;
    for (std::size_t i = 0; i < exposed.size(); ++i) r1 += ranks[i];
    const double n1 = static_cast<double>(exposed.size()), n2 = static_cast<double>(unexposed.size());
    const double nn = n1 + n2;
    if (n1 < 1 || n2 < 1) return 1.0;
    const double u = r1 - n1 * (n1 + 1) / 2;
    const double mean = n1 * n2 / 2;
    const double var = n1 * n2 / 12.0 * ((nn + 1) - tie / (nn * (nn - 1)));
    if (!(var > 0)) return 1.0;
    const double z = (u - mean - 0.5) / std::sqrt(var);
    return 0.5 * std::erfc(z / std::sqrt(2.0));
}

}  // namespace

TEST_CASE("each op's partner list names the other op of each of its pairs", "[analysis][overlap][partners]") {
    std::mt19937_64 rng(777);
    for (int round = 0; round < 20; ++round) {
        const int tracks = 1 + static_cast<int>(rng() % 6);
        const int n = 50 + static_cast<int>(rng() % 400);
        const TracePtr trace = test::randomKernelTrace(rng, tracks, n);
        const OperatorSet ops = selectOperators(*trace);
        const OverlapResult ov = findOverlaps(*trace, ops);
        CHECK_FALSE(ov.capped);
        checkPartnerLists(*trace, ops, ov);
        // The order it keeps for the stages after it is the start order (start_order.h).
        CHECK(ov.order == startOrder(*trace, ops));
    }
}

TEST_CASE("partner lists hold for nested host calls and for a capped sweep", "[analysis][overlap][partners]") {
    SECTION("host calls nested on their threads, overlapping other threads") {
        std::mt19937_64 rng(99);
        TraceBuilder b(kChromeFormat);
        for (int t = 0; t < 4; ++t) {
            // Call stacks: each top-level call holds a few nested ones.
            TimeNs at = static_cast<TimeNs>(rng() % 500);
            for (int call = 0; call < 60; ++call) {
                const TimeNs len = 200 + static_cast<TimeNs>(rng() % 2000);
                Slice top;
                top.track = b.track("1", std::to_string(t));
                top.start = at;
                top.dur = len;
                top.name = b.intern("outer" + std::to_string(call % 3));
                b.addSlice(top);
                for (int d = 1; d <= 3; ++d) {
                    Slice in = top;
                    in.start = at + 10 * d;
                    in.dur = len - 20 * d;
                    in.name = b.intern("inner" + std::to_string(d));
                    b.addSlice(in);
                }
                at += len + static_cast<TimeNs>(rng() % 300);
            }
        }
        const TracePtr trace = b.finalize();
        const OperatorSet ops = selectOperators(*trace);
        REQUIRE_FALSE(ops.deviceScope);
        const OverlapResult ov = findOverlaps(*trace, ops);
        REQUIRE(ov.pairCount() > 0);
        checkPartnerLists(*trace, ops, ov);
    }
    SECTION("more concurrent partners than kMaxPartners") {
        TraceBuilder b(kChromeFormat);
        const int threads = static_cast<int>(kMaxPartners) + 40;
        for (int t = 0; t < threads; ++t) {
            for (int i = 0; i < 3; ++i) {
                Slice s;
                s.track = b.track("1", std::to_string(t));
                s.start = 1000 * i + t;
                s.dur = 900;
                s.name = b.intern("call");
                b.addSlice(s);
            }
        }
        const TracePtr trace = b.finalize();
        const OperatorSet ops = selectOperators(*trace);
        const OverlapResult ov = findOverlaps(*trace, ops);
        CHECK(ov.capped);
        checkPartnerLists(*trace, ops, ov);
    }
}

TEST_CASE("the radix sort sorts as std::sort does", "[common][sort]") {
    std::mt19937_64 rng(5);
    std::vector<std::uint64_t> scratch;
    for (int round = 0; round < 12; ++round) {
        const std::size_t n = round < 4 ? static_cast<std::size_t>(rng() % 3000) : 5000 + rng() % 100000;
        std::vector<std::uint64_t> keys(n);
        for (auto& k : keys) {
            switch (round % 4) {
            case 0: k = rng(); break;                                 // every digit varies
            case 1: k = (rng() % 7) << 40 | (rng() % 100000); break;  // a few digits vary
            case 2: k = 0xABCD000000000000ULL | (rng() % 16); break;  // one digit varies
            default: k = 42; break;                                   // none does
            }
        }
        std::vector<std::uint64_t> expected = keys;
        std::sort(expected.begin(), expected.end());
        radixSort(keys, scratch);
        CHECK(keys == expected);
    }
}

// mergeRuns (core/common/merge_runs.h): runs of (time, index) keys, each ascending, some empty,
// many equal times across runs, give what a sort of all of them gives.
TEST_CASE("merged runs are in the order a sort gives, ties between runs included", "[common][sort]") {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 20; ++round) {
        const std::size_t runs = 1 + rng() % 12;
        std::vector<std::int64_t> time;
        std::vector<std::size_t> runBegin;
        for (std::size_t r = 0; r < runs; ++r) {
            runBegin.push_back(time.size());
            std::int64_t t = static_cast<std::int64_t>(rng() % 50);
            for (std::size_t k = rng() % (round < 5 ? 4 : 3000); k > 0; --k) {
                time.push_back(t);
                t += static_cast<std::int64_t>(rng() % 3);  // equal times within and across runs
            }
        }
        runBegin.push_back(time.size());
        std::vector<std::uint32_t> expected(time.size());
        std::iota(expected.begin(), expected.end(), 0u);
        std::sort(expected.begin(), expected.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return std::tie(time[a], a) < std::tie(time[b], b); });
        std::vector<std::uint32_t> got{7};  // appended to what is there
        mergeRuns(
            runBegin, [](std::size_t k) { return static_cast<std::uint32_t>(k); },
            [&](std::uint32_t i) {
                return std::pair<std::int64_t, std::uint32_t>{time[i], i};
            },
            got);
        REQUIRE(got.size() == expected.size() + 1);
        CHECK(got.front() == 7);
        CHECK(std::equal(expected.begin(), expected.end(), got.begin() + 1));
    }
}

TEST_CASE("the Mann-Whitney test gives the textbook value to the last bit", "[analysis][exposure]") {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 16; ++round) {
        const std::size_t n1 = 1 + rng() % 6000, n2 = 1 + rng() % 6000;
        std::vector<TimeNs> a(n1), b(n2);
        // Heavy ties, wide values (over 2^32 apart: the comparison sort's path), negative ones.
        const TimeNs spread = round % 4 == 0 ? 10 : round % 4 == 1 ? 100000 : round % 4 == 2 ? (TimeNs{1} << 40) : 3;
        const TimeNs base = round % 3 == 0 ? -5000 : 1000;
        for (auto& x : a) x = base + static_cast<TimeNs>(rng() % static_cast<std::uint64_t>(spread)) + (round & 1);
        for (auto& x : b) x = base + static_cast<TimeNs>(rng() % static_cast<std::uint64_t>(spread));
        CHECK(mannWhitneyGreater(a, b) == referenceMannWhitney(a, b));
    }
}

TEST_CASE("the exposures worked on two threads are the ones of one thread", "[analysis][exposure][parallel]") {
    for (const sim::Scenario scenario : {sim::Scenario::Mixed, sim::Scenario::Cache}) {
        const auto& run = contend::test::simulated(scenario, false, 2);
        auto p = prepareAnalysis(run.trace, AnalysisSettings{}).value();
        REQUIRE(p);
        auto exposures = [&](std::uint32_t splitFrom) {
            return findExposures(p->trace(), p->operators(), p->overlaps(), p->characters(), p->pressure(),
                                 p->analysisTimelines(), {}, splitFrom);
        };
        const ExposureResult one = exposures(std::numeric_limits<std::uint32_t>::max());
        // Every signature of 2 x kMinGroup occurrences or more split (the smallest halves).
        const ExposureResult two = exposures(1);
        CHECK(one.reference == two.reference);
        CHECK(one.exposedMask == two.exposedMask);
        CHECK(one.strongest == two.strongest);
        CHECK(one.partnerOp == two.partnerOp);
        REQUIRE(one.signatures.size() == two.signatures.size());
        for (std::size_t s = 0; s < one.signatures.size(); ++s) {
            const SignatureExposure &a = one.signatures[s], &b = two.signatures[s];
            INFO("signature " << s);
            CHECK(a.windowNs == b.windowNs);
            CHECK(a.factorBegin == b.factorBegin);
            CHECK(a.factorCount == b.factorCount);
            CHECK(a.significant == b.significant);
            CHECK(a.reference == b.reference);
            CHECK(a.alwaysWith == b.alwaysWith);
        }
        REQUIRE(one.factors.size() == two.factors.size());
        std::size_t significant = 0;
        for (std::size_t f = 0; f < one.factors.size(); ++f) {
            const ExposureFactor &a = one.factors[f], &b = two.factors[f];
            INFO("factor " << f);
            CHECK(a.kind == b.kind);
            CHECK(a.id == b.id);
            CHECK(a.exposed == b.exposed);
            CHECK(a.unexposed == b.unexposed);
            CHECK(a.medianExposedNs == b.medianExposedNs);
            CHECK(a.medianUnexposedNs == b.medianUnexposedNs);
            CHECK(a.p == b.p);  // to the last bit
            CHECK(a.significant == b.significant);
            significant += a.significant;
        }
        CHECK(significant > 0);
        CHECK(one.factors.size() == p->exposure().factors.size());
    }
}

// The partner behind an occurrence's strongest factor (found again when asked, not kept per
// key): one of its overlap partners, of the factor's signature or character, and among those the
// one that covered most of its exposure window (a serialising partner: the one that ended last).
TEST_CASE("the partner behind a strongest factor is the one that covered the run most", "[analysis][exposure]") {
    // Simulated networks, and a made-up one where three copies run beside each slowed add, the
    // second covering it most.
    std::vector<TracePtr> traces;
    for (const sim::Scenario scenario : {sim::Scenario::Mixed, sim::Scenario::Cache, sim::Scenario::Bandwidth})
        for (const std::uint64_t seed : {1u, 2u})
            traces.push_back(contend::test::simulated(scenario, false, seed).trace);
    contend::test::KinetoTrace k;
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> jitter(-0.1, 0.1);
    for (int i = 0; i < 600; ++i) {
        const bool beside = i % 3 != 0;
        k.kernel("vectorized_elementwise_kernel_add", 7, 1000.0 * i, 100.0 * (1 + jitter(rng)) * (beside ? 1.5 : 1.0));
        if (beside)
            for (const auto& [at, dur] : {std::pair{0.0, 20.0}, std::pair{30.0, 30.0}, std::pair{70.0, 25.0}})
                k.kernel("vectorized_elementwise_kernel_copy", 8, 1000.0 * i + at, dur);
    }
    traces.push_back(k.load());
    std::size_t named = 0, madeUp = 0;
    for (const TracePtr& trace : traces) {
        const std::size_t namedBefore = named;
        {
            auto p = prepareAnalysis(trace, AnalysisSettings{}).value();
            REQUIRE(p);
            const ExposureResult& ex = p->exposure();
            const OperatorSet& ops = p->operators();
            const OverlapResult& ov = p->overlaps();
            const auto& sl = p->trace().slices();
            std::size_t wrong = 0;
            for (std::uint32_t op = 0; op < ops.size(); ++op) {
                if (ex.strongest[op] == kNone) {
                    wrong += ex.partnerOp[op] != kNone;
                    continue;
                }
                const ExposureFactor& fac = ex.factors[ex.strongest[op]];
                if (fac.kind == FactorKind::Counter) {
                    wrong += ex.partnerOp[op] != kNone;
                    continue;
                }
                auto behind = [&](std::uint32_t other) {
                    const std::uint32_t sig = ops.signatureOf[other];
                    return fac.kind == FactorKind::Character
                               ? static_cast<std::uint32_t>(p->characters()[sig].character) == fac.id
                               : sig == fac.id;
                };
                const Slice& own = sl[ops.slices[op]];
                const TimeNs w = ex.signatures[ops.signatureOf[op]].windowNs;
                auto cover = [&](std::uint32_t other) {
                    const Slice& os = sl[ops.slices[other]];
                    return fac.kind == FactorKind::Serial
                               ? os.end() - own.start
                               : std::min(os.end(), own.start + w) - std::max(os.start, own.start);
                };
                const std::uint32_t partner = ex.partnerOp[op];
                bool listed = false;
                for (std::uint32_t q = ov.pairBegin[op]; q < ov.pairBegin[op + 1]; ++q)
                    listed |= ov.partnerOf[q] == partner;
                if (partner == kNone || !listed || !behind(partner)) {
                    ++wrong;
                    continue;
                }
                ++named;
                // No partner behind the factor covered more (those that qualified: a partner or a
                // kind covers at least the share of W the collection asked for).
                for (std::uint32_t q = ov.pairBegin[op]; q < ov.pairBegin[op + 1]; ++q) {
                    const std::uint32_t other = ov.partnerOf[q];
                    if (fac.kind != FactorKind::Serial && behind(other) && cover(other) > cover(partner)) ++wrong;
                }
            }
            INFO("trace " << &trace - traces.data());
            CHECK(wrong == 0);
            if (&trace == &traces.back()) madeUp = named - namedBefore;
        }
    }
    CHECK(named > 100);
    CHECK(madeUp > 100);  // the made-up trace's adds were named their partner
}

TEST_CASE("a Mann-Whitney test between subsets of values ranked once is the test of the two samples, to the last bit",
          "[analysis][exposure]") {
    std::mt19937_64 rng(29);
    for (int round = 0; round < 12; ++round) {
        const std::size_t n = 1 + rng() % 9000;
        // Heavy ties, wide values (over 2^32 apart: the comparison sort's path), negative ones.
        const TimeNs spread = round % 4 == 0 ? 7 : round % 4 == 1 ? 50000 : round % 4 == 2 ? (TimeNs{1} << 40) : 2;
        const TimeNs base = round % 3 == 0 ? -3000 : 500;
        std::vector<TimeNs> values(n);
        for (TimeNs& v : values) v = base + static_cast<TimeNs>(rng() % static_cast<std::uint64_t>(spread));
        const SubsetRanks ranked(values);
        for (int test = 0; test < 4; ++test) {
            // Group 1 exposed, 2 unexposed, 0 left out; the last test leaves none out.
            std::vector<std::uint8_t> group(n);
            std::vector<TimeNs> exposed, unexposed;
            for (std::size_t i = 0; i < n; ++i) {
                group[i] = static_cast<std::uint8_t>(test == 3 ? 1 + rng() % 2 : rng() % 3);
                if (group[i] == 1) exposed.push_back(values[i]);
                if (group[i] == 2) unexposed.push_back(values[i]);
            }
            INFO("round " << round << ", test " << test << ": " << exposed.size() << " against " << unexposed.size());
            CHECK(ranked.mannWhitneyGreater(group) == mannWhitneyGreater(exposed, unexposed));
        }
    }
}
