#pragma once
// Everything about the selected operator in words: name, track, times, signature statistics,
// and when flagged its score, baseline, excess, cause, the evidence the cause rests on, the
// contention windows it was in; then the event's original args (read from the file on the
// ArgsFetcher's thread).
#include <QTextBrowser>
#include <memory>

#include "core/analysis/report.h"
#include "core/trace/trace.h"

namespace contend::widgets {

class ArgsFetcher;

class OperatorDetails : public QTextBrowser {
    Q_OBJECT
public:
    explicit OperatorDetails(QWidget* parent = nullptr);
    void setTrace(TracePtr trace);
    void setReport(std::shared_ptr<const Report> report);
    void showSlice(std::uint32_t slice);
    std::uint32_t slice() const { return m_slice; }

signals:
    // A window id was clicked in the text.
    void windowLinkActivated(quint32 window);

private:
    void render();
    TracePtr m_trace;
    std::shared_ptr<const Report> m_report;
    std::uint32_t m_slice = kNone;
    ArgsFetcher* m_args;
};

}  // namespace contend::widgets
