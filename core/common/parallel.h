#pragma once
// Two pieces of work on the two cores: the development machine (and many a laptop) has two, so
// core splits a long pass in two halves rather than running a thread pool. Use it where both
// halves are large (a thread costs tens of microseconds) and write to nothing the other reads.
#include <cstddef>
#include <exception>
#include <thread>

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

}  // namespace contend
