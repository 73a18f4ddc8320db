#include "widgets/breakdowns/bandwidth_histogram_chart.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

#include <QComboBox>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "core/analysis/breakdowns/memory_bandwidth.h"
#include "widgets/common/view_colors.h"

namespace contend::widgets {

namespace {

// A bandwidth as its position on the axis: k = log10(GB/s) * bins per decade, so the edges are
// the whole numbers and each bin is one unit wide.
double axisPos(double gbps) { return std::log10(gbps) * breakdowns::kBinsPerDecade; }

QString gbpsText(double g) {
    if (g >= 100) return QString::number(g, 'f', 0);
    if (g >= 1) return QString::number(g, 'g', 3);
    return QString::number(g, 'g', 2);
}

}  // namespace

BandwidthHistogramChart::BandwidthHistogramChart(QWidget* parent)
    : QWidget(parent), m_kind(new QComboBox(this)), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_kind);
    layout->addWidget(m_plot, 1);
    m_kind->setToolTip(tr("The copy kind whose copies the histogram shows (or click its bars in the bandwidth chart)"));
    m_plot->setMinimumSize(200, 140);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_shown = i;
        draw();
    });
    setVisible(false);
}

void BandwidthHistogramChart::setRows(const std::vector<CopyBandwidth>& rows) {
    m_rows.clear();
    m_rowOfGiven.assign(rows.size(), -1);
    int most = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const CopyHistogram& h = rows[i].histogram;
        if (h.counts.empty() || h.edgesGbps.front() <= 0) continue;  // nothing, or every copy at 0 GB/s
        m_rowOfGiven[i] = static_cast<int>(m_rows.size());
        if (most < 0 || rows[i].copies > m_rows[static_cast<std::size_t>(most)].copies)
            most = static_cast<int>(m_rows.size());
        m_rows.push_back(rows[i]);
    }
    const QSignalBlocker block(m_kind);
    m_kind->clear();
    for (const CopyBandwidth& r : m_rows)
        m_kind->addItem(tr("%1: %Ln copies", nullptr, static_cast<int>(std::min<std::uint64_t>(r.copies, INT_MAX)))
                            .arg(QString::fromStdString(r.kind)));
    m_shown = most;  // the kind with the most copies first
    m_kind->setCurrentIndex(most);
    setVisible(!m_rows.empty());
    draw();
}

void BandwidthHistogramChart::showKind(int k) {
    if (k < 0 || k >= static_cast<int>(m_rowOfGiven.size()) || m_rowOfGiven[static_cast<std::size_t>(k)] < 0) return;
    m_kind->setCurrentIndex(m_rowOfGiven[static_cast<std::size_t>(k)]);
}

void BandwidthHistogramChart::draw() {
    m_plot->clearPlottables();
    m_plot->clearItems();
    if (m_shown < 0 || m_shown >= static_cast<int>(m_rows.size())) {
        m_plot->replot();
        return;
    }
    const CopyBandwidth& r = m_rows[static_cast<std::size_t>(m_shown)];
    const CopyHistogram& h = r.histogram;
    const ViewColors colors = viewColors(palette());
    const double lo = axisPos(h.edgesGbps.front()), hi = axisPos(h.edgesGbps.back());
    // Ticks at each power of ten (every bin edge when the range is under a decade and a half).
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    // (every other power when it spans more than four, so the labels never run together).
    const double decades = (hi - lo) / breakdowns::kBinsPerDecade;
    const int step = decades <= 1.5 ? 1 : decades <= 4 ? breakdowns::kBinsPerDecade : 2 * breakdowns::kBinsPerDecade;
    for (int k = static_cast<int>(std::floor(lo)); k <= static_cast<int>(std::ceil(hi)); ++k)
        if (k % step == 0)
            ticker->addTick(k, gbpsText(std::pow(10.0, static_cast<double>(k) / breakdowns::kBinsPerDecade)));
    auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    const QColor c(0x1E, 0x88, 0xE5);
    bars->setBrush(c);
    bars->setPen(QPen(c.darker(130)));
    bars->setWidth(1.0);
    bars->setWidthType(QCPBars::wtPlotCoords);
    double top = 1;
    for (std::size_t b = 0; b < h.counts.size(); ++b) {
        // Bin b spans [edges[b], edges[b + 1]): one unit on the axis, centred.
        bars->addData(axisPos(h.edgesGbps[b]) + 0.5, static_cast<double>(h.counts[b]));
        top = std::max(top, static_cast<double>(h.counts[b]));
    }
    if (r.copyP50Gbps > 0) {  // the median copy
        auto* median = new QCPItemStraightLine(m_plot);
        median->point1->setCoords(axisPos(r.copyP50Gbps), 0);
        median->point2->setCoords(axisPos(r.copyP50Gbps), 1);
        median->setPen(QPen(colors.plotText, 1, Qt::DashLine));
        auto* label = new QCPItemText(m_plot);
        const bool right = axisPos(r.copyP50Gbps) > (lo + hi) / 2;  // the label on the side with room
        label->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(axisPos(r.copyP50Gbps), top * 1.12);
        label->setText(right ? tr("p50 %1 ").arg(gbpsText(r.copyP50Gbps)) : tr(" p50 %1").arg(gbpsText(r.copyP50Gbps)));
        label->setColor(colors.plotText);
    }
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(lo - 0.5, hi + 0.5);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setLabel(tr("GB/s per copy (log bins)"));
    m_plot->setToolTip(tr("Copies per bin of their own GB/s; bins log-spaced, %1 per decade; dashed: the median copy")
                           .arg(breakdowns::kBinsPerDecade));
    m_plot->yAxis->setRange(0, top * 1.25);
    m_plot->yAxis->setLabel(tr("copies"));
    stylePlot(m_plot, colors);
    m_plot->replot();
}

}  // namespace contend::widgets
