// The timeline's track controls: pin, hide, move and filter tracks (a TrackArrangement), pin and
// hide counter tracks, and the menu a right-click on a track's or counter's name opens.
#include <QContextMenuEvent>
#include <QMenu>

#include "widgets/common/text.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::widgets {

void TimelineView::arrangementChanged() {
    rebuildLayout();  // keeps the scroll in range
    update();
    emit tracksChanged();
}

void TimelineView::setTrackArrangement(const TrackArrangement& arrangement) {
    if (!m_data || !m_data->trace || arrangement.order().size() != m_data->trace->tracks().size()) return;
    if (arrangement == m_layoutOptions.arrangement) return;
    m_layoutOptions.arrangement = arrangement;
    arrangementChanged();
}

bool TimelineView::revealTrack(quint32 track) {
    if (!m_data || !m_data->trace || track >= m_data->trace->tracks().size()) return false;
    m_focusTrack = track;
    if (m_layoutOptions.arrangement.setHidden(track, false)) arrangementChanged();
    // A device stream (what the Breakdowns tab shows) in a folded group: unfold it.
    if (m_layout.rowOf(track, 0) < 0 && m_data->trace->tracks()[track].kind == TrackKind::DeviceStream)
        setGroupCollapsed(TrackGroup::Device, false);
    const int shown = m_layout.rowOf(track, 0);
    scrollToRow(shown);
    update();
    return shown >= 0;
}

void TimelineView::setTrackPinned(quint32 track, bool pinned) {
    if (m_layoutOptions.arrangement.setPinned(track, pinned)) arrangementChanged();
}

void TimelineView::setTrackHidden(quint32 track, bool hidden) {
    if (m_layoutOptions.arrangement.setHidden(track, hidden)) arrangementChanged();
}

void TimelineView::setCounterPinned(quint32 counter, bool pinned) {
    if (m_layoutOptions.arrangement.setCounterPinned(counter, pinned)) arrangementChanged();
}

void TimelineView::setCounterHidden(quint32 counter, bool hidden) {
    if (m_layoutOptions.arrangement.setCounterHidden(counter, hidden)) arrangementChanged();
}

void TimelineView::moveTrack(quint32 track, int step) {
    if (m_data && m_data->trace && m_layoutOptions.arrangement.move(*m_data->trace, track, step)) arrangementChanged();
}

void TimelineView::setTrackFilter(const TrackFilter& filter) {
    if (m_layoutOptions.arrangement.setFilter(filter)) arrangementChanged();
}

void TimelineView::showAllTracks() {
    if (m_layoutOptions.arrangement.showAll()) arrangementChanged();
}

const LayoutRow* TimelineView::gutterRowAt(QPoint pos) const {
    if (pos.x() < 0 || pos.x() >= kGutter || pos.y() < kRuler) return nullptr;
    const int row = m_layout.rowAtView(pos.y() - kRuler, m_scrollY);
    return row < 0 ? nullptr : &m_layout.rows()[static_cast<std::size_t>(row)];
}

std::uint32_t TimelineView::trackAtGutter(QPoint pos) const {
    const LayoutRow* r = gutterRowAt(pos);
    return r && (r->kind == RowKind::Lane || r->kind == RowKind::Queue) ? r->track : kNone;
}

std::uint32_t TimelineView::counterAtGutter(QPoint pos) const {
    const LayoutRow* r = gutterRowAt(pos);
    return r && r->kind == RowKind::Counter ? r->counter : kNone;
}

