#include "widgets/timeline/timeline_painter.h"

#include <algorithm>
#include <cmath>

#include <QFontMetrics>

#include "widgets/common/palette.h"
#include "widgets/common/text.h"

namespace contend::widgets {

namespace {
// Dark text on light fills (slices, marks), in both palettes: fills keep their colours.
const QColor kText(0x20, 0x24, 0x28);
const QColor kCriticalPathColor(0xd8, 0x1b, 0x60);

QColor rgba(Argb c) { return QColor::fromRgba(c); }

// Text colour readable on a fill.
QColor textOn(Argb fill) {
    const QColor c = rgba(fill);
    const double lum = 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
    return lum < 140 ? QColor(Qt::white) : kText;
}

QColor counterColor(std::uint32_t i) {
    static const QColor kColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                     QColor(0x17, 0xbe, 0xcf), QColor(0x8c, 0xa2, 0x1a), QColor(0xe3, 0x77, 0xc2)};
    return kColors[i % 6];
}
// A stream's queue length: warm, apart from the counters' blues and greens.
const QColor kQueueColor(0xd6, 0x7a, 0x1f);
}  // namespace

TimelinePainter::TimelinePainter() { setFont(QFont()); }

void TimelinePainter::setFont(const QFont& font) {
    m_font = font;
    m_font.setPixelSize(11);
    m_bold = m_font;
    m_bold.setBold(true);
    m_small = m_font;
    m_small.setPixelSize(10);
    m_charWidth = std::max(1, QFontMetrics(m_font).averageCharWidth());
    m_elided.clear();
}

void TimelinePainter::clearCaches() {
    m_names.clear();
    m_elided.clear();
    m_cachedFor = nullptr;
}

const QString& TimelinePainter::nameOf(const Trace& t, StringId id) {
    auto it = m_names.find(id);
    if (it == m_names.end()) {
        const std::string_view s = t.str(id);
        it = m_names.insert(id, QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())));
    }
    return *it;
}

const QString& TimelinePainter::elided(const Trace& t, StringId id, int width) {
    // Widths are bucketed by 4 px so panning does not re-elide every label every frame.
    const int bucket = width / 4;
    const quint64 key = (static_cast<quint64>(id) << 20) | static_cast<quint64>(std::min(bucket, (1 << 20) - 1));
    auto it = m_elided.find(key);
    if (it != m_elided.end()) return *it;
    if (m_elided.size() > 50000) m_elided.clear();
    const QString& full = nameOf(t, id);
    QString text;
    const int w = bucket * 4;
    if (static_cast<int>(full.size()) * m_charWidth * 2 < w)
        text = full;  // surely fits
    else
        text = QFontMetrics(m_font).elidedText(full, Qt::ElideRight, w);
    if (text == QStringLiteral("…")) text.clear();
    return *m_elided.insert(key, text);
}

void TimelinePainter::paint(QPainter& p, const TimelineFrame& f) {
    if (f.trace != m_cachedFor) {
        clearCaches();
        m_cachedFor = f.trace;
    }
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setFont(m_font);
    p.fillRect(f.timeArea.united(f.gutter).united(f.ruler), f.colors.background);
    if (f.trace && f.layout && f.list) {
        p.save();
        p.setClipRect(f.timeArea);
        p.translate(f.timeArea.topLeft());
        paintRows(p, f);
        paintGrid(p, f);
        paintBands(p, f);
        paintItems(p, f);
        paintBrackets(p, f);
        paintCritical(p, f);
        paintCounters(p, f);
        paintMarks(p, f);
        p.restore();
        paintGutter(p, f);
        paintRuler(p, f);
        paintRulerKeys(p, f);
        paintMarksKey(p, f);
        if (const int pinned = f.layout->pinnedHeight(); pinned > 0 && pinned < f.timeArea.height()) {
            // The edge the other tracks scroll under.
            const int y = f.timeArea.top() + pinned - 1;
            p.fillRect(QRect(f.gutter.left(), y, f.timeArea.right() - f.gutter.left() + 1, 2), f.colors.separator);
        }
    }
    if (!f.rubberBand.isEmpty()) {
        QColor band = f.colors.accent;
        p.setPen(QPen(band, 1, Qt::DashLine));
        band.setAlpha(40);
        p.setBrush(band);
        p.drawRect(f.rubberBand);
    }
    p.restore();
}

