#include "widgets/cluster/step_heatmap.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/common/text.h"

namespace contend::widgets {

namespace {

// Diverging around the step's median: blue below it, white at it, red above it, so a rank that
// is slow against its peers stands out in every step, however long the step itself was.
QCPColorGradient deviationGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x21, 0x66, 0xac));
    g.setColorStopAt(0.3, QColor(0x92, 0xc5, 0xde));
    g.setColorStopAt(0.5, QColor(0xf7, 0xf7, 0xf7));
    g.setColorStopAt(0.7, QColor(0xf4, 0xa5, 0x82));
    g.setColorStopAt(1.0, QColor(0xb2, 0x18, 0x2b));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

QString metricName(StepMetric m) {
    switch (m) {
    case StepMetric::Compute: return QObject::tr("compute time");
    case StepMetric::Wait: return QObject::tr("wait in collectives");
    case StepMetric::Step: break;
    }
    return QObject::tr("step time");
}

// A collective's name for a sentence: up to its argument list ("ncclDevKernel_AllReduce_Sum_f32").
QString collectiveLabel(const std::string& key) {
    QString n = QString::fromStdString(key);
    if (const qsizetype cut = n.indexOf(QLatin1Char('(')); cut > 0) n.truncate(cut);
    return shortOperatorName(n);
}

}  // namespace

StepHeatmap::StepHeatmap(QWidget* parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_metricBox(new QComboBox(this)), m_title(new QLabel(this)) {
    m_metricBox->addItems({tr("Step time"), tr("Compute time"), tr("Wait in collectives")});
    m_metricBox->setToolTip(
        tr("Step time: the step's span on the rank. Compute: the span less the rank's waits in the step's\n"
           "collectives (a synchronised step hides a straggler in its span and shows it here).\n"
           "Wait: how long the rank waited for its peers in those collectives."));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(m_title, 1);
    bar->addWidget(new QLabel(tr("Colour:"), this));
    bar->addWidget(m_metricBox);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addLayout(bar);
    box->addWidget(m_plot, 1);

    m_plot->setMinimumHeight(160);
    m_plot->axisRect()->setupFullAxesBox(false);
    m_plot->xAxis->setLabel(tr("step (ProfilerStep#)"));
    m_plot->xAxis2->setVisible(false);
    m_plot->yAxis2->setVisible(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setSubTickLength(0, 0);
    m_plot->xAxis->setSubTickLength(0, 0);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->grid()->setVisible(false);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    // The data range is the cells' outer edges (refresh): a single step or rank is a whole cell,
    // not a zero-width one.
    m_map->setTightBoundary(true);
    m_scale = new QCPColorScale(m_plot);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scaleLabel = tr("step time vs the step's median (%)");
    m_scale->setLabel(m_scaleLabel);
    // The bar's title runs along it: once the layout knows the bar's height, the longest of the
    // titles that fits (a capture of two ranks leaves a short bar).
    connect(m_plot, &QCustomPlot::afterLayout, this, &StepHeatmap::fitScaleLabel);
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    // The scale's title is the plot's rightmost text: keep it off the window's edge.
    m_plot->plotLayout()->setMinimumMargins(QMargins(0, 0, kRightMarginPx, 0));
    m_map->setColorScale(m_scale);
    m_map->setGradient(deviationGradient());
    auto* group = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    // Slow cells: a ringed dot at the cell's centre, visible on light and dark cells alike.
    m_slow = m_plot->addGraph();
    m_slow->setLineStyle(QCPGraph::lsNone);
    m_slow->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x0d, 0x47, 0xa1), 2),
                                            QBrush(QColor(0xff, 0xff, 0xff)), 9));
    m_slow->setName(tr("slow (the stated test)"));

    // Compute first: a synchronised step ends at the same time on every rank, so its span hides
    // the straggler that its compute (the slow test's measure) shows.
    m_grid.metric = StepMetric::Compute;
    m_metricBox->setCurrentIndex(static_cast<int>(StepMetric::Compute));
    connect(m_metricBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setMetric(static_cast<StepMetric>(i)); });
    connect(m_plot, &QCustomPlot::mouseMove, this, &StepHeatmap::onMove);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &StepHeatmap::onDoubleClick);
    m_plot->setMouseTracking(true);
}

void StepHeatmap::setReport(std::shared_ptr<const ClusterReport> report) {
    m_report = std::move(report);
    refresh();
    if (m_peer) m_peer->refresh();
}

void StepHeatmap::setMetric(StepMetric metric) {
    if (m_metricBox->currentIndex() != static_cast<int>(metric)) {
        m_metricBox->setCurrentIndex(static_cast<int>(metric));  // comes back here
        return;
    }
    if (m_grid.metric == metric) return;  // already shown: this ends the round with the peer
    m_grid.metric = metric;
    refresh();
    if (m_peer) m_peer->setMetric(metric);
}

