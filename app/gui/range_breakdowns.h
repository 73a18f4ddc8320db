#pragma once
// HTA's breakdowns over a range selected on the timeline, off the GUI thread: core's
// computeBreakdowns from the trace's BreakdownBasis (its scope and queue series, computed by the
// first request of a trace and kept for the next ones). One computation at a time: a request
// made while one runs waits, and only the newest waiting one runs next; a result is delivered
// only when no request (or cancel, or new trace) came after it, so a stale range never replaces
// a newer one. On 1M kernels a range takes 45 ms (10% of the trace) to 166 ms (all of it) and
// the basis 263 ms (contend-cli bench-analyze, medians), hence the thread.
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include <QObject>
#include <QThreadPool>

#include "core/analysis/breakdowns/breakdowns.h"
#include "core/trace/trace.h"

namespace contend::gui {

class RangeBreakdowns : public QObject {
    Q_OBJECT
  public:
    explicit RangeBreakdowns(QObject* parent = nullptr);
    ~RangeBreakdowns() override;
    // The trace ranges are asked of (null: none); forgets the basis and anything asked before.
    void setTrace(TracePtr trace);
    // The breakdowns over [t0, t1] (absolute ns), delivered by `computed`.
    void request(TimeNs t0, TimeNs t1);
    // Nothing asked so far is delivered (the range was cleared).
    void cancel();
    // A computation runs or waits.
    bool busy() const { return m_running || m_waiting.has_value(); }

  signals:
    // The newest request's breakdowns, with the wall ms it took (the basis included, when it
    // was computed for it).
    void computed(qint64 t0, qint64 t1, std::shared_ptr<const contend::TraceBreakdowns> breakdowns, double ms);

  private:
    // The basis of one trace, shared with the worker that computes it.
    struct Basis {
        std::mutex mutex;
        std::shared_ptr<const BreakdownBasis> value;
    };
    void start(TimeNs t0, TimeNs t1);
    void finished(quint64 generation, TimeNs t0, TimeNs t1, std::shared_ptr<const TraceBreakdowns> b, double ms);

    QThreadPool m_pool;  // one thread; destroyed (waited for) with this object
    TracePtr m_trace;
    std::shared_ptr<Basis> m_basis;
    quint64 m_generation = 0;  // bumped by every request, cancel and trace
    bool m_running = false;
    std::optional<std::pair<TimeNs, TimeNs>> m_waiting;
};

}  // namespace contend::gui