namespace {
// A row's rectangle in the view (x0, width), cut where it passes under the pinned rows.
QRect rowRect(const TimelineFrame& f, const LayoutRow& row, int x0, int w) {
    const int y = static_cast<int>(f.layout->viewY(row.y, f.scrollY));
    QRect r(x0, y, w, row.h);
    if (!row.pinned) r.setTop(std::max(r.top(), f.layout->pinnedHeight()));
    return r;
}
}  // namespace

QString hiddenHintText(std::uint32_t hidden) {
    return hidden == 1 ? QStringLiteral("1 track hidden") : QStringLiteral("%1 tracks hidden").arg(hidden);
}

QRect hiddenHintRect(const TimelineFrame& f, const QFont& font) {
    if (f.hiddenTracks == 0) return {};
    QFont small = font;
    small.setPixelSize(10);
    const int w = QFontMetrics(small).horizontalAdvance(hiddenHintText(f.hiddenTracks)) + 8;
    const QRect corner(f.gutter.left(), f.ruler.top(), f.gutter.width(), f.ruler.height());
    return QRect(corner.right() - w - 3, corner.top() + 3, w, corner.height() - 6);
}

QRect criticalLegendRect(const TimelineFrame& f, const QFont& font) {
    if (!f.criticalLegend) return {};
    QFont small = font;
    small.setPixelSize(10);
    // The swatch (4 + 16 px) and a gap before the words, and room after them.
    const int w = QFontMetrics(small).horizontalAdvance(QStringLiteral("critical path")) + 24 + 6;
    // Never more than a third of the ruler: the time labels keep the rest.
    if (w + kRulerKeyMarginPx > f.ruler.width() / 3) return {};
    return QRect(f.ruler.right() - kRulerKeyMarginPx - w + 1, f.ruler.top() + 2, w, f.ruler.height() - 8);
}

void TimelinePainter::paintRows(QPainter& p, const TimelineFrame& f) {
    const int w = f.timeArea.width();
    const auto& rows = f.layout->rows();
    for (std::uint32_t r : f.list->rows) {
        const LayoutRow& row = rows[r];
        const QRect rect = rowRect(f, row, 0, w);
        if (rect.isEmpty()) continue;
        if (row.kind == RowKind::Header)
            p.fillRect(rect, f.colors.header);
        else if (row.kind == RowKind::Lane && (row.track % 2) == 1)
            p.fillRect(rect, f.colors.stripe);
        else if (row.kind == RowKind::Counter || row.kind == RowKind::Queue)
            p.fillRect(rect, f.colors.counterRow);
    }
}

void TimelinePainter::paintGrid(QPainter& p, const TimelineFrame& f) {
    p.setPen(f.colors.grid);
    const int h = f.timeArea.height();
    for (const Tick& t : ticks(f.axis, f.trace->begin()))
        if (t.major) p.drawLine(QPointF(std::round(t.px) + 0.5, 0), QPointF(std::round(t.px) + 0.5, h));
}

