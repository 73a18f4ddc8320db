#include "widgets/compare/shift_chart.h"

#include <algorithm>
#include <cmath>

#include <QLabel>
#include <QMouseEvent>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/common/palette.h"
#include "widgets/common/text.h"
#include "widgets/common/view_colors.h"

namespace contend::widgets {

namespace {
// Bar colours: the baseline muted, the comparison strong, so "after" reads as the subject.
const QColor kBaseColor(0x90, 0xA4, 0xAE);
const QColor kNewColor(0x1E, 0x88, 0xE5);
// Pixels kept clear between two labels (or two turned labels' lines).
constexpr double kLabelGapPx = 6;
}  // namespace

TickLabelFit fitTickLabels(double spacingPx, double widestPx, double lineHeightPx) {
    const double sin45 = std::sqrt(0.5);
    for (int step = 1; step < 64; ++step) {
        const double room = spacingPx * step;
        if (widestPx + kLabelGapPx <= room) return {0, step};
        // Turned labels are parallel lines `room * sin(angle)` apart.
        if (room * sin45 >= lineHeightPx + kLabelGapPx) return {-45, step};
        if (room >= lineHeightPx + kLabelGapPx) return {-90, step};
    }
    return {-90, 64};
}

ShiftChart::ShiftChart(QWidget* parent) : QWidget(parent), m_title(new QLabel(this)), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::RichText);
    layout->addWidget(m_title);
    layout->addWidget(m_plot, 1);
    m_plot->setMinimumHeight(160);

    m_base = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_new = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_base->setName(tr("baseline"));
    m_new->setName(tr("comparison"));
    m_base->setBrush(kBaseColor);
    m_base->setPen(QPen(kBaseColor.darker(130)));
    m_new->setBrush(kNewColor);
    m_new->setPen(QPen(kNewColor.darker(130)));
    auto* group = new QCPBarsGroup(m_plot);
    m_base->setBarsGroup(group);
    m_new->setBarsGroup(group);
    m_base->setWidth(0.35);
    m_new->setWidth(0.35);
    group->setSpacing(2);

    // Once the plot knows its axis width: fit the names to it (and lay out again if that changed).
    connect(m_plot, &QCustomPlot::afterLayout, this, &ShiftChart::fitLabels);
    // Every bar pair names its resource on hover, the ones whose name is left out too.
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        m_plot->setToolTip(resourceTip(m_plot->xAxis->pixelToCoord(e->position().x())));
    });
    m_plot->yAxis->setLabel(tr("extra wait (ms)"));
    m_plot->xAxis->grid()->setVisible(false);
    // The legend in a row of its own above the bars, side by side: inside the axis rect it sat on
    // the tallest bar whenever the pane was small (a compare window at 1280x800).
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->axisRect()->insetLayout()->simplify();
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->plotLayout()->setRowSpacing(0);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setMargins(QMargins(0, 0, 0, 0));
    m_plot->legend->setIconSize(14, 10);
    m_plot->legend->setIconTextPadding(4);
    m_plot->legend->setColumnSpacing(10);
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) m_plot->legend->item(i)->setMargins(QMargins(2, 0, 2, 2));
    // The two entries side by side at the left, not spread over the width.
    if (m_plot->legend->columnCount() == 2) {
        m_plot->legend->setColumnStretchFactor(0, 0.001);
        m_plot->legend->setColumnStretchFactor(1, 1);
    }
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    const ViewColors colors = viewColors(palette());
    stylePlot(m_plot, colors);
    if (colors.dark) m_plot->legend->setTextColor(colors.plotText);
    clear();
}

void ShiftChart::clear() {
    m_resources.clear();
    m_base->data()->clear();
    m_new->data()->clear();
    m_title->setText(tr("<b>Bottleneck</b>: no comparison yet"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    m_plot->replot();
}

void ShiftChart::setResult(const CompareResult& r) {
    m_resources.clear();
    for (std::size_t i = 0; i < kResourceCount; ++i) {
        const auto res = static_cast<Resource>(i);
        if (res == Resource::None) continue;
        if (r.baseByResource[i] > 0 || r.newByResource[i] > 0) m_resources.push_back(res);
    }
    QVector<double> keys, base, now;
    double top = 0;
    for (std::size_t k = 0; k < m_resources.size(); ++k) {
        const auto i = static_cast<std::size_t>(m_resources[k]);
        keys << static_cast<double>(k + 1);
        base << static_cast<double>(r.baseByResource[i]) / 1e6;
        now << static_cast<double>(r.newByResource[i]) / 1e6;
        top = std::max({top, base.back(), now.back()});
    }
    m_base->setData(keys, base, true);
    m_new->setData(keys, now, true);
    setTicks();
    m_plot->xAxis->setRange(0.4, std::max<double>(1.0, static_cast<double>(m_resources.size())) + 0.6);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);

    const BottleneckShift& b = r.bottleneck;
    QString title = tr("<b>Bottleneck</b>: %1").arg(QString::fromStdString(b.text).toHtmlEscaped());
    if (b.shifted) title += tr(" &nbsp;<span style='color:#C62828'><b>shifted</b></span>");
    if (b.wentAway) title += tr(" &nbsp;<span style='color:#2E7D32'><b>went away</b></span>");
    title += tr("<br>extra wait %1 → %2").arg(durationText(r.baseExtraWait), durationText(r.newExtraWait));
    if (m_resources.empty()) title += tr("<br>neither run has extra wait attributed to a resource");
    m_title->setText(themedHtml(title, palette()));
    m_plot->replot();
}

QString ShiftChart::resourceTip(double key) const {
    const long k = std::lround(key) - 1;
    if (k < 0 || static_cast<std::size_t>(k) >= m_resources.size() || std::abs(key - static_cast<double>(k + 1)) > 0.45)
        return {};
    const auto i = static_cast<std::size_t>(k);
    const double base = m_base->data()->at(static_cast<int>(i))->value;
    const double now = m_new->data()->at(static_cast<int>(i))->value;
    return tr("<b>%1</b><br>extra wait %2 ms → %3 ms")
        .arg(resourceLabel(m_resources[i]), QString::number(base, 'g', 3), QString::number(now, 'g', 3));
}

void ShiftChart::setTicks() {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t k = 0; k < m_resources.size(); ++k) {
        const bool shown = k % static_cast<std::size_t>(std::max(m_fit.step, 1)) == 0;
        ticker->addTick(static_cast<double>(k + 1), shown ? resourceLabel(m_resources[k]) : QString());
    }
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLabelRotation(m_fit.rotation);
}

void ShiftChart::fitLabels() {
    if (m_resources.empty()) return;
    const QFontMetrics fm(m_plot->xAxis->tickLabelFont());
    double widest = 0;
    for (Resource r : m_resources) widest = std::max<double>(widest, fm.horizontalAdvance(resourceLabel(r)));
    const double spacing = std::abs(m_plot->xAxis->coordToPixel(2) - m_plot->xAxis->coordToPixel(1));
    const TickLabelFit fit = fitTickLabels(spacing, widest, fm.height());
    if (fit.rotation == m_fit.rotation && fit.step == m_fit.step) return;
    m_fit = fit;
    setTicks();
    m_plot->replot(QCustomPlot::rpQueuedReplot);  // the turned names change the bottom margin
}

}  // namespace contend::widgets
