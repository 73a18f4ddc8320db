// MainWindow, View > Tracks: the track filter bar above the timeline (Ctrl+T), device streams
// only, and Show All Tracks; the timeline itself pins, hides and moves tracks (its track menu).
#include <QAction>
#include <QMenu>
#include <QVBoxLayout>

#include "app/gui/main_window.h"
#include "app/gui/search_bar.h"
#include "app/gui/track_filter_bar.h"
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
    QAction* all = tracks->addAction(tr("&Show All Tracks"), m_timeline, &TimelineView::showAllTracks);
    all->setObjectName(QStringLiteral("actionShowAllTracks"));
    all->setToolTip(tr("Unhide every hidden track and clear the track filter"));
    tracks->addSeparator();
    QAction* hint = tracks->addAction(tr("Right-click a track's name to pin, hide or move it"));
    hint->setEnabled(false);
    auto sync = [this, device, all] {
        device->setChecked(m_timeline->trackArrangement().filter().deviceOnly);
        const std::uint32_t hidden = m_timeline->layout().notShownTracks();
        all->setEnabled(hidden > 0);
        all->setText(hidden > 0 ? tr("&Show All Tracks (%1 hidden)").arg(hidden) : tr("&Show All Tracks"));
    };
    connect(m_timeline, &TimelineView::tracksChanged, this, sync);
    sync();
    view->addSeparator();
}

}  // namespace contend::gui
