// The marked slices (a contention pattern's runs beside its partner) and their key in the ruler.
#include <algorithm>

#include <QFontMetrics>

#include "widgets/timeline/timeline_painter.h"

namespace contend::widgets {

namespace {
constexpr int kMarkKeySwatchPx = 24;  // the swatch (4 + 16 px) and the gap before the words
}  // namespace

QRect marksKeyRect(const TimelineFrame& f, const QFont& font) {
    if (f.marksLabel.isEmpty()) return {};
    QFont small = font;
    small.setPixelSize(10);
    const int words = QFontMetrics(small).horizontalAdvance(f.marksLabel);
    const QRect critical = criticalLegendRect(f, font);
    const int right = critical.isEmpty() ? f.ruler.right() - kRulerKeyMarginPx : critical.left() - kRulerKeyMarginPx;
    // At most half the ruler: the time labels keep the rest; too short for a swatch and a
    // word, no key.
    const int room = std::min(right - f.ruler.left() - f.ruler.width() / 2, kMarkKeySwatchPx + words + 6);
    if (room < kMarkKeySwatchPx + 40) return {};
    return QRect(right - room + 1, f.ruler.top() + 2, room, f.ruler.height() - 8);
}

void TimelinePainter::paintMarks(QPainter& p, const TimelineFrame& f) {
    // Fills only: an outline is four strips, a tick one on a halo of the background, so it
    // stands out from the slices and flags under it.
    const QColor c = QColor::fromRgba(kMarkColor);
    for (const DrawMark& m : f.list->marks) {
        const QRectF r(m.x, m.y, m.w, m.h);
        if (!m.outline) {
            p.fillRect(r.adjusted(-1, 0, 1, 1), f.colors.background);
            p.fillRect(r, c);
            continue;
        }
        constexpr double t = 2.0;
        p.fillRect(QRectF(r.left(), r.top(), r.width(), t), c);
        p.fillRect(QRectF(r.left(), r.bottom() - t, r.width(), t), c);
        p.fillRect(QRectF(r.left(), r.top(), t, r.height()), c);
        p.fillRect(QRectF(r.right() - t, r.top(), t, r.height()), c);
    }
}

void TimelinePainter::paintMarksKey(QPainter& p, const TimelineFrame& f) {
    const QRect key = marksKeyRect(f, m_font);
    if (key.isEmpty()) return;
    p.save();
    p.setFont(m_small);
    // The ruler under the key and its margin cleared, so no time label peeks out from under it.
    p.fillRect(QRect(key.left(), f.ruler.top(), key.width() + kRulerKeyMarginPx, key.bottom() - f.ruler.top() + 1),
               f.colors.ruler);
    const int tickY = key.top() + key.height() / 2 - static_cast<int>(kMarkTickPx) / 2;
    p.fillRect(QRect(key.left() + 4, tickY, 16, static_cast<int>(kMarkTickPx)), QColor::fromRgba(kMarkColor));
    p.setPen(f.colors.text);
    const QRect words = key.adjusted(kMarkKeySwatchPx, 0, 0, 0);
    p.drawText(words, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(m_small).elidedText(f.marksLabel, Qt::ElideMiddle, words.width()));
    p.restore();
}

}  // namespace contend::widgets
