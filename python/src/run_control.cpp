#include "python/src/run_control.h"

#include <chrono>
#include <exception>
#include <future>

namespace contend::py {

namespace pyb = pybind11;

namespace {
// Shares of the bar: the load, then the preparation's stages (by prepareStageStart), then the
// report and the what-if.
constexpr double kLoadShare = 0.4;
constexpr double kPrepareShare = 0.55;
// How often the waiting thread looks at signals and progress.
constexpr auto kTick = std::chrono::milliseconds(50);
}  // namespace

std::function<bool(double)> RunControl::loadHook() {
    return [this](double f) {
        stage("loading", kLoadShare * f);
        return keepGoing();
    };
}

PrepareProgress RunControl::prepareHook() {
    return [this](PrepareStage s) {
        const double at = kLoadShare + kPrepareShare * prepareStageStart(s);
        stage(prepareStageName(s), at);
        if (s == PrepareStage::Ranking) stage("building the report", kLoadShare + kPrepareShare);
    };
}

void RunControl::stage(const std::string& words, double fraction) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_words = words;
    m_fraction = fraction;
}

void RunControl::report(bool last) {
    if (m_progress.is_none()) return;
    std::string words;
    double fraction = 0;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        words = last ? "done" : m_words;
        fraction = last ? 1.0 : m_fraction;
    }
    if (words == m_told && fraction == m_toldFraction) return;
    m_told = words;
    m_toldFraction = fraction;
    try {
        pyb::object answer = m_progress(words, fraction);
        if (!answer.is_none() && !answer.cast<bool>()) m_stop = true;
    } catch (pyb::error_already_set& e) {
        if (!m_error) m_error = std::move(e);
        m_stop = true;
    }
}

void RunControl::run(const std::function<void()>& work) {
    std::future<void> done;
    {
        pyb::gil_scoped_release nogil;
        done = std::async(std::launch::async, work);
    }
    for (;;) {
        std::future_status status;
        {
            pyb::gil_scoped_release nogil;
            status = done.wait_for(kTick);
        }
        if (status == std::future_status::ready) break;
        if (PyErr_CheckSignals() != 0) {
            // KeyboardInterrupt (or another handler's error): keep it, stop core, and wait for
            // it to reach its next check.
            pyb::error_already_set e;
            if (!m_error) m_error = std::move(e);
            m_stop = true;
        } else if (!m_stop) {
            report(false);
        }
    }
    {
        pyb::gil_scoped_release nogil;
        done.get();  // the work's own exceptions (core turns its failures into values)
    }
    if (!m_stop) report(true);
}

void RunControl::raiseIfStopped() {
    if (m_error) {
        pyb::error_already_set e = std::move(*m_error);
        m_error.reset();
        throw e;
    }
}

}  // namespace contend::py