QString TimelineView::gutterTooltip(QPoint pos) const {
    if (m_hiddenHint.contains(pos))
        return tr("%1 by Hide or the track filter; click to show every track")
            .arg(hiddenHintText(m_layout.notShownTracks()).toHtmlEscaped());
    if (!m_data || !m_data->trace) return {};
    if (const std::uint32_t c = counterAtGutter(pos); c != kNone && c < m_data->trace->counters().size())
        return QStringLiteral("<b>%1</b><br><i>%2</i>")
            .arg(QString::fromStdString(m_data->trace->counters()[c].label()).toHtmlEscaped(),
                 tr("Right-click: pin to top or hide"));
    if (const LayoutRow* r = gutterRowAt(pos);
        r && r->kind == RowKind::Queue && m_queues && r->counter < m_queues->tracks.size())
        return tr("<b>Queue length of stream %1</b><br>Operations launched and not yet started, as HTA counts "
                  "them (a launch adds one, the operation's start takes one away)<br><i>%2</i>")
            .arg(m_queues->tracks[r->counter].series->stream)
            .arg(tr("Right-click: pin to top, hide, move up or down (with its stream)"));
    const std::uint32_t track = trackAtGutter(pos);
    if (track == kNone) return {};
    return QStringLiteral("<b>%1</b><br><i>%2</i>")
        .arg(trackLabel(*m_data->trace, track).toHtmlEscaped(), tr("Right-click: pin to top, hide, move up or down"));
}

QMenu* TimelineView::trackMenu(quint32 track, QWidget* parent) {
    auto* menu = new QMenu(parent);
    if (!m_data || !m_data->trace || track >= m_data->trace->tracks().size()) return menu;
    const Trace& trace = *m_data->trace;
    const TrackArrangement& a = m_layoutOptions.arrangement;
    menu->addSection(trackLabel(trace, track));
    const bool pinned = a.isPinned(track);
    QAction* pin = menu->addAction(pinned ? tr("Unpin") : tr("Pin to Top"),
                                   [this, track, pinned] { setTrackPinned(track, !pinned); });
    pin->setObjectName(QStringLiteral("trackPin"));
    QAction* hide = menu->addAction(tr("Hide"), [this, track] { setTrackHidden(track, true); });
    hide->setObjectName(QStringLiteral("trackHide"));
    QAction* up = menu->addAction(tr("Move Up"), [this, track] { moveTrack(track, -1); });
    up->setObjectName(QStringLiteral("trackUp"));
    up->setEnabled(a.canMove(trace, track, -1));
    QAction* down = menu->addAction(tr("Move Down"), [this, track] { moveTrack(track, +1); });
    down->setObjectName(QStringLiteral("trackDown"));
    down->setEnabled(a.canMove(trace, track, +1));
    addShowAll(menu);
    return menu;
}

void TimelineView::addShowAll(QMenu* menu) {
    menu->addSeparator();
    const std::uint32_t hidden = m_layout.notShownTracks();
    QAction* all = menu->addAction(hidden > 0 ? tr("Show All Tracks (%1 hidden)").arg(hidden) : tr("Show All Tracks"),
                                   [this] { showAllTracks(); });
    all->setObjectName(QStringLiteral("trackShowAll"));
    all->setEnabled(hidden > 0);
}

QMenu* TimelineView::counterMenu(quint32 counter, QWidget* parent) {
    auto* menu = new QMenu(parent);
    if (!m_data || !m_data->trace || counter >= m_data->trace->counters().size()) return menu;
    const TrackArrangement& a = m_layoutOptions.arrangement;
    menu->addSection(QString::fromStdString(m_data->trace->counters()[counter].label()));
    const bool pinned = a.isCounterPinned(counter);
    QAction* pin = menu->addAction(pinned ? tr("Unpin") : tr("Pin to Top"),
                                   [this, counter, pinned] { setCounterPinned(counter, !pinned); });
    pin->setObjectName(QStringLiteral("trackPin"));
    QAction* hide = menu->addAction(tr("Hide"), [this, counter] { setCounterHidden(counter, true); });
    hide->setObjectName(QStringLiteral("trackHide"));
    addShowAll(menu);
    return menu;
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e) {
    const std::uint32_t track = trackAtGutter(e->pos());
    const std::uint32_t counter = counterAtGutter(e->pos());
    if (track == kNone && counter == kNone) {
        QWidget::contextMenuEvent(e);
        return;
    }
    QMenu* menu = track != kNone ? trackMenu(track, this) : counterMenu(counter, this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(e->globalPos());
    e->accept();
}

}  // namespace contend::widgets