void TimelinePainter::paintBands(QPainter& p, const TimelineFrame& f) {
    p.setFont(m_small);
    // Shading is written once per pixel column of a track into an image and blitted, not filled
    // band by band: a track can be the whole view tall, and a translucent fill costs a span per
    // scanline, so hundreds of narrow folded bands cost tens of ms. Each band writes its colour
    // into the columns it covers (a later band wins), its edges stronger where it is wide enough.
    const auto& bands = f.list->bands;
    const int width = f.timeArea.width();
    const int viewH = f.timeArea.height();
    if (width <= 0 || viewH <= 0) return;
    m_bandColumns.resize(static_cast<std::size_t>(width));
    for (std::size_t b0 = 0; b0 < bands.size();) {
        std::size_t b1 = b0;
        while (b1 < bands.size() && bands[b1].track == bands[b0].track && bands[b1].y == bands[b0].y) ++b1;
        std::fill(m_bandColumns.begin(), m_bandColumns.end(), QRgb{0});
        for (std::size_t i = b0; i < b1; ++i) {
            const DrawBand& b = bands[i];
            const int c0 = std::clamp(static_cast<int>(std::floor(b.x)), 0, width - 1);
            const int c1 = std::clamp(static_cast<int>(std::ceil(b.x + b.w)), c0 + 1, width);
            QColor fill = rgba(resourceColor(b.resource));
            fill.setAlpha(60);
            std::fill(m_bandColumns.begin() + c0, m_bandColumns.begin() + c1, qPremultiply(fill.rgba()));
            if (b.w >= 3) {
                fill.setAlpha(150);
                const QRgb edge = qPremultiply(fill.rgba());
                if (b.x >= 0) m_bandColumns[static_cast<std::size_t>(c0)] = edge;
                if (b.x + b.w <= static_cast<float>(width)) m_bandColumns[static_cast<std::size_t>(c1 - 1)] = edge;
            }
        }
        const int y0 = std::max(static_cast<int>(std::round(bands[b0].y)), 0);
        const int y1 = std::min(static_cast<int>(std::round(bands[b0].y + bands[b0].h)), viewH);
        b0 = b1;
        if (y1 <= y0) continue;
        if (m_bandImage.width() != width || m_bandImage.height() < y1 - y0)
            m_bandImage = QImage(width, viewH, QImage::Format_ARGB32_Premultiplied);
        for (int y = 0; y < y1 - y0; ++y)
            std::copy(m_bandColumns.begin(), m_bandColumns.end(), reinterpret_cast<QRgb*>(m_bandImage.scanLine(y)));
        p.drawImage(QPoint(0, y0), m_bandImage, QRect(0, 0, width, y1 - y0));
    }
    // Resource names after all fills so neighbouring bands do not paint over them.
    for (const DrawBand& b : f.list->bands) {
        if (!b.label) continue;
        QString text = resourceLabel(b.resource);
        if (b.merged > 1) text += QStringLiteral(" ×%1").arg(b.merged);
        const QRectF r(b.x + 3, b.y - 11, std::max(b.w - 6, 0.0f), 11);
        if (r.bottom() < 0) continue;
        const QColor designed = rgba(resourceColor(b.resource)).darker(130);
        const QColor c = f.colors.dark ? readableOn(designed, f.colors.background) : designed;
        p.setPen(c);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(m_small).elidedText(text, Qt::ElideRight, static_cast<int>(r.width())));
    }
    p.setFont(m_font);
}

