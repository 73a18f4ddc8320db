#include "app/gui/view_binder.h"

#include "app/gui/analysis_session.h"
#include "app/gui/app_analysis.h"

namespace contend::gui {

widgets::ViewInputs viewInputs(const OpenedTracePtr& trace, ReportPtr report, bool gainsPending) {
    widgets::ViewInputs in;
    if (!trace) return in;
    in.trace = trace->trace;
    in.timeline = trace->timeline;
    in.queues = trace->queues;
    in.report = std::move(report);
    in.slices = trace->sliceView();
    in.pressure = pressureSourceOf(trace->prepared);
    in.gainsPending = gainsPending && in.report && !in.report->whatIf.computed;
    return in;
}

ViewBinder::ViewBinder(AnalysisSession* session, QObject* parent) : QObject(parent), m_session(session) {
    connect(session, &AnalysisSession::previewed, this, &ViewBinder::showTrace);
    connect(session, &AnalysisSession::opened, this, &ViewBinder::showTrace);
    connect(session, &AnalysisSession::reportChanged, this, &ViewBinder::showReport);
}

void ViewBinder::add(std::initializer_list<widgets::SessionView*> views) {
    for (widgets::SessionView* v : views) {
        m_views.push_back(v);
        if (m_trace) v->showTrace(viewInputs(m_trace, m_report));
    }
}

void ViewBinder::showTrace(OpenedTracePtr trace) {
    // The analysis (or its cancel) of the preview on screen: the same trace, read once.
    const bool analysisOfPreview = m_trace && m_trace->analysing && trace && trace->trace == m_trace->trace;
    m_trace = std::move(trace);
    m_report = m_session->report();
    widgets::ViewInputs in = viewInputs(m_trace, m_report);
    in.overlay = m_session->overlay();  // built beside m_report off the GUI thread, or null
    for (widgets::SessionView* v : m_views) {
        if (analysisOfPreview)
            v->showAnalysis(in);
        else
            v->showTrace(in);
    }
    emit traceShown(m_trace);
}

void ViewBinder::showReport(ReportPtr report) {
    if (!m_trace) return;
    m_report = std::move(report);
    widgets::ViewInputs in = viewInputs(m_trace, m_report, m_session->gainsPending());
    if (m_session->report() == m_report) in.overlay = m_session->overlay();
    for (widgets::SessionView* v : m_views) v->showReport(in);
    emit reportShown(m_report);
}

}  // namespace contend::gui
