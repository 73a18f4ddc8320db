#pragma once
// Binds a window's views to its AnalysisSession: when the session opens (or adopts) a trace,
// every view is given it with its first report; when a re-threshold brings a report, every view
// is given that. The window adds its views once and handles only its own affairs (title, message
// bar, summary) on traceShown and reportShown, which come after the views have the new state.
// A preview (the session's, while the analysis of a trace runs) is shown as a new trace; the
// same trace's analysis then comes to the views by showAnalysis, so what the user did on the
// preview (zoom, tracks, selection) stays. traceShown comes for both.
#include <vector>

#include <QObject>

#include "app/gui/opened_trace.h"
#include "widgets/common/session_view.h"

namespace contend::gui {

class AnalysisSession;

// What the views of an opened trace are given beside a report.
widgets::ViewInputs viewInputs(const OpenedTracePtr& trace, ReportPtr report, bool gainsPending = false);

class ViewBinder : public QObject {
    Q_OBJECT
  public:
    ViewBinder(AnalysisSession* session, QObject* parent);

    // In the order given, which is the order they are told. A view added while a trace is open
    // is shown it at once.
    void add(std::initializer_list<widgets::SessionView*> views);
    const OpenedTracePtr& trace() const { return m_trace; }
    const ReportPtr& report() const { return m_report; }

  signals:
    void traceShown(contend::gui::OpenedTracePtr trace);
    void reportShown(contend::gui::ReportPtr report);

  private:
    void showTrace(OpenedTracePtr trace);
    void showReport(ReportPtr report);

    AnalysisSession* m_session;
    std::vector<widgets::SessionView*> m_views;
    OpenedTracePtr m_trace;
    ReportPtr m_report;
};

}  // namespace contend::gui