void TimelinePainter::paintItems(QPainter& p, const TimelineFrame& f) {
    const auto& items = f.list->items;
    // Fills first, one pass; outlines and labels after.
    for (const DrawItem& it : items) {
        const QRectF r(it.x, it.y, it.w, it.h);
        if (it.is(kDrawFolded) && !it.is(kDrawFlagged)) {
            p.fillRect(r, rgba(kFoldColor));
        } else {
            p.fillRect(r, rgba(it.fill));
        }
    }
    // Cause outlines as filled strips: a stroked pen goes through the path stroker, which for
    // a few thousand small marks costs more than the whole rest of the frame.
    for (const DrawItem& it : items) {
        if (!it.outline) continue;
        const QColor c = rgba(it.outline);
        if (it.w >= 6) {
            const float b = 2;
            p.fillRect(QRectF(it.x, it.y, it.w, b), c);
            p.fillRect(QRectF(it.x, it.y + it.h - b, it.w, b), c);
            p.fillRect(QRectF(it.x, it.y + b, b, it.h - 2 * b), c);
            p.fillRect(QRectF(it.x + it.w - b, it.y + b, b, it.h - 2 * b), c);
        } else {
            p.fillRect(QRectF(it.x, it.y + it.h - 2, it.w, 2), c);  // an underline
        }
    }
    p.setFont(m_font);
    const int area = f.timeArea.width();
    for (const DrawItem& it : items) {
        if (it.is(kDrawLabel)) {
            const float x0 = std::max(it.x, 0.0f);
            const float x1 = std::min(it.x + it.w, static_cast<float>(area));
            const int w = static_cast<int>(x1 - x0) - 6;
            if (w < 8) continue;
            const Slice& s = f.trace->slices()[it.slice];
            const QString& text = elided(*f.trace, s.name, w);
            if (text.isEmpty()) continue;
            p.setPen(textOn(it.fill));
            p.drawText(QRectF(x0 + 3, it.y, w, it.h), Qt::AlignLeft | Qt::AlignVCenter, text);
        } else if (it.is(kDrawFolded) && it.w >= 34) {
            p.setPen(it.is(kDrawFlagged) ? textOn(it.fill) : QColor(0x30, 0x30, 0x30));
            p.setFont(m_small);
            p.drawText(QRectF(std::max(it.x, 0.0f) + 2, it.y, std::min(it.w, 200.0f) - 4, it.h),
                       Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("×%1").arg(it.count));
            p.setFont(m_font);
        }
    }
    if (f.hoverItem >= 0 && f.hoverItem < static_cast<int>(items.size())) {
        const DrawItem& it = items[static_cast<std::size_t>(f.hoverItem)];
        p.setPen(QPen(f.colors.hoverOutline, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(it.x, it.y, std::max(it.w, 2.0f), it.h));
    }
    if (f.list->selection) {
        const DrawItem& s = *f.list->selection;
        p.setPen(QPen(f.colors.dark ? f.colors.accent : rgba(kSelectionColor), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(s.x - 1, s.y, s.w + 2, s.h));
    }
}

void TimelinePainter::paintBrackets(QPainter& p, const TimelineFrame& f) {
    if (f.list->brackets.empty()) return;
    p.setPen(QPen(f.colors.bracket, 1.5));
    p.setFont(m_small);
    for (const DrawBracket& b : f.list->brackets) {
        const float y = b.y + 1;
        p.drawLine(QPointF(b.x, y + 4), QPointF(b.x, y));
        p.drawLine(QPointF(b.x, y), QPointF(b.x + b.w, y));
        p.drawLine(QPointF(b.x + b.w, y), QPointF(b.x + b.w, y + 4));
        if (b.label) {
            const QString text = b.clusters > 1 ? QStringLiteral("%1 clusters: %2 ops").arg(b.clusters).arg(b.ops)
                                                : QStringLiteral("cluster: %1 ops").arg(b.ops);
            const QRectF r(b.x + 4, y + 1, b.w - 8, 10);
            p.fillRect(
                QRectF(r.x(), r.y(), std::min<qreal>(r.width(), QFontMetrics(m_small).horizontalAdvance(text) + 4),
                       r.height()),
                f.colors.labelBackdrop);
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, text);
        }
    }
    p.setFont(m_font);
}

void TimelinePainter::paintCritical(QPainter& p, const TimelineFrame& f) {
    // One fill per folded stretch: a bar along the bottom of its track.
    for (const DrawPath& d : f.list->critical) p.fillRect(QRectF(d.x, d.y, d.w, d.h), kCriticalPathColor);
}

void TimelinePainter::paintCounters(QPainter& p, const TimelineFrame& f) {
    // Area plots written pixel by pixel into a small image and blitted once: thousands of
    // one-pixel columns are far cheaper as memory writes than as rectangles or a polygon.
    for (const DrawCounter& c : f.list->counters) {
        const QColor color = c.queue ? kQueueColor : counterColor(c.counter);
        const int w = f.timeArea.width();
        const int h = static_cast<int>(c.h);
        if (w <= 0 || h <= 4) continue;
        if (m_counterImage.width() != w || m_counterImage.height() != h)
            m_counterImage = QImage(w, h, QImage::Format_ARGB32_Premultiplied);
        m_counterImage.fill(Qt::transparent);
        QColor light = color;
        light.setAlpha(110);
        const QRgb body = qPremultiply(light.rgba());
        const QRgb edge = qPremultiply(color.rgba());
        const int base = h - 3;  // baseline row
        const double scale = h - 8;
        const auto stride = static_cast<std::size_t>(m_counterImage.bytesPerLine() / 4);
        auto* bits = reinterpret_cast<QRgb*>(m_counterImage.bits());
        for (int x = 0; x < w; ++x) {
            const auto col = static_cast<std::size_t>(static_cast<double>(x) / c.colPx);
            if (col >= c.columns.size()) break;
            const float v = c.columns[col];
            if (std::isnan(v)) continue;
            const int top = base - static_cast<int>(std::lround(static_cast<double>(v) * scale));
            for (int y = std::max(top, 0); y <= base; ++y)
                bits[static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x)] = y == top ? edge : body;
        }
        // Only the part below the pinned tracks.
        const int cut = std::clamp(static_cast<int>(std::ceil(c.clipTop - c.y)), 0, h);
        if (cut < h) p.drawImage(QPointF(0, c.y + cut), m_counterImage, QRect(0, cut, w, h - cut));
        p.setPen(f.colors.counterBaseline);
        if (c.y + base >= c.clipTop) p.drawLine(QPointF(0, c.y + base + 0.5), QPointF(w, c.y + base + 0.5));
    }
}

