// Sorting a large trace's slices in place (core/common/radix_sort.h): finalize permutes the slices
// and their infos without a second copy from TraceBuilder::kPermuteInPlaceFrom slices. The
// permutation must put every element where a scatter into a new array would, for any
// permutation, and a trace finalized in place must be the trace finalized through copies.
#include <catch2/catch.hpp>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/common/radix_sort.h"
#include "core/trace/trace_builder.h"

using namespace contend;

namespace {

struct Wide {  // an element as large as a SliceInfo, its fields telling where it came from
    std::uint64_t from = 0;
    std::uint64_t pad[8] = {};
    bool operator==(const Wide&) const = default;
};

template <typename T>
std::vector<T> scattered(const std::vector<T>& v, const std::vector<std::uint32_t>& destination) {
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[destination[i]] = v[i];
    return out;
}

}  // namespace

TEST_CASE("a permutation applied in place puts every element where a scatter would", "[trace][permute]") {
    std::mt19937 rng(11);
    auto check = [](std::vector<std::uint32_t> destination) {
        std::vector<Wide> v(destination.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            v[i].from = i;
            v[i].pad[i % 8] = 3 * i + 1;
        }
        const std::vector<Wide> expected = scattered(v, destination);
        permuteInPlace(v, destination);
        CHECK(v == expected);
        std::vector<std::uint32_t> ints(destination.size());
        std::iota(ints.begin(), ints.end(), 7u);
        const std::vector<std::uint32_t> expectedInts = scattered(ints, destination);
        permuteInPlace(ints, destination);
        CHECK(ints == expectedInts);
    };
    check({});
    check({0});
    for (const std::size_t n : {2u, 3u, 17u, 1000u, 65537u}) {
        INFO(n);
        std::vector<std::uint32_t> d(n);
        std::iota(d.begin(), d.end(), 0u);
        check(d);  // the identity
        std::vector<std::uint32_t> one(n);
        for (std::size_t i = 0; i < n; ++i) one[i] = static_cast<std::uint32_t>((i + 1) % n);
        check(one);  // a single cycle through everything
        for (int round = 0; round < 3; ++round) {
            std::shuffle(d.begin(), d.end(), rng);
            check(d);
        }
        // Tracks interleaved in the file (the loader's usual case): element i on track i % 5,
        // each track's elements kept in order after the tracks before it.
        std::vector<std::uint32_t> first(6, 0);
        for (std::size_t i = 0; i < n; ++i) ++first[i % 5 + 1];
        for (std::size_t t = 0; t < 5; ++t) first[t + 1] += first[t];
        std::vector<std::uint32_t> tracks(n);
        for (std::size_t i = 0; i < n; ++i) tracks[i] = first[i % 5]++;
        check(tracks);
    }
}

TEST_CASE("a trace finalized in place is the trace finalized through sorted copies", "[trace][permute]") {
    // Three tracks written interleaved, one of them out of order (the sort's two paths: in order
    // by counts, out of order by comparisons), with infos, metrics and flows that finalize moves
    // or binds by the slices' new places.
    auto build = [](std::size_t inPlaceFrom, bool outOfOrder) {
        TraceBuilder b;
        b.setPermuteInPlaceFrom(inPlaceFrom);
        const std::uint32_t tracks[3] = {b.track("1", "7"), b.track("1", "8"), b.track("2", "1")};
        std::mt19937 rng(5);
        for (int i = 0; i < 3000; ++i) {
            const int t = i % 3;
            Slice s;
            s.track = tracks[t];
            s.start = 1000 * (i / 3) + (outOfOrder && t == 2 ? static_cast<TimeNs>(rng() % 5000) : 0);
            s.dur = 100 + i % 7;
            s.name = b.intern("op" + std::to_string(i % 11));
            SliceInfo info;
            info.device = t;
            info.correlation = static_cast<std::int64_t>(i);
            const std::uint32_t at = b.addSlice(s, info);
            if (i % 4 == 0) b.addMetric(at, "bytes", static_cast<float>(i));
        }
        return b.finalize();
    };
    for (const bool outOfOrder : {false, true}) {
        INFO("out of order: " << outOfOrder);
        const TracePtr copied = build(TraceBuilder::kPermuteInPlaceFrom, outOfOrder);
        const TracePtr inPlace = build(0, outOfOrder);
        REQUIRE(inPlace->slices().size() == copied->slices().size());
        REQUIRE(inPlace->tracks().size() == copied->tracks().size());
        std::size_t differ = 0;
        for (std::size_t i = 0; i < copied->slices().size(); ++i) {
            const Slice& a = copied->slices()[i];
            const Slice& b = inPlace->slices()[i];
            const SliceInfo& ia = copied->infos()[i];
            const SliceInfo& ib = inPlace->infos()[i];
            differ += a.start != b.start || a.dur != b.dur || a.track != b.track || a.name != b.name ||
                      a.flags != b.flags || a.depth != b.depth || ia.device != ib.device ||
                      ia.correlation != ib.correlation || ia.metricsBegin != ib.metricsBegin ||
                      ia.metricsCount != ib.metricsCount;
        }
        CHECK(differ == 0);
        for (std::size_t t = 0; t < copied->tracks().size(); ++t) {
            CHECK(copied->tracks()[t].sliceBegin == inPlace->tracks()[t].sliceBegin);
            CHECK(copied->tracks()[t].sliceEnd == inPlace->tracks()[t].sliceEnd);
        }
        // Each track's slices in time order, and the sort did move them (tracks were interleaved).
        for (const Track& tr : inPlace->tracks())
            for (std::uint32_t i = tr.sliceBegin + 1; i < tr.sliceEnd; ++i)
                CHECK(inPlace->slices()[i - 1].start <= inPlace->slices()[i].start);
        CHECK(inPlace->slices()[1].track == inPlace->slices()[0].track);
    }
}
