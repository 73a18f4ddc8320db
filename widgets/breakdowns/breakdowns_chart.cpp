#include "widgets/breakdowns/breakdowns_chart.h"

#include <algorithm>
#include <array>

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/breakdowns/bandwidth_histogram_chart.h"
#include "widgets/common/view_colors.h"

namespace contend::widgets {

namespace {

QCPBars* bars(QCustomPlot* plot, const QString& name, const QColor& color) {
    auto* b = new QCPBars(plot->xAxis, plot->yAxis);
    b->setName(name);
    b->setBrush(color);
    b->setPen(QPen(color.darker(130)));
    b->setWidth(0.6);
    return b;
}

void styleLegend(QCustomPlot* plot, const ViewColors& colors, int perRow) {
    plot->legend->setVisible(true);
    // Under the plot, in rows, never over a bar: the legend leaves the axis rect's inset layout
    // for a row of the plot's own layout.
    auto* row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, row);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    row->setMargins(QMargins(0, 0, 0, 0));
    plot->axisRect()->insetLayout()->take(plot->legend);
    row->addElement(0, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(perRow);
    plot->legend->setIconSize(10, 10);
    plot->legend->setRowSpacing(0);
    plot->xAxis->setTickLabelRotation(35);
    if (colors.dark) {
        plot->legend->setBrush(QBrush(colors.plotBackground));
        plot->legend->setTextColor(colors.plotText);
        plot->legend->setBorderPen(QPen(colors.separator));
    }
}

double share(TimeNs part, TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

BreakdownsChart::BreakdownsChart(QWidget* parent)
    : QWidget(parent),
      m_title(new QLabel(this)),
      m_time(new QCustomPlot(this)),
      m_bandwidth(new QCustomPlot(this)),
      m_histogram(new BandwidthHistogramChart(this)),
      m_notes(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title->setWordWrap(true);
    m_notes->setWordWrap(true);
    layout->addWidget(m_title);
    // The two charts side by side: the dock shares the bottom row's height with the tables, so
    // stacked they would make the window too tall for a 1280x800 screen.
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_time, 3);
    charts->addWidget(m_bandwidth, 2);
    charts->addWidget(m_histogram, 2);
    layout->addLayout(charts, 1);
    layout->addWidget(m_notes);
    m_time->setMinimumSize(240, 160);
    m_bandwidth->setMinimumSize(180, 160);
    const ViewColors colors = viewColors(palette());
    for (QCustomPlot* p : {m_time, m_bandwidth}) {
        stylePlot(p, colors);
        styleLegend(p, colors, p == m_time ? 3 : 1);
        p->xAxis->grid()->setVisible(false);
    }
    m_time->yAxis->setLabel(tr("% of whole"));
    m_bandwidth->yAxis->setLabel(tr("GB/s"));
    m_bandwidth->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_bandwidth->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    // A click on a copy kind's bars shows that kind's histogram.
    connect(m_bandwidth, &QCustomPlot::plottableClick, this,
            [this](QCPAbstractPlottable*, int dataIndex, QMouseEvent*) { m_histogram->showKind(dataIndex); });
    clear();
}

void BreakdownsChart::clear() {
    m_time->clearPlottables();
    m_bandwidth->clearPlottables();
    m_histogram->setRows({});
    m_title->setText(tr("<b>Breakdowns</b> (HTA's figures): no report yet"));
    m_notes->clear();
    m_time->replot();
    m_bandwidth->replot();
}

void BreakdownsChart::setBreakdowns(const TraceBreakdowns& b) {
    clear();
    if (b.empty()) return;
    m_title->setText(
        tr("<b>Breakdowns</b> (HTA's figures) over %1 of %2 device operations").arg(b.inScope).arg(b.deviceOps));
    // Stacked bars: the rank's temporal breakdown, then each stream's idle time by cause.
    const std::array<QColor, 6> colours = {QColor(0x43, 0xA0, 0x47), QColor(0xFB, 0x8C, 0x00),
                                           QColor(0x9E, 0x9E, 0x9E), QColor(0x1E, 0x88, 0xE5),
                                           QColor(0x8E, 0x24, 0xAA), QColor(0xE5, 0x39, 0x35)};
    const std::array<QString, 6> names = {tr("compute"),   tr("non-compute"), tr("idle"),
                                          tr("host wait"), tr("kernel wait"), tr("other idle")};
    std::array<QCPBars*, 6> series{};
    for (std::size_t i = 0; i < series.size(); ++i) {
        series[i] = bars(m_time, names[i], colours[i]);
        if (i % 3 != 0) series[i]->moveAbove(series[i - 1]);
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double key = 0;
    for (const RankTemporal& t : b.temporal.rows) {
        key += 1;
        ticker->addTick(key, t.rank >= 0 ? tr("rank %1").arg(t.rank) : tr("rank ?"));
        series[0]->addData(key, share(t.computeNs, t.kernelNs));
        series[1]->addData(key, share(t.nonComputeNs, t.kernelNs));
        series[2]->addData(key, share(t.idleNs, t.kernelNs));
    }
    for (const StreamIdle& s : b.idle.rows) {
        key += 1;
        ticker->addTick(key, tr("stream %1").arg(s.stream));
        const TimeNs all = s.hostWaitNs + s.kernelWaitNs + s.otherNs;
        series[3]->addData(key, share(s.hostWaitNs, all));
        series[4]->addData(key, share(s.kernelWaitNs, all));
        series[5]->addData(key, share(s.otherNs, all));
    }
    m_time->xAxis->setTicker(ticker);
    m_time->xAxis->setRange(0.3, key + 0.7);
    m_time->yAxis->setRange(0, 100);
    // Bandwidth per copy kind: HTA's median sample and the median copy.
    auto* hta = bars(m_bandwidth, tr("HTA: median of summed samples"), QColor(0x90, 0xA4, 0xAE));
    auto* perCopy = bars(m_bandwidth, tr("median copy"), QColor(0x1E, 0x88, 0xE5));
    auto* group = new QCPBarsGroup(m_bandwidth);
    hta->setBarsGroup(group);
    perCopy->setBarsGroup(group);
    hta->setWidth(0.35);
    perCopy->setWidth(0.35);
    QSharedPointer<QCPAxisTickerText> kinds(new QCPAxisTickerText);
    double lo = 1, hi = 10;
    for (std::size_t i = 0; i < b.memoryBandwidth.rows.size(); ++i) {
        const CopyBandwidth& c = b.memoryBandwidth.rows[i];
        const double k = static_cast<double>(i + 1);
        kinds->addTick(k, QString::fromStdString(c.kind));
        hta->addData(k, std::max(c.p50Gbps, 1e-4));
        perCopy->addData(k, std::max(c.copyP50Gbps, 1e-4));
        lo = std::min({lo, c.p50Gbps, c.copyP50Gbps});
        hi = std::max({hi, c.p50Gbps, c.copyP50Gbps});
    }
    m_bandwidth->xAxis->setTicker(kinds);
    m_bandwidth->xAxis->setRange(0.4, static_cast<double>(b.memoryBandwidth.rows.size()) + 0.6);
    m_bandwidth->yAxis->setRange(std::max(lo / 2, 1e-4), hi * 2);
    m_histogram->setRows(b.memoryBandwidth.rows);
    QString notes;
    for (const auto& [name, why] : b.reasons())
        if (!why->empty())
            notes += tr("%1: not computed: %2\n").arg(QString::fromUtf8(name), QString::fromStdString(*why));
    m_notes->setText(notes.trimmed());
    m_time->replot();
    m_bandwidth->replot();
}

}  // namespace contend::widgets
