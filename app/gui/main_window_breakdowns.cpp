// The main window's Breakdowns (HTA) tab, linked like the other views: a range measured on the
// timeline shows the breakdowns over it (computed off the GUI thread, RangeBreakdowns), cleared
// or the tab's Whole Trace button shows the whole trace's again; a selected operator, window or
// cluster marks its rank's and streams' rows; opening a stream's row shows the stream on the
// timeline.
#include <algorithm>

#include <QDockWidget>
#include <QStatusBar>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/range_breakdowns.h"
#include "app/gui/view_binder.h"
#include "widgets/breakdowns/breakdown_rows_model.h"
#include "widgets/breakdowns/breakdowns_chart.h"
#include "widgets/common/text.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

namespace {

// The first device-stream track holding an operation of `stream` (kNone when none).
std::uint32_t trackOfStream(const Trace& trace, int stream) {
    for (std::uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const Track& track = trace.tracks()[t];
        if (track.kind != TrackKind::DeviceStream) continue;
        for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i)
            if (trace.infos()[i].stream == stream) return t;
    }
    return kNone;
}

}  // namespace

void MainWindow::wireBreakdowns() {
    m_rangeBreakdowns = new RangeBreakdowns(this);
    connect(m_binder, &ViewBinder::traceShown, this, [this](const OpenedTracePtr& opened) {
        // A preview's analysis is the same trace: a range asked on the preview still comes.
        if (opened->trace != m_rangeTrace.lock()) m_rangeBreakdowns->setTrace(opened->trace);
        m_rangeTrace = opened->trace;
    });
    connect(m_timeline, &widgets::TimelineView::rangeMeasured, this, [this](qint64 t0, qint64 t1) {
        if (!m_session->current()) return;
        if (t1 <= t0) {  // cleared: the whole trace's figures again
            m_rangeBreakdowns->cancel();
            m_breakdowns->showWhole();
            return;
        }
        m_breakdowns->setRangePending(t0, t1);
        m_rangeBreakdowns->request(t0, t1);
    });
    connect(m_rangeBreakdowns, &RangeBreakdowns::computed, this,
            [this](qint64 t0, qint64 t1, const std::shared_ptr<const TraceBreakdowns>& b, double) {
                m_breakdowns->showRange(t0, t1, *b);
            });
    connect(m_breakdowns, &widgets::BreakdownsChart::wholeTraceRequested, this, [this] {
        m_timeline->setMeasuredRange(0, 0);  // tells rangeMeasured(0, 0) when a range was shown
        m_rangeBreakdowns->cancel();
        m_breakdowns->showWhole();
    });
    connect(m_breakdowns, &widgets::BreakdownsChart::streamActivated, this, [this](int stream) {
        const OpenedTrace* cur = m_session->current();
        if (!cur) return;
        const std::uint32_t track = trackOfStream(*cur->trace, stream);
        if (track == kNone) return;
        if (m_timeline->revealTrack(track))
            statusBar()->showMessage(tr("Stream %1: %2").arg(stream).arg(widgets::trackLabel(*cur->trace, track)),
                                     5000);
        else
            statusBar()->showMessage(
                tr("Stream %1 is filtered out of the timeline (View ▸ Tracks ▸ Show All Tracks)").arg(stream), 8000);
    });
}

void MainWindow::highlightBreakdowns(const std::vector<std::uint32_t>& slices) {
    const OpenedTrace* cur = m_session->current();
    std::vector<int> streams;
    if (cur)
        for (std::uint32_t s : slices) {
            if (s >= cur->trace->infos().size()) continue;
            const int stream = cur->trace->infos()[s].stream;
            if (stream >= 0 && std::find(streams.begin(), streams.end(), stream) == streams.end())
                streams.push_back(stream);
        }
    if (!cur || slices.empty())
        m_breakdowns->highlight(widgets::BreakdownRowsModel::kNoRank, {});
    else
        m_breakdowns->highlight(cur->trace->rank(), std::move(streams));
}

}  // namespace contend::gui
