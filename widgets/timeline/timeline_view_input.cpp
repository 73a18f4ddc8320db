// The timeline's mouse, wheel and keyboard: selection, measuring, panning, zooming, keys.
#include <algorithm>
#include <cmath>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "widgets/timeline/timeline_view.h"

namespace contend::widgets {

double TimelineView::cursorPx() const {
    const QRect area = timeArea();
    if (m_mousePos.x() >= area.left() && m_mousePos.x() <= area.right()) return m_mousePos.x() - area.left();
    return area.width() / 2.0;
}

int TimelineView::itemAt(QPoint pos) const {
    const QRect area = timeArea();
    if (!area.contains(pos)) return -1;
    return hitTest(m_list, static_cast<float>(pos.x() - area.left()), static_cast<float>(pos.y() - area.top()), 2.0f);
}

void TimelineView::clickGutter(QPoint pos) {
    if (m_hiddenHint.contains(pos)) {
        showAllTracks();
        return;
    }
    const int row = m_layout.rowAtView(pos.y() - kRuler, m_scrollY);
    if (row < 0) return;
    const LayoutRow& r = m_layout.rows()[static_cast<std::size_t>(row)];
    if (r.kind == RowKind::Header) {
        setGroupCollapsed(r.group, !r.collapsed);
    } else if (r.kind == RowKind::Lane && r.group != TrackGroup::Device && m_data &&
               m_data->trace->tracks()[r.track].maxDepth > 0) {
        setHostExpanded(r.track, m_layoutOptions.expandedHosts.count(r.track) == 0);
    }
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    setFocus();
    m_pressPos = e->position().toPoint();
    m_pressAxis = m_axis;
    m_pressScroll = m_scrollY;
    m_moved = false;
    m_drag = Drag::None;
    if (e->position().x() < kGutter) {
        if (e->button() == Qt::LeftButton) clickGutter(m_pressPos);
        return;
    }
    if (e->button() == Qt::RightButton)
        m_drag = Drag::Box;
    else if (e->button() == Qt::LeftButton && ((e->modifiers() & Qt::ShiftModifier) || e->position().y() < kRuler))
        m_drag = Drag::Measure;
    else if (e->button() == Qt::LeftButton)
        m_drag = Drag::Pan;
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    m_mousePos = e->position().toPoint();
    const QPoint d = m_mousePos - m_pressPos;
    if (m_drag != Drag::None && (std::abs(d.x()) > 3 || std::abs(d.y()) > 3)) m_moved = true;
    if (m_drag == Drag::Pan && m_moved) {
        setAxis(panBy(m_pressAxis, -d.x(), rangeLo(), rangeHi()));
        setScrollY(m_pressScroll - d.y());
        setCursor(Qt::ClosedHandCursor);
    } else if (m_drag == Drag::Measure && m_moved) {
        const QRect area = timeArea();
        const int a = std::clamp(m_pressPos.x(), area.left(), area.right()) - area.left();
        const int b = std::clamp(m_mousePos.x(), area.left(), area.right()) - area.left();
        m_measure0 = m_axis.toTime(std::min(a, b));
        m_measure1 = m_axis.toTime(std::max(a, b));
    } else if (m_drag == Drag::None) {
        const int hover = itemAt(m_mousePos);
        if (hover != m_hoverItem) m_hoverItem = hover;
    }
    update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    unsetCursor();
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::Box && m_moved) {
        const QRect area = timeArea();
        const double x0 =
            std::clamp(std::min(m_pressPos.x(), e->position().toPoint().x()), area.left(), area.right()) - area.left();
        const double x1 =
            std::clamp(std::max(m_pressPos.x(), e->position().toPoint().x()), area.left(), area.right()) - area.left();
        if (x1 - x0 >= 4) zoomTo(m_axis.toTime(x0), m_axis.toTime(x1), 0.0);
    } else if (drag == Drag::Measure && m_moved) {
        if (m_measure1 > m_measure0) emit rangeMeasured(m_measure0, m_measure1);
    } else if (drag != Drag::None && !m_moved && e->button() == Qt::LeftButton) {
        const int it = itemAt(e->position().toPoint());
        if (it < 0) {
            pickSlice(kNone);
        } else {
            const DrawItem& item = m_list.items[static_cast<std::size_t>(it)];
            // A folded mark without a flagged operator has no single operator: zoom into it.
            if (item.is(kDrawFolded) && !item.is(kDrawFlagged)) {
                zoomTo(m_axis.toTime(item.x), m_axis.toTime(item.x + item.w), 0.2);
            } else {
                pickSlice(item.slice);
            }
        }
    }
    update();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e) {
    const int it = itemAt(e->position().toPoint());
    if (it < 0) return;
    const std::uint32_t slice = m_list.items[static_cast<std::size_t>(it)].slice;
    pickSlice(slice, true);
    emit sliceActivated(slice);
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    const QPoint delta = e->angleDelta();
    if (e->modifiers() & Qt::ShiftModifier) {
        setScrollY(m_scrollY - (delta.y() != 0 ? delta.y() : delta.x()) / 120.0 * 54);
    } else {
        if (delta.y() != 0) {
            const double factor = std::pow(0.8, delta.y() / 120.0);
            setAxis(zoomAround(m_axis, e->position().x() - timeArea().left(), factor, rangeLo(), rangeHi()));
        }
        if (delta.x() != 0) setAxis(panBy(m_axis, -delta.x() / 120.0 * m_axis.width() * 0.1, rangeLo(), rangeHi()));
    }
    e->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    if (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier) || !navigateKey(e->key())) {
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

bool TimelineView::navigateKey(int key) {
    const double w = m_axis.width();
    switch (key) {
    case Qt::Key_W: setAxis(zoomAround(m_axis, cursorPx(), 0.8, rangeLo(), rangeHi())); break;
    case Qt::Key_S: setAxis(zoomAround(m_axis, cursorPx(), 1.25, rangeLo(), rangeHi())); break;
    case Qt::Key_A:
    case Qt::Key_Left: setAxis(panBy(m_axis, -0.1 * w, rangeLo(), rangeHi())); break;
    case Qt::Key_D:
    case Qt::Key_Right: setAxis(panBy(m_axis, 0.1 * w, rangeLo(), rangeHi())); break;
    case Qt::Key_Up: setScrollY(m_scrollY - 36); break;
    case Qt::Key_Down: setScrollY(m_scrollY + 36); break;
    case Qt::Key_F: zoomToSelection(); break;
    case Qt::Key_R:
    case Qt::Key_Home:
    case Qt::Key_0: resetZoom(); break;
    case Qt::Key_Escape:
        if (m_measure1 > m_measure0)
            setMeasuredRange(0, 0);
        else
            pickSlice(kNone);
        break;
    default: return false;
    }
    return true;
}

void TimelineView::leaveEvent(QEvent*) {
    m_mousePos = QPoint(-1, -1);
    m_hoverItem = -1;
    update();
}

bool TimelineView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        QString text = tooltipAt(help->pos());
        if (text.isEmpty()) text = gutterTooltip(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            m_tooltipSlice = kNone;
        } else {
            m_tooltipPos = help->globalPos();
            QToolTip::showText(help->globalPos(), themedHtml(text, palette()), this);
        }
        return true;
    }
    return QWidget::event(e);
}

}  // namespace contend::widgets
