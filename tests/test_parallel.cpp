// runBeside: two pieces of work on two threads, both finished before it returns, their
// exceptions rethrown on the caller's thread.
#include <atomic>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <thread>
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