void StepHeatmap::setTitle(const QString& title) { m_title->setText(title); }

void StepHeatmap::setPeer(StepHeatmap* peer) {
    m_peer = peer == this ? nullptr : peer;
    refresh();
}

double StepHeatmap::ownRange() const { return m_grid.maxDeviation; }

void StepHeatmap::fitScaleLabel() {
    const QFontMetrics fm(m_scale->axis()->labelFont());
    const int room = m_scale->rect().height();
    QString label = m_scaleLabel;
    for (const QString& shorter : {m_scaleLabel, tr("vs the step's median (%)"), tr("vs median (%)"), tr("%")}) {
        label = shorter;
        if (room <= 0 || fm.horizontalAdvance(shorter) <= room) break;
    }
    if (m_scale->label() == label) return;
    m_scale->setLabel(label);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void StepHeatmap::refresh() {
    const StepMetric metric = m_grid.metric;
    m_grid = m_report ? buildStepGrid(*m_report, metric) : StepGrid{};
    m_grid.metric = metric;
    const int rows = m_grid.rowCount(), cols = m_grid.columnCount();
    m_scaleLabel = tr("%1 vs the step's median (%)").arg(metricName(metric));
    fitScaleLabel();
    m_map->data()->setSize(std::max(cols, 1), std::max(rows, 1));
    m_map->data()->setRange(QCPRange(-0.5, std::max(cols, 1) - 0.5), QCPRange(-0.5, std::max(rows, 1) - 0.5));
    QVector<double> sx, sy;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            // Row 0 (the first rank) on top; the colour is the deviation from the step's median.
            m_map->data()->setCell(c, rows - 1 - r, 100.0 * m_grid.deviation(r, c));
            if (m_grid.isSlow(r, c)) {
                sx << c;
                sy << rows - 1 - r;
            }
        }
    }
    if (rows == 0 || cols == 0) m_map->data()->setCell(0, 0, std::nan(""));
    m_slow->setData(sx, sy);
    m_marks = static_cast<int>(sx.size());
    // Symmetric around the median (white), one scale with the peer (compare); at least ±1% so a
    // grid of equal ranks stays white instead of showing noise at full colour.
    double reach = ownRange();
    if (m_peer)
        reach = sharedDeviation(m_grid, m_peer->m_report ? buildStepGrid(*m_peer->m_report, metric) : StepGrid{});
    reach = std::max(100.0 * reach, 1.0);
    m_range = {-reach, reach};
    m_map->setDataRange(QCPRange(-reach, reach));

    // Axes: a label per rank (slow ranks say so), step numbers under the columns.
    // As many rank labels as fit (a line of text each, 14 px); every slow rank's always, and no
    // other label close enough to overlap it.
    auto yTicks = QSharedPointer<QCPAxisTickerText>::create();
    const int height = std::max(m_plot->axisRect()->height(), 100);
    const int every = std::max(1, (rows * 14 + height - 1) / height);
    std::vector<int> slowRows;
    for (int r = 0; r < rows; ++r)
        if (m_grid.slowRow[static_cast<std::size_t>(r)]) slowRows.push_back(r);
    for (int r : slowRows) yTicks->addTick(rows - 1 - r, rowLabel(r));
    for (int r = 0; r < rows; r += every) {
        const bool crowded =
            std::any_of(slowRows.begin(), slowRows.end(), [&](int s) { return std::abs(s - r) < every; });
        if (!crowded) yTicks->addTick(rows - 1 - r, rowLabel(r));
    }
    m_plot->yAxis->setTicker(yTicks);
    auto xTicks = QSharedPointer<QCPAxisTickerText>::create();
    const int xEvery = std::max(1, cols / 24);
    for (int c = 0; c < cols; c += xEvery)
        xTicks->addTick(c, QString::number(m_grid.iterations[static_cast<std::size_t>(c)]));
    m_plot->xAxis->setTicker(xTicks);
    m_plot->xAxis->setRange(-0.5, std::max(cols, 1) - 0.5);
    m_plot->yAxis->setRange(-0.5, std::max(rows, 1) - 0.5);
    m_plot->replot();
}

void StepHeatmap::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    QTimer::singleShot(0, this, [this] { refresh(); });
}

