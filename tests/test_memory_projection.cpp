// The JSON reader's memory policy as a pure function (core/io/memory_projection.h): when a load
// fits its budget, when the density of the part read says the whole will not, and what the user
// is told.
#include <catch2/catch.hpp>

#include "core/io/memory_projection.h"

using namespace contend;

namespace {
constexpr double kMB = 1024.0 * 1024.0;

LoadMemoryState state(double modelMB, double fixedMB, double fraction, double budgetMB) {
    LoadMemoryState s;
    s.modelBytes = modelMB * kMB;
    s.fixedBytes = fixedMB * kMB;
    s.fractionRead = fraction;
    s.budgetBytes = budgetMB * kMB;
    return s;
}
}  // namespace

TEST_CASE("the memory projection refuses on the peak now or on the density so far", "[memory]") {
    // Peak now = 2.2 x model + fixed.
    CHECK(projectLoadMemory(state(100, 10, 0.0, 300)).fits);        // 230 MB
    CHECK_FALSE(projectLoadMemory(state(100, 10, 0.0, 200)).fits);  // 230 MB > 200 MB
    const LoadMemoryVerdict now = projectLoadMemory(state(100, 10, 0.0, 200));
    CHECK_FALSE(now.projected);
    CHECK(now.needBytes == Approx(230 * kMB));

    // A tenth read with 100 MB held: the whole needs about 2.2 x 1000 + 10 = 2210 MB.
    const LoadMemoryVerdict tenth = projectLoadMemory(state(100, 10, 0.1, 1000));
    CHECK_FALSE(tenth.fits);
    CHECK(tenth.projected);
    CHECK(tenth.needBytes == Approx(2210 * kMB));
    // Within the 25% margin it still goes on: 2210 <= 1800 * 1.25.
    CHECK(projectLoadMemory(state(100, 10, 0.1, 1800)).fits);
    CHECK_FALSE(projectLoadMemory(state(100, 10, 0.1, 1760)).fits);

    // Too little read to project from, and the end of the file: only the peak now counts.
    CHECK(projectLoadMemory(state(10, 10, 0.04, 100)).fits);
    CHECK_FALSE(projectLoadMemory(state(10, 10, 0.05, 100)).fits);
    CHECK(projectLoadMemory(state(10, 10, 1.0, 100)).fits);
}

TEST_CASE("the reader's fixed memory is a dozen chunks, or three times a small plain file", "[memory]") {
    CHECK(readerFixedBytes(8u << 20, 1u << 20, 0, false) == Approx(12.0 * (8u << 20) + (1u << 20)));
    CHECK(readerFixedBytes(8u << 20, 1u << 20, 1000, false) == Approx(3000));
    CHECK(readerFixedBytes(8u << 20, 1u << 20, 1000, true) == Approx(12.0 * (8u << 20) + (1u << 20)));  // gzip
}

TEST_CASE("the refusal says what is needed, from what, the budget and how to change it", "[memory]") {
    const LoadMemoryState s = state(100, 10, 0.1, 1000);
    const LoadMemoryVerdict v = projectLoadMemory(s);
    const std::string m = loadMemoryRefusal(v, s, 1000u << 20, true, 123456);
    CHECK_THAT(m, Catch::StartsWith("loading this trace needs about "));
    CHECK_THAT(m, Catch::Contains("(estimated after reading 10% of it)"));
    CHECK_THAT(m, Catch::Contains("(three quarters of the memory available)"));
    CHECK_THAT(m, Catch::Contains("stopped at byte 123456"));
    CHECK_THAT(m, Catch::Contains("--max-memory"));
    CHECK_THAT(loadMemoryRefusal(v, s, 1000u << 20, false, 1), Catch::Contains("(the limit set)"));

    CHECK_FALSE(eventGrowthRefusal(100, 300, 0));
    const auto big = eventGrowthRefusal(101, 300, 77);
    REQUIRE(big);
    CHECK_THAT(*big, Catch::StartsWith("the event at byte 77 is larger than"));
}