void TimelinePainter::paintGutter(QPainter& p, const TimelineFrame& f) {
    const QRect g = f.gutter;
    p.save();
    p.setClipRect(g);
    p.fillRect(g, f.colors.gutter);
    const auto& rows = f.layout->rows();
    const QFontMetrics fm(m_font);
    for (std::uint32_t r : f.list->rows) {
        const LayoutRow& row = rows[r];
        const int y = g.top() + static_cast<int>(f.layout->viewY(row.y, f.scrollY));
        const QRect line(g.left() + 6, y, g.width() - 10, row.h);
        // A scrolled row passes under the pinned ones: cut there.
        p.setClipRect(row.pinned ? g : g.adjusted(0, f.layout->pinnedHeight(), 0, 0));
        if (row.kind == RowKind::Header) {
            p.fillRect(QRect(g.left(), y, g.width(), row.h), f.colors.header);
            p.setFont(m_bold);
            p.setPen(f.colors.text);
            const QString arrow = row.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
            p.drawText(
                line, Qt::AlignLeft | Qt::AlignVCenter,
                arrow + QString::fromStdString(groupTitle(row.group)) + QStringLiteral(" (%1)").arg(row.groupCount));
            p.setFont(m_font);
        } else if (row.kind == RowKind::Lane && row.firstOfTrack) {
            if (row.track == f.focusTrack) {  // shown from the Breakdowns tab: a bar and a tint
                QColor tint = f.colors.accent;
                tint.setAlpha(50);
                p.fillRect(QRect(g.left(), y, g.width(), row.h), tint);
                p.fillRect(QRect(g.left(), y, 3, row.h), f.colors.accent);
            }
            p.setPen(f.colors.text);
            QString prefix;
            if (row.collapsed)
                prefix = QStringLiteral("▸ ");
            else if (f.trace->tracks()[row.track].maxDepth > 0 && row.group != TrackGroup::Device)
                prefix = QStringLiteral("▾ ");
            QString label = prefix + trackLabel(*f.trace, row.track);
            if (row.hiddenLanes > 0) label += QStringLiteral("  +%1").arg(row.hiddenLanes);
            p.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(label, Qt::ElideMiddle, line.width()));
        } else if (row.kind == RowKind::Counter) {
            const CounterSeries& c = f.trace->counters()[row.counter];
            p.setPen(f.colors.text);
            const QRect top(line.left(), y + 2, line.width(), row.h / 2 - 2);
            p.drawText(top, Qt::AlignLeft | Qt::AlignVCenter,
                       fm.elidedText(QString::fromStdString(c.label()), Qt::ElideMiddle, line.width()));
            double maxValue = 0;
            for (const DrawCounter& dc : f.list->counters)
                if (dc.row == r) maxValue = dc.maxValue;
            p.setPen(f.colors.mutedText);
            p.setFont(m_small);
            const QString unit = c.unit.empty() ? QString() : QStringLiteral(" ") + QString::fromStdString(c.unit);
            p.drawText(QRect(line.left(), y + row.h / 2, line.width(), row.h / 2 - 2), Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("max %1%2").arg(maxValue, 0, 'g', 4).arg(unit));
            p.setFont(m_font);
        } else if (row.kind == RowKind::Queue) {
            paintQueueLabel(p, f, r, line, y);
        }
    }
    p.setClipRect(g);
    p.setPen(f.colors.separator);
    p.drawLine(g.topRight(), g.bottomRight());
    p.restore();
}

