// runBeside: two pieces of work on two threads, both finished before it returns, their
// exceptions rethrown on the caller's thread; inWeightedHalves: where it cuts uneven items in two.
#include <atomic>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "core/common/parallel.h"

using namespace contend;

TEST_CASE("runBeside runs both halves, the side one on another thread, and waits for both", "[common][parallel]") {
    std::vector<int> out(2000, 0);
    std::thread::id sideThread, mainThread;
    runBeside(
        [&] {
            sideThread = std::this_thread::get_id();
            for (int i = 1000; i < 2000; ++i) out[i] = i;
        },
        [&] {
            mainThread = std::this_thread::get_id();
            for (int i = 0; i < 1000; ++i) out[i] = i;
        });
    for (int i = 0; i < 2000; ++i) REQUIRE(out[i] == i);
    CHECK(mainThread == std::this_thread::get_id());
    CHECK(sideThread != mainThread);
}

TEST_CASE("runBeside rethrows an exception from either half after both have ended", "[common][parallel]") {
    std::atomic<bool> mainDone{false}, sideDone{false};
    CHECK_THROWS_AS(runBeside([] { throw std::runtime_error("side"); }, [&] { mainDone = true; }), std::runtime_error);
    CHECK(mainDone);
    CHECK_THROWS_WITH(runBeside([&] { sideDone = true; }, [] { throw std::runtime_error("main"); }), "main");
    CHECK(sideDone);
    // Both threw: main's is the one rethrown.
    CHECK_THROWS_WITH(runBeside([] { throw std::runtime_error("side"); }, [] { throw std::runtime_error("main"); }),
                      "main");
}

TEST_CASE("inWeightedHalves cuts where the weight reaches half, keeps the parts in order, and stays whole when light",
          "[common][parallel]") {
    using Calls = std::vector<std::pair<std::size_t, std::size_t>>;  // [from, to) of part 0, then part 1
    auto calls = [](std::vector<std::uint64_t> weights, std::uint64_t splitFrom) {
        Calls got(2);
        std::thread::id thread[2];
        const int parts = inWeightedHalves(
            weights.size(), splitFrom, [&](std::size_t i) { return weights[i]; },
            [&](std::size_t from, std::size_t to, int part) {
                got[static_cast<std::size_t>(part)] = {from, to};
                thread[part] = std::this_thread::get_id();
            });
        got.resize(static_cast<std::size_t>(parts));
        CHECK(thread[0] == std::this_thread::get_id());
        if (parts == 2) CHECK(thread[1] != thread[0]);
        return got;
    };
    CHECK(calls({1, 1, 1, 1}, 5) == Calls{{0, 4}});  // lighter than splitFrom: whole, here
    CHECK(calls({1}, 1) == Calls{{0, 1}});
    CHECK(calls({}, 0) == Calls{{0, 0}});
    if (!twoCores()) return;  // one core: always whole
    CHECK(calls({1, 1, 1, 1}, 1) == Calls{{0, 2}, {2, 4}});
    CHECK(calls({5, 1, 1, 1, 1, 1}, 1) == Calls{{0, 1}, {1, 6}});  // half reached at the first
    CHECK(calls({1, 1, 1, 1, 9}, 1) == Calls{{0, 4}, {4, 5}});     // the heavy last one alone there
    CHECK(calls({9, 1}, 1) == Calls{{0, 1}, {1, 2}});              // the heavy first one alone here
    CHECK(calls({0, 0, 0, 7}, 1) == Calls{{0, 3}, {3, 4}});
}
