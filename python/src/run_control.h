#pragma once
// Core's long work run from Python: on a worker thread with the GIL released, while the calling
// thread waits in short steps, holding the GIL only between them to (1) let Python's signal
// handlers run, so Ctrl+C (KeyboardInterrupt) sets the cancel flag core polls (its keepGoing and
// the load's progress, the same hooks the app's Cancel uses), and (2) tell the caller's progress
// callback the stage and the fraction done, on the caller's own thread.
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <pybind11/pybind11.h>
#include <string>

#include "core/analysis/engine.h"

namespace contend::py {

class RunControl {
  public:
    // `progress`: None, or a callable (stage: str, fraction: float 0..1); it may return False
    // to cancel. An exception from it cancels and is raised again once core has stopped.
    explicit RunControl(pybind11::object progress) : m_progress(std::move(progress)) {}

    // Hooks for core, callable from any thread (they only touch atomics and a mutex).
    bool keepGoing() const { return !m_stop.load(std::memory_order_relaxed); }
    std::function<bool()> keepGoingHook() {
        return [this] { return keepGoing(); };
    }
    // The load's progress (0..1 of the file), shown as the first part of the bar.
    std::function<bool(double)> loadHook();
    PrepareProgress prepareHook();
    // Any other stage (a cluster's ranks done): the words and the overall fraction.
    void stage(const std::string& words, double fraction);

    // Runs `work` on a worker thread and waits for it as above. Call with the GIL held. After
    // it returns, raise() throws what stopped it (KeyboardInterrupt, the callback's error).
    void run(const std::function<void()>& work);
    // Throws the Python error that stopped the run, if any (call with the GIL held).
    void raiseIfStopped();
    // True when the caller asked to stop (the callback returned False, raised, or Ctrl+C): the
    // work's answer is then a cancel, even if core finished before its next check.
    bool stopped() const { return m_stop.load(); }

  private:
    void report(bool last);

    pybind11::object m_progress;
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;  // m_words, m_fraction
    std::string m_words = "loading";
    double m_fraction = 0;
    std::string m_told;  // what the callback was last told, to tell it only changes
    double m_toldFraction = -1;
    std::optional<pybind11::error_already_set> m_error;
};

}  // namespace contend::py
