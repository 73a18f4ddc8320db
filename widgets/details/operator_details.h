#pragma once
// Everything about the selected operator in words: name, track, times, signature statistics,
// and when flagged its score, baseline, excess, cause, the evidence the cause rests on, the
// contention windows it was in, what its stream was doing around it (idle share, queue length:
// stream_context.h), its slack on the critical path and its predicted gain; then the event's original args (read from the file on the
// ArgsFetcher's thread).
#include <memory>

#include <QTextBrowser>

#include "core/analysis/model/report.h"
#include "core/analysis/model/slice_view.h"
#include "core/trace/trace.h"
#include "widgets/common/session_view.h"
#include "widgets/timeline/range_measure.h"

namespace contend::widgets {

class ArgsFetcher;

// The what-if in words, for the details: a finding's predicted end-to-end gain per iteration and
// in total ("not computed" for -1 or a report without a what-if), and an operator's place on the
// critical path ("on the critical path", "slack 120 us", from the trace's per-slice view; empty
// without a what-if).
QString predictedGainText(const Report& r, TimeNs gainNs);
QString criticalPathText(const Report& r, const SliceView& slices, std::uint32_t slice);

class OperatorDetails : public QTextBrowser, public SessionView {
    Q_OBJECT
  public:
    explicit OperatorDetails(QWidget* parent = nullptr);
    void showTrace(const ViewInputs& in) override {
        setTrace(in.trace);
        m_queues = in.queues;
        m_gainsPending = in.gainsPending;
        setReport(in.report, in.slices);
    }
    void showReport(const ViewInputs& in) override {
        m_gainsPending = in.gainsPending;
        m_queues = in.queues;
        setReport(in.report, in.slices);
    }
    void setTrace(TracePtr trace);
    // The report and the trace's per-slice view beside it (slice_view.h; nullptr: none).
    void setReport(std::shared_ptr<const Report> report, SliceViewPtr slices);
    void showSlice(std::uint32_t slice);
    // A contention window or a sync cluster (index into the report's lists): what it is, its
    // evidence, and its operators with their costs, each a link that selects it.
    void showWindow(std::uint32_t windowIndex);
    void showCluster(std::uint32_t clusterIndex);
    // A measured time range: its duration, per-track busy time and the findings inside it.
    void showRange(const RangeMeasure& range);
    std::uint32_t slice() const { return m_slice; }
    enum class Shown { Nothing, Operator, Window, Cluster, Range };
    Shown shown() const;

  signals:
    // A window id was clicked in the text.
    void windowLinkActivated(quint32 window);
    // An operator of a window or cluster was clicked.
    void sliceLinkActivated(quint32 slice);
    // A "?" beside a value was clicked: the guide's section (its heading's number, "3.") that
    // says how that value is decided.
    void guideLinkActivated(const QString& section);

  protected:
    // A new palette (View > Dark Palette): the text is rendered again in its colours.
    void changeEvent(QEvent* e) override;

  private:
    void render();
    void renderWindow();
    void renderCluster();
    void renderRange();
    // The operators of a window or cluster, costliest first (at most 40 rows).
    QString opsTable(std::vector<std::pair<std::uint32_t, TimeNs>> ops) const;
    TracePtr m_trace;
    QueueTracksPtr m_queues;  // the queue length per stream (what its stream was doing), or null
    // The predicted gain's words ("computing…" while the what-if runs).
    QString gainText(TimeNs gainNs) const;
    std::shared_ptr<const Report> m_report;
    bool m_gainsPending = false;  // the report's what-if is still running
    SliceViewPtr m_slices;
    std::uint32_t m_slice = kNone;
    std::uint32_t m_window = kNone;
    std::uint32_t m_cluster = kNone;
    RangeMeasure m_range;
    bool m_showRange = false;
    ArgsFetcher* m_args;
};

}  // namespace contend::widgets