QString StepHeatmap::rowLabel(int row) const {
    if (row < 0 || row >= m_grid.rowCount()) return {};
    const int rank = m_grid.ranks[static_cast<std::size_t>(row)];
    if (!m_grid.slowRow[static_cast<std::size_t>(row)]) return tr("rank %1").arg(rank);
    int steps = 0;
    for (int c = 0; c < m_grid.columnCount(); ++c) steps += m_grid.isSlow(row, c);
    return steps == 1 ? tr("▲ rank %1 (slow in 1 step)").arg(rank)
                      : tr("▲ rank %1 (slow in %2 steps)").arg(rank).arg(steps);
}

std::pair<int, int> StepHeatmap::cellAt(QPoint p) const {
    const int rows = m_grid.rowCount(), cols = m_grid.columnCount();
    if (!m_plot->axisRect()->rect().contains(p) || rows == 0 || cols == 0) return {-1, -1};
    const int c = static_cast<int>(std::lround(m_plot->xAxis->pixelToCoord(p.x())));
    const int y = static_cast<int>(std::lround(m_plot->yAxis->pixelToCoord(p.y())));
    const int r = rows - 1 - y;
    if (!m_grid.valid(r, c)) return {-1, -1};
    return {r, c};
}

QPoint StepHeatmap::cellCentre(int row, int column) const {
    const int rows = m_grid.rowCount();
    return {static_cast<int>(m_plot->xAxis->coordToPixel(column)),
            static_cast<int>(m_plot->yAxis->coordToPixel(rows - 1 - row))};
}

QString StepHeatmap::cellTooltip(int row, int column) const {
    if (!m_report || !m_grid.valid(row, column) || m_grid.value(row, column) < 0) return {};
    const int rank = m_grid.ranks[static_cast<std::size_t>(row)];
    const std::uint32_t step = m_grid.iterations[static_cast<std::size_t>(column)];
    const ClusterIteration* it = nullptr;
    for (const ClusterIteration& x : m_report->iterations)
        if (x.index == step) it = &x;
    if (!it) return {};
    const RankStep* s = nullptr;
    for (const RankStep& x : it->ranks)
        if (x.rank == rank) s = &x;
    if (!s) return {};
    QString tip = tr("<b>rank %1, step %2</b><br>step time %3<br>compute %4 · wait in collectives %5")
                      .arg(rank)
                      .arg(step)
                      .arg(durationText(s->stepNs), durationText(s->computeNs), durationText(s->waitNs));
    const double dev = m_grid.deviation(row, column);
    const TimeNs median = m_grid.medians[static_cast<std::size_t>(column)];
    if (!std::isnan(dev) && std::abs(dev) < 0.0005)
        tip += tr("<br>%1: at the step's median (%2)").arg(metricName(m_grid.metric), durationText(median));
    else if (!std::isnan(dev))
        tip += tr("<br>%1: %2% %3 the step's median (%4)")
                   .arg(metricName(m_grid.metric))
                   .arg(std::abs(dev) * 100, 0, 'f', 1)
                   .arg(dev >= 0 ? tr("above") : tr("below"))
                   .arg(durationText(median));
    tip += tr("<br>median compute of the step %1").arg(durationText(it->medianComputeNs));
    if (s->slowCompute)
        tip += tr("<br><b>slow</b>: compute %1 is above the step's bar %2 (median + %3 × 1.4826 × max(MAD, %4% of "
                  "the median))")
                   .arg(durationText(s->computeNs), durationText(it->thresholdNs))
                   .arg(m_report->settings.k)
                   .arg(m_report->settings.minExcess * 100);
    for (const ClusterCollective& k : m_report->collectives)
        if (k.iteration == step && k.heldUp && k.lateRank == rank)
            tip += tr("<br><b>slow</b>: held up %1 #%2 (arrived %3 after the next rank; the others waited up to %4)")
                       .arg(collectiveLabel(k.key).toHtmlEscaped())
                       .arg(k.ordinal)
                       .arg(durationText(k.lateByNs), durationText(k.maxWaitNs));
    if (!s->slow && it->thresholdNs > 0) tip += tr("<br>not slow (bar %1)").arg(durationText(it->thresholdNs));
    if (it->thresholdNs == 0) tip += tr("<br>no slow test: fewer than 3 ranks have this step");
    tip += tr("<br><i>double-click: open rank %1's trace</i>").arg(rank);
    return tip;
}

void StepHeatmap::onMove(QMouseEvent* e) {
    const auto [row, col] = cellAt(e->position().toPoint());
    const QString tip = cellTooltip(row, col);
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPosition().toPoint(), tip, m_plot);
}

void StepHeatmap::onDoubleClick(QMouseEvent* e) {
    const auto [row, col] = cellAt(e->position().toPoint());
    if (row < 0) return;
    emit cellActivated(m_grid.ranks[static_cast<std::size_t>(row)], m_grid.iterations[static_cast<std::size_t>(col)]);
}

}  // namespace contend::widgets
