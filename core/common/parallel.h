#pragma once
// Two pieces of work on the two cores: the development machine (and many a laptop) has two, so
// core splits a long pass in two halves rather than running a thread pool. Use it where both
// halves are large (a thread costs tens of microseconds) and write to nothing the other reads.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <utility>

namespace contend {

// Whether splitting work over two threads can pay here: more than one hardware thread.
inline bool twoCores() { return std::thread::hardware_concurrency() > 1; }

// Runs `side` on a second thread while `main` runs on this one, and returns when both have
// ended; an exception thrown by either (std::bad_alloc from a large resize) is rethrown here
// after both have ended, main's first. `side` must not call back into anything that is only
// safe on the caller's thread (a progress or cancel callback): give it a flag to read instead.
template <class Side, class Main>
void runBeside(Side&& side, Main&& main) {
    std::exception_ptr sideError;
    std::thread t([&] {
        try {
            side();
        } catch (...) {
            sideError = std::current_exception();
        }
    });
    try {
        main();
    } catch (...) {
        t.join();
        throw;
    }
    t.join();
    if (sideError) std::rethrow_exception(sideError);
}

// A pass over [from, to) whose items are independent: with `split`, work(from, mid, 0, c) runs
// here and work(mid, to, 1, c') on a second thread (runBeside), else work(from, to, 0, c) alone.
// The half here asks `mainCancelled` (the caller's cancel); the side half cannot, so it reads a
// flag the half here raises when `mainCancelled` said stop. `work` returns false when it
// stopped; the result is the half here's (on false the side's part is partial too and the
// caller discards the pass). `half` (0 or 1) tells each call its own output.
template <class Work, class Cancelled>
bool inHalves(std::uint32_t from, std::uint32_t to, bool split, const Cancelled& mainCancelled, Work&& work) {
    if (!split) return work(from, to, 0, mainCancelled);
    std::atomic<bool> stop{false};
    const std::uint32_t mid = from + (to - from) / 2;
    bool finished = true;
    runBeside([&] { work(mid, to, 1, [&] { return stop.load(std::memory_order_relaxed); }); },
              [&] {
                  finished = work(from, mid, 0, mainCancelled);
                  if (!finished) stop = true;
              });
    return finished;
}

// A pass over items [0, n) of uneven size whose results are kept apart per part (part 0 the
// first items, part 1 the rest, joined in that order by the caller): with two cores and a whole
// weight (the sum of weight(i)) of at least `splitFrom`, work(0, mid, 0) runs here and
// work(mid, n, 1) on a second thread, mid where the weight before it first reaches half; else
// work(0, n, 0) alone. Returns the number of parts (1 or 2).
template <class Weight, class Work>
int inWeightedHalves(std::size_t n, std::uint64_t splitFrom, Weight&& weight, Work&& work) {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < n; ++i) total += weight(i);
    if (n < 2 || total < splitFrom || !twoCores()) {
        work(std::size_t{0}, n, 0);
        return 1;
    }
    std::uint64_t before = 0;
    std::size_t mid = 0;
    while (mid + 1 < n && 2 * (before + weight(mid)) <= total) before += weight(mid++);
    if (mid == 0) mid = 1;  // the first item weighs more than half: alone here, the rest there
    runBeside([&] { work(mid, n, 1); }, [&] { work(std::size_t{0}, mid, 0); });
    return 2;
}

// Work started on a second thread now and joined later, while this thread goes on with other
// work: join() waits for it and rethrows what it threw; the destructor waits too (an early
// return or an exception on this thread never leaves it running over freed state). With one
// core it runs in the constructor. Like runBeside's side, it must not call anything that is
// only safe on the caller's thread: give it a flag to read (abandon() sets one it can poll).
class SideTask {
  public:
    explicit SideTask(std::function<void(const std::function<bool()>& keepGoing)> work) : m_work(std::move(work)) {
        const std::function<bool()> going = [this] { return !m_abandoned.load(std::memory_order_relaxed); };
        if (!twoCores()) {
            run(going);
            return;
        }
        m_thread = std::thread([this, going] { run(going); });
    }
    SideTask(const SideTask&) = delete;
    SideTask& operator=(const SideTask&) = delete;
    ~SideTask() {
        abandon();
        if (m_thread.joinable()) m_thread.join();
    }
    // Asks the work to stop early (its keepGoing turns false); join() still waits for it.
    void abandon() { m_abandoned.store(true, std::memory_order_relaxed); }
    void join() {
        if (m_thread.joinable()) m_thread.join();
        if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
    }

  private:
    void run(const std::function<bool()>& going) {
        try {
            m_work(going);
        } catch (...) {
            m_error = std::current_exception();
        }
    }
    std::function<void(const std::function<bool()>&)> m_work;
    std::atomic<bool> m_abandoned{false};
    std::exception_ptr m_error;
    std::thread m_thread;
};

}  // namespace contend
