#include "widgets/common/view_colors.h"

#include <algorithm>
#include <cmath>

#include <QGuiApplication>
#include <QRegularExpression>
#include <qcustomplot.h>

namespace contend::widgets {

namespace {

double linear(int c8) {
    const double c = c8 / 255.0;
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& c) {
    return 0.2126 * linear(c.red()) + 0.7152 * linear(c.green()) + 0.0722 * linear(c.blue());
}

// a + (b - a) * t per channel, opaque.
QColor mix(const QColor& a, const QColor& b, double t) {
    auto ch = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
    return {ch(a.red(), b.red()), ch(a.green(), b.green()), ch(a.blue(), b.blue())};
}

QColor withAlpha(QColor c, int alpha) {
    c.setAlpha(alpha);
    return c;
}

}  // namespace

bool isDarkPalette(const QPalette& p) { return p.color(QPalette::Active, QPalette::Window).lightness() < 128; }

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor& designed, const QColor& background, double minRatio) {
    QColor c = designed.toHsl();
    c.setAlpha(255);
    if (contrastRatio(c, background) >= minRatio) return designed;
    // Away from the background: lighter on a dark one, darker on a light one.
    const bool up = luminance(background) < 0.18;
    const double h = c.hslHueF(), s = c.hslSaturationF();
    double l = c.lightnessF();
    for (int i = 0; i < 40 && contrastRatio(c, background) < minRatio; ++i) {
        l = std::clamp(l + (up ? 0.025 : -0.025), 0.0, 1.0);
        c = QColor::fromHslF(static_cast<float>(h), static_cast<float>(s), static_cast<float>(l));
    }
    c.setAlpha(designed.alpha());
    return c.toRgb();
}

ViewColors viewColors(const QPalette& p) {
    ViewColors c;
    if (!isDarkPalette(p)) return c;
    const QColor base = p.color(QPalette::Active, QPalette::Base);
    const QColor window = p.color(QPalette::Active, QPalette::Window);
    QColor text = p.color(QPalette::Active, QPalette::Text);
    if (contrastRatio(text, base) < 7) text = readableOn(text, base, 7);
    c.dark = true;
    c.background = base;
    c.stripe = mix(base, text, 0.05);
    c.header = mix(window, text, 0.14);
    c.counterRow = mix(base, QColor(0x60, 0xa0, 0x60), 0.08);
    c.gutter = mix(window, base, 0.5);
    c.ruler = mix(window, text, 0.06);
    c.grid = withAlpha(text, 28);
    c.text = text;
    c.mutedText = readableOn(mix(text, base, 0.35), c.gutter, 4.5);
    c.tick = mix(text, base, 0.45);
    c.separator = mix(base, text, 0.25);
    c.bracket = mix(text, base, 0.1);
    c.labelBackdrop = withAlpha(base, 210);
    c.hoverOutline = withAlpha(text, 170);
    c.counterBaseline = withAlpha(text, 40);
    c.accent = readableOn(QColor(0x15, 0x65, 0xc0), base, 4.5);
    c.measure = readableOn(QColor(0x19, 0x76, 0xd2), base, 3.0);
    c.flow = readableOn(QColor(0x6a, 0x1b, 0x9a), base, 4.5);
    c.plotBackground = base;
    c.plotText = text;
    c.plotGrid = mix(base, text, 0.2);
    c.heatEmpty = mix(base, text, 0.04);
    c.windowOutline = readableOn(QColor(0x0d, 0x47, 0xa1), base, 4.5);
    c.histogramFill = QColor(0x4a, 0x6b, 0x8c);
    c.histogramPen = readableOn(QColor(0x5b, 0x7a, 0x99), base, 3.0);
    c.good = readableOn(c.good, base, 4.5);
    c.bad = readableOn(c.bad, base, 4.5);
    return c;
}

ViewColors viewColors() { return viewColors(QGuiApplication::palette()); }

QString cssColor(const QPalette& p, const QColor& designed) {
    if (!isDarkPalette(p)) return designed.name();
    return readableOn(designed, p.color(QPalette::Active, QPalette::Base), 4.5).name();
}

QString cssColor(const QColor& designed) { return cssColor(QGuiApplication::palette(), designed); }

QString themedHtml(const QString& html, const QPalette& p) {
    if (!isDarkPalette(p)) return html;
    static const QRegularExpression kColor(QStringLiteral("(color:\\s*)#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\\b"));
    QString out;
    out.reserve(html.size());
    qsizetype at = 0;
    for (auto it = kColor.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(html).mid(at, m.capturedStart() - at);
        out += m.captured(1) + cssColor(p, QColor(QLatin1Char('#') + m.captured(2)));
        at = m.capturedEnd();
    }
    out += QStringView(html).mid(at);
    return out;
}

QString themedHtml(const QString& html) { return themedHtml(html, QGuiApplication::palette()); }

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe7, 0xe9);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x27, 0x2b));
    p.setColor(QPalette::ToolTipBase, QColor(0x33, 0x35, 0x3a));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x90, 0x96));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3c));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x53));
    p.setColor(QPalette::Midlight, QColor(0x3e, 0x41, 0x46));
    p.setColor(QPalette::Mid, QColor(0x5a, 0x5d, 0x63));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0d));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xb8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7a, 0xb8, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb3, 0x9d, 0xdb));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x7d, 0x80, 0x86));
    return p;
}

void stylePlot(QCustomPlot* plot, const ViewColors& c) {
    plot->setBackground(QBrush(c.plotBackground));
    for (QCPAxisRect* r : plot->axisRects()) {
        r->setBackground(QBrush(c.plotBackground));
        for (QCPAxis* a : r->axes()) {
            a->setBasePen(QPen(c.plotText, 0));
            a->setTickPen(QPen(c.plotText, 0));
            a->setSubTickPen(QPen(c.plotText, 0));
            a->setTickLabelColor(c.plotText);
            a->setLabelColor(c.plotText);
            a->grid()->setPen(QPen(c.plotGrid, 0, Qt::DotLine));
            a->grid()->setZeroLinePen(QPen(c.plotGrid, 0));
        }
    }
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* scale = qobject_cast<QCPColorScale*>(plot->plotLayout()->elementAt(i))) {
            QCPAxis* a = scale->axis();
            a->setBasePen(QPen(c.plotText, 0));
            a->setTickPen(QPen(c.plotText, 0));
            a->setSubTickPen(QPen(c.plotText, 0));
            a->setTickLabelColor(c.plotText);
            a->setLabelColor(c.plotText);
        }
}

}  // namespace contend::widgets
