// MainWindow, View > Tracks: the track filter bar above the timeline (Ctrl+T), device streams
// only, and Show All Tracks; the timeline itself pins, hides and moves tracks (its track menu).
// Each trace's tracks are remembered (TrackMemory) and come back when it is opened again; View >
// Tracks > Show All Tracks puts the trace's own arrangement back and forgets it.
#include <QAction>
#include <QMenu>
#include <QVBoxLayout>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/search_bar.h"
#include "app/gui/track_filter_bar.h"
#include "app/gui/track_memory.h"
#include "app/gui/view_binder.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

using namespace contend::widgets;

void MainWindow::addTrackActions(QMenu* view) {
    // The bar goes under the find bar, above the timeline, shown on demand like the find bar.
    m_trackFilter = new TrackFilterBar(m_timeline, centralWidget());
    m_trackFilter->hide();
    if (auto* box = qobject_cast<QVBoxLayout*>(centralWidget()->layout()))
        box->insertWidget(box->indexOf(m_search) + 1, m_trackFilter);

    QMenu* tracks = view->addMenu(tr("&Tracks"));
    tracks->setObjectName(QStringLiteral("menuTracks"));
    QAction* filter = tracks->addAction(tr("&Filter Tracks…"), m_trackFilter, &TrackFilterBar::activate);
    filter->setObjectName(QStringLiteral("actionFilterTracks"));
    filter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    filter->setToolTip(tr("Keep the tracks whose name or process matches a text"));
    QAction* device = tracks->addAction(tr("&Device Streams Only"));
    device->setObjectName(QStringLiteral("actionDeviceOnly"));
    device->setCheckable(true);
    connect(device, &QAction::triggered, this, [this](bool on) {
        TrackFilter f = m_timeline->trackArrangement().filter();
        f.deviceOnly = on;
        m_timeline->setTrackFilter(f);
    });
    QAction* all = tracks->addAction(tr("&Show All Tracks"), this, &MainWindow::resetTracks);
    all->setObjectName(QStringLiteral("actionShowAllTracks"));
    all->setToolTip(
        tr("Every track in the trace's own order: unhide, unpin, clear the filter, and forget the "
           "tracks remembered for this trace"));
    tracks->addSeparator();
    QAction* hint = tracks->addAction(tr("Right-click a track's name to pin, hide or move it"));
    hint->setEnabled(false);
    auto sync = [this, device, all] {
        device->setChecked(m_timeline->trackArrangement().filter().deviceOnly);
        const std::uint32_t hidden = m_timeline->layout().notShownTracks();
        const OpenedTrace* cur = m_session->current();
        all->setEnabled(cur && m_timeline->trackArrangement() != TrackArrangement(*cur->trace));
        all->setText(hidden > 0 ? tr("&Show All Tracks (%1 hidden)").arg(hidden) : tr("&Show All Tracks"));
    };
    connect(m_timeline, &TimelineView::tracksChanged, this, sync);
    connect(m_timeline, &TimelineView::tracksChanged, this, &MainWindow::rememberTracks);
    // After the views have the new trace (the timeline starts it in the trace's own order).
    connect(m_binder, &ViewBinder::traceShown, this, &MainWindow::recallTracks);
    sync();
    view->addSeparator();
}

void MainWindow::recallTracks(OpenedTracePtr opened) {
    m_tracksFor.reset();  // nothing saved while the remembered tracks are applied
    if (!opened || !opened->trace || !m_timeline->data() || m_timeline->data()->trace != opened->trace) return;
    if (const auto remembered = TrackMemory::recall(opened->path, *opened->trace))
        m_timeline->setTrackArrangement(*remembered);
    m_tracksFor = opened->trace;
}

bool MainWindow::showsTracksOf(const OpenedTrace* opened) const {
    // The trace read this time, not an earlier read of the same file (the timeline starts a new
    // read in the trace's own order, which is not the user's).
    return opened && m_timeline->data() && m_timeline->data()->trace == opened->trace &&
           m_tracksFor.lock() == opened->trace;
}

void MainWindow::rememberTracks() {
    const OpenedTrace* cur = m_session->current();
    if (showsTracksOf(cur)) TrackMemory::remember(cur->path, *cur->trace, m_timeline->trackArrangement());
}

void MainWindow::resetTracks() {
    const OpenedTrace* cur = m_session->current();
    if (!cur || !m_timeline->data() || m_timeline->data()->trace != cur->trace) return;
    TrackMemory::forget(cur->path);
    m_timeline->setTrackArrangement(TrackArrangement(*cur->trace));
}

}  // namespace contend::gui
