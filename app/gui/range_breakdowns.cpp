#include "app/gui/range_breakdowns.h"

#include <chrono>

namespace contend::gui {

RangeBreakdowns::RangeBreakdowns(QObject* parent) : QObject(parent) { m_pool.setMaxThreadCount(1); }

RangeBreakdowns::~RangeBreakdowns() {
    ++m_generation;
    m_pool.waitForDone();
}

void RangeBreakdowns::setTrace(TracePtr trace) {
    ++m_generation;
    m_waiting.reset();
    m_trace = std::move(trace);
    m_basis = std::make_shared<Basis>();
}

void RangeBreakdowns::cancel() {
    ++m_generation;
    m_waiting.reset();
}

void RangeBreakdowns::request(TimeNs t0, TimeNs t1) {
    ++m_generation;
    if (!m_trace) return;
    if (m_running) {
        m_waiting = std::make_pair(t0, t1);  // replaces any older one waiting
        return;
    }
    start(t0, t1);
}

void RangeBreakdowns::start(TimeNs t0, TimeNs t1) {
    m_running = true;
    const quint64 generation = m_generation;
    TracePtr trace = m_trace;
    std::shared_ptr<Basis> basis = m_basis;
    // `this` outlives the task (the destructor waits for it); the queued call is dropped when
    // this object is gone by the time it would run.
    m_pool.start([this, generation, trace, basis, t0, t1] {
        const auto began = std::chrono::steady_clock::now();
        std::shared_ptr<const BreakdownBasis> b;
        {
            std::lock_guard<std::mutex> lock(basis->mutex);
            if (!basis->value) basis->value = std::make_shared<const BreakdownBasis>(breakdownBasis(*trace));
            b = basis->value;
        }
        breakdowns::TimeRange range;
        range.begin = t0;
        range.end = t1;
        auto result = std::make_shared<const TraceBreakdowns>(computeBreakdowns(*trace, *b, range));
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
        QMetaObject::invokeMethod(
            this, [this, generation, t0, t1, result, ms] { finished(generation, t0, t1, result, ms); },
            Qt::QueuedConnection);
    });
}

void RangeBreakdowns::finished(quint64 generation, TimeNs t0, TimeNs t1, std::shared_ptr<const TraceBreakdowns> b,
                               double ms) {
    m_running = false;
    if (generation == m_generation) emit computed(t0, t1, std::move(b), ms);
    if (m_waiting) {
        const auto [w0, w1] = *m_waiting;
        m_waiting.reset();
        start(w0, w1);
    }
}

}  // namespace contend::gui
