// KeyCounter: the distinct keys among many, each with how many times it occurs, as a map of
// counts says, however many distinct keys there are (the table grows from 64 slots).
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "core/common/key_counter.h"

using namespace contend;

TEST_CASE("KeyCounter counts each distinct key as a map does, from one key to many thousands", "[common]") {
    std::mt19937_64 rng(7);
    KeyCounter counter;
    for (const std::uint32_t distinct : {1u, 2u, 31u, 32u, 33u, 1000u, 50000u}) {
        INFO(distinct);
        // Keys as the partners' test makes them: a small kind in the high bits, an id below.
        std::vector<std::uint64_t> values(distinct);
        for (std::uint64_t& v : values) v = (rng() % 16) << 32 | (rng() % 2000000);
        std::vector<std::uint64_t> keys(8 * distinct + 5);
        for (std::uint64_t& k : keys) k = values[rng() % distinct];
        std::map<std::uint64_t, std::uint32_t> expected;
        for (const std::uint64_t k : keys) ++expected[k];
        counter.count(keys);
        const std::vector<KeyCounter::Count> got = counter.sorted();
        REQUIRE(got.size() == expected.size());
        auto it = expected.begin();
        for (const auto& [key, n] : got) {
            CHECK(key == it->first);
            CHECK(n == it->second);
            CHECK(counter.countOf(key) == n);
            ++it;
        }
        CHECK(counter.countOf(std::uint64_t{16} << 32) == 0);  // a kind no key has
    }
    // Two lists counted as one.
    const std::vector<std::uint64_t> first{3, 9, 3}, second{9, 1, 9};
    counter.count(first, &second);
    CHECK(counter.sorted() == std::vector<KeyCounter::Count>{{1, 1}, {3, 2}, {9, 3}});
    counter.count({});  // counting again forgets the last keys
    CHECK(counter.sorted().empty());
    CHECK(counter.countOf(0) == 0);
    counter.count({0, 0, 5});
    CHECK(counter.sorted() == std::vector<KeyCounter::Count>{{0, 2}, {5, 1}});
}