void TimelinePainter::paintQueueLabel(QPainter& p, const TimelineFrame& f, std::uint32_t r, const QRect& line, int y) {
    // One line: what it is and its maximum (the row is short).
    double maxValue = 0;
    for (const DrawCounter& dc : f.list->counters)
        if (dc.row == r) maxValue = dc.maxValue;
    p.setPen(f.colors.mutedText);
    p.setFont(m_small);
    const QString text = QStringLiteral("   queue length, max %1").arg(maxValue, 0, 'f', 0);
    p.drawText(QRect(line.left(), y, line.width(), f.layout->rows()[r].h), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(m_small).elidedText(text, Qt::ElideRight, line.width()));
    p.setFont(m_font);
}

void TimelinePainter::paintRuler(QPainter& p, const TimelineFrame& f) {
    const QRect r = f.ruler;
    p.save();
    p.fillRect(QRect(f.gutter.left(), r.top(), r.right() - f.gutter.left() + 1, r.height()), f.colors.ruler);
    p.setClipRect(r);
    p.setFont(m_small);
    const TimeNs major = niceStep(f.axis.nsPerPx(), 90);
    // A time label that would run under the critical path's key is left out, not cut by it.
    const QRect key = criticalLegendRect(f, m_font);
    const QFontMetrics fm(m_small);
    for (const Tick& t : ticks(f.axis, f.trace->begin())) {
        const double x = r.left() + std::round(t.px) + 0.5;
        p.setPen(f.colors.tick);
        p.drawLine(QPointF(x, r.bottom() - (t.major ? 8 : 4)), QPointF(x, r.bottom()));
        if (t.major) {
            const QString label = QString::fromStdString(formatTick(t.t - f.trace->begin(), major));
            if (!key.isEmpty() && x + 3 + fm.horizontalAdvance(label) + 4 >= key.left()) continue;
            p.setPen(f.colors.text);
            p.drawText(QRectF(x + 3, r.top(), 120, r.height() - 6), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
    }
    if (f.cursorX >= 0) {
        p.setPen(f.colors.accent);
        const double x = r.left() + f.cursorX;
        p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
    }
    p.setClipping(false);
    // Corner: the visible span.
    const QRect corner(f.gutter.left(), r.top(), f.gutter.width(), r.height());
    p.setPen(f.colors.mutedText);
    p.drawText(corner.adjusted(6, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
               QStringLiteral("view %1").arg(durationText(f.axis.span())));
    p.setPen(f.colors.separator);
    p.drawLine(QPoint(corner.left(), r.bottom()), QPoint(r.right(), r.bottom()));
    p.restore();
}

void TimelinePainter::paintRulerKeys(QPainter& p, const TimelineFrame& f) {
    p.save();
    p.setFont(m_small);
    if (const QRect hint = hiddenHintRect(f, m_font); !hint.isEmpty()) {
        // A link-like chip: a click shows the hidden tracks again.
        p.setPen(f.colors.accent);
        p.setBrush(f.colors.background);
        p.drawRoundedRect(QRectF(hint).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
        p.drawText(hint, Qt::AlignCenter, hiddenHintText(f.hiddenTracks));
    }
    if (const QRect key = criticalLegendRect(f, m_font); !key.isEmpty()) {
        // The critical path's bar as it is drawn under a track, and its name; the margin after it
        // is cleared too, so no time label peeks out from under the key.
        p.fillRect(QRect(key.left(), f.ruler.top(), f.ruler.right() - key.left() + 1, key.bottom() - f.ruler.top() + 1),
                   f.colors.ruler);
        const int barY = key.top() + key.height() / 2 - 1;
        p.fillRect(QRect(key.left() + 4, barY, 16, static_cast<int>(kPathHeightPx)), kCriticalPathColor);
        p.setPen(f.colors.text);
        p.drawText(key.adjusted(24, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("critical path"));
    }
    p.restore();
}

}  // namespace contend::widgets
