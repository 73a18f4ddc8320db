// Each copy kind's copies as a histogram of their own GB/s (core/analysis/breakdowns/
// memory_bandwidth.h): log-spaced bins, 5 per decade, edges at 10^(k/5) GB/s; a copy on an
// edge in the bin above it; a copy at 0 GB/s in the first bin. On HTA's reference traces: per
// copy kind the counts sum to the section's copies and the median bin holds the section's p50
// per copy (between the two middle copies' bins when they differ). The histogram is written in the report's JSON and read back.
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <string>

#include "core/analysis/breakdowns/breakdowns.h"
#include "core/analysis/breakdowns/memory_bandwidth.h"
#include "core/io/load.h"
#include "core/report/breakdowns/breakdowns_json.h"
#include "test_support.h"

using namespace contend;
using namespace contend::breakdowns;

namespace {

std::uint64_t total(const CopyHistogram& h) {
    return std::accumulate(h.counts.begin(), h.counts.end(), std::uint64_t{0});
}

}  // namespace

TEST_CASE("bandwidth histogram: log-spaced bins with edges at 10^(k/5) GB/s") {
    // 1 and 10 sit on edges (k = 0 and 5); 2 in [1.58, 2.51); 9.9 in [6.31, 10).
    const CopyHistogram h = copyHistogram({1.0, 2.0, 9.9, 10.0});
    REQUIRE(h.edgesGbps.size() == 7);  // 10^0 .. 10^(6/5): the last edge above 10
    REQUIRE(h.counts.size() == 6);
    CHECK(h.edgesGbps.front() == Approx(1.0));
    CHECK(h.edgesGbps[5] == Approx(10.0));
    CHECK(h.counts == std::vector<std::uint64_t>{1, 1, 0, 0, 1, 1});
    CHECK(total(h) == 4);
    CHECK(binOf(h, 10.0) == 5);
    CHECK(binOf(h, 0.5) == 0);     // below the first edge: the first bin
    CHECK(binOf(h, 1000.0) == 5);  // above the last: the last
    // The 2nd and 3rd of 4 copies (2 and 9.9 GB/s): the p50 (5.95) lies between their bins.
    CHECK(medianBins(h) == std::pair<std::size_t, std::size_t>{1, 4});
    CHECK(medianBins(copyHistogram({1.0, 2.0, 9.9})) == std::pair<std::size_t, std::size_t>{1, 1});
}

TEST_CASE("bandwidth histogram: no copy or copies at 0 GB/s or one copy") {
    CHECK(copyHistogram({}).counts.empty());
    const CopyHistogram zeros = copyHistogram({0.0, 0.0});
    CHECK(zeros.counts == std::vector<std::uint64_t>{2});
    const CopyHistogram mixed = copyHistogram({0.0, 3.0});
    CHECK(mixed.counts.front() == 2);  // 0 GB/s counted in the first bin, with 3 GB/s
    const CopyHistogram one = copyHistogram({667.0});
    REQUIRE(one.counts.size() == 1);
    CHECK(one.edgesGbps[0] <= 667.0);
    CHECK(one.edgesGbps[1] > 667.0);
}

TEST_CASE("bandwidth histogram: counts sum to the copies and the median bin holds the p50 on HTA's traces") {
    if (!test::haveSharedTraces()) test::skipTest();
    for (const char* rel : {"kineto-hta/tests/data/trace_diff/control/control.json.gz",
                            "kineto-hta/tests/data/trace_diff/test/test.json.gz"}) {
        INFO(rel);
        LoadResult loaded = loadTrace(test::sharedTraces() + "/" + rel);
        REQUIRE(loaded.ok());
        const TraceBreakdowns b = computeBreakdowns(*loaded.value());
        int oneMedianBin = 0;
        REQUIRE(b.memoryBandwidth.computed());
        for (const CopyBandwidth& c : b.memoryBandwidth.rows) {
            INFO(c.kind);
            const CopyHistogram& h = c.histogram;
            REQUIRE_FALSE(h.counts.empty());
            CHECK(total(h) == c.copies);
            const auto [lo, hi] = medianBins(h);
            INFO("median bins " << lo << ", " << hi);
            CHECK(h.edgesGbps[lo] <= c.copyP50Gbps);
            CHECK(c.copyP50Gbps < h.edgesGbps[hi + 1]);
            if (lo == hi) ++oneMedianBin;
            CHECK(binOf(h, c.copyMaxGbps) == h.counts.size() - 1);  // the fastest copy in the last bin
        }
        // Most kinds have one median bin; control's Memcpy DtoH (60 copies of 8 B and 64 B) has two.
        CHECK(oneMedianBin >= static_cast<int>(b.memoryBandwidth.rows.size()) - 1);
        // Written in the report's JSON and read back.
        const Result<TraceBreakdowns> back = breakdownsFromJson(breakdownsToJson(b));
        REQUIRE(back.ok());
        REQUIRE(back.value().memoryBandwidth.rows.size() == b.memoryBandwidth.rows.size());
        for (std::size_t k = 0; k < b.memoryBandwidth.rows.size(); ++k) {
            CHECK(back.value().memoryBandwidth.rows[k].histogram.counts == b.memoryBandwidth.rows[k].histogram.counts);
            CHECK(back.value().memoryBandwidth.rows[k].histogram.edgesGbps.size() ==
                  b.memoryBandwidth.rows[k].histogram.edgesGbps.size());
        }
    }
}
