#include "widgets/breakdowns/breakdowns_chart.h"

#include <algorithm>
#include <array>

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/breakdowns/bandwidth_histogram_chart.h"
#include "widgets/breakdowns/bar_style.h"
#include "widgets/breakdowns/breakdown_rows_model.h"
#include "widgets/breakdowns/launch_model.h"
#include "widgets/common/text.h"
#include "widgets/common/view_colors.h"
#include "widgets/tables/table_panel.h"

namespace contend::widgets {

BreakdownsChart::BreakdownsChart(QWidget* parent)
    : QWidget(parent),
      m_title(new QLabel(this)),
      m_wholeButton(new QPushButton(tr("Whole Trace"), this)),
      m_time(new QCustomPlot(this)),
      m_bandwidth(new QCustomPlot(this)),
      m_histogram(new BandwidthHistogramChart(this)),
      m_tables(new QTabWidget(this)),
      m_rows(new BreakdownRowsModel(this)),
      m_rowsPanel(new TablePanel(m_rows, tr("Filter ranks and streams"), this)),
      m_launch(new LaunchModel(this)),
      m_launchPanel(new TablePanel(m_launch, tr("Filter kernels"), this)),
      m_notes(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title->setWordWrap(true);
    m_notes->setWordWrap(true);
    m_wholeButton->setToolTip(tr("Show the whole trace's figures again (clears the range on the timeline)"));
    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_wholeButton);
    layout->addLayout(top);
    // The charts side by side and the tables beside them: the dock shares the bottom row's
    // height with the tables, so stacked they would make the window too tall for 1280x800.
    auto* charts = new QWidget(this);
    auto* row = new QHBoxLayout(charts);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_time, 3);
    row->addWidget(m_bandwidth, 2);
    row->addWidget(m_histogram, 2);
    m_tables->addTab(m_rowsPanel, tr("Ranks and streams"));
    m_tables->addTab(m_launchPanel, tr("Launch"));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(charts);
    split->addWidget(m_tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    layout->addWidget(m_notes);
    m_time->setMinimumSize(240, 160);
    m_bandwidth->setMinimumSize(180, 160);
    const ViewColors colors = viewColors(palette());
    for (QCustomPlot* p : {m_time, m_bandwidth}) {
        stylePlot(p, colors);
        legendUnderPlot(p, colors, p == m_time ? 3 : 1);
        p->xAxis->setTickLabelRotation(35);
        p->xAxis->grid()->setVisible(false);
    }
    m_time->yAxis->setLabel(tr("% of whole"));
    m_bandwidth->yAxis->setLabel(tr("GB/s"));
    m_bandwidth->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_bandwidth->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    // A click on a copy kind's bars shows that kind's histogram.
    connect(m_bandwidth, &QCustomPlot::plottableClick, this,
            [this](QCPAbstractPlottable*, int dataIndex, QMouseEvent*) { m_histogram->showKind(dataIndex); });
    connect(m_wholeButton, &QPushButton::clicked, this, &BreakdownsChart::wholeTraceRequested);
    connect(m_rowsPanel, &TablePanel::rowOpened, this, [this](const QModelIndex& source) {
        const int stream = source.data(BreakdownRowsModel::StreamRole).toInt();
        if (stream >= 0) emit streamActivated(stream);
    });
    clear();
}

void BreakdownsChart::clear() {
    m_time->clearPlottables();
    m_bandwidth->clearPlottables();
    m_histogram->setRows({});
    m_rows->setBreakdowns({});
    m_launch->setRows({});
    m_whole = {};
    m_shown = {};
    m_range.reset();
    m_pending.reset();
    m_notes->clear();
    updateTitle();
    m_time->replot();
    m_bandwidth->replot();
}

void BreakdownsChart::showTrace(const ViewInputs& in) {
    clear();
    m_origin = in.trace ? in.trace->begin() : 0;
    showReport(in);
}

void BreakdownsChart::showReport(const ViewInputs& in) {
    m_whole = in.report ? in.report->breakdowns : TraceBreakdowns{};
    // A slider step's report has the trace's breakdowns as before (they do not depend on the
    // thresholds): what is shown stays, its tables' order and marks with it (a redraw was
    // ~10 ms of every step at 1M operators).
    if (!m_range && !(m_whole == m_shown && !m_whole.empty())) display(m_whole);
    updateTitle();
}

void BreakdownsChart::setBreakdowns(const TraceBreakdowns& b) {
    m_whole = b;
    m_range.reset();
    m_pending.reset();
    display(m_whole);
    updateTitle();
}

void BreakdownsChart::setRangePending(TimeNs t0, TimeNs t1) {
    m_pending = std::make_pair(t0, t1);
    updateTitle();
}

void BreakdownsChart::showRange(TimeNs t0, TimeNs t1, const TraceBreakdowns& b) {
    m_range = std::make_pair(t0, t1);
    if (m_pending == m_range) m_pending.reset();
    display(b);
    updateTitle();
}

void BreakdownsChart::showWhole() {
    m_range.reset();
    m_pending.reset();
    display(m_whole);
    updateTitle();
}

void BreakdownsChart::highlight(int rank, std::vector<int> streams) {
    const std::vector<int> wanted = streams;
    m_rows->setHighlight(rank, std::move(streams));
    // Bring the first marked stream's row (else the rank's) into view.
    int row = -1;
    for (int s : wanted)
        if (row < 0) row = m_rows->rowOfStream(rank, s);
    if (row < 0) row = m_rows->rowOfRank(rank);
    if (row >= 0) m_rowsPanel->view()->scrollTo(m_rowsPanel->proxy()->mapFromSource(m_rows->index(row, 0)));
}

void BreakdownsChart::updateTitle() {
    m_wholeButton->setVisible(m_range.has_value() || m_pending.has_value());
    if (m_whole.empty() && !m_range) {
        m_title->setText(tr("<b>Breakdowns</b> (HTA's figures): no report yet"));
        return;
    }
    QString what;
    if (m_range)
        what = tr("<b>range %1 – %2</b> (%3): %4 of the %5 device operations in HTA's scope run in it")
                   .arg(timeText(m_range->first - m_origin), timeText(m_range->second - m_origin),
                        durationText(m_range->second - m_range->first))
                   .arg(m_shown.inScope)
                   .arg(m_whole.empty() ? m_shown.deviceOps : m_whole.inScope);
    else
        what = tr("<b>whole trace</b>: over %1 of %2 device operations (HTA's scope)")
                   .arg(m_shown.inScope)
                   .arg(m_shown.deviceOps);
    if (m_pending && m_pending != m_range)
        what += tr(" · computing range %1 – %2…")
                    .arg(timeText(m_pending->first - m_origin), timeText(m_pending->second - m_origin));
    m_title->setText(tr("<b>Breakdowns</b> (HTA's figures), %1").arg(what));
}

void BreakdownsChart::display(const TraceBreakdowns& b) {
    m_shown = b;
    m_time->clearPlottables();
    m_bandwidth->clearPlottables();
    m_rows->setBreakdowns(b);
    m_launch->setRows(b.launch.rows);
    m_histogram->setRows(b.memoryBandwidth.rows);
    m_notes->clear();
    if (!b.empty()) {
        plotTime(b);
        plotBandwidth(b);
        QString notes;
        for (const auto& [name, why] : b.reasons())
            if (!why->empty())
                notes += tr("%1: not computed: %2\n").arg(QString::fromUtf8(name), QString::fromStdString(*why));
        m_notes->setText(notes.trimmed());
    }
    m_time->replot();
    m_bandwidth->replot();
}

void BreakdownsChart::plotTime(const TraceBreakdowns& b) {
    // Stacked bars: the rank's temporal breakdown, then each stream's idle time by cause.
    const std::array<QColor, 6> colours = {QColor(0x43, 0xA0, 0x47), QColor(0xFB, 0x8C, 0x00),
                                           QColor(0x9E, 0x9E, 0x9E), QColor(0x1E, 0x88, 0xE5),
                                           QColor(0x8E, 0x24, 0xAA), QColor(0xE5, 0x39, 0x35)};
    const std::array<QString, 6> names = {tr("compute"),   tr("non-compute"), tr("idle"),
                                          tr("host wait"), tr("kernel wait"), tr("other idle")};
    std::array<QCPBars*, 6> series{};
    for (std::size_t i = 0; i < series.size(); ++i) {
        series[i] = stackedBars(m_time, names[i], colours[i]);
        if (i % 3 != 0) series[i]->moveAbove(series[i - 1]);
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double key = 0;
    for (const RankTemporal& t : b.temporal.rows) {
        key += 1;
        ticker->addTick(key, t.rank >= 0 ? tr("rank %1").arg(t.rank) : tr("rank ?"));
        series[0]->addData(key, percentOf(t.computeNs, t.kernelNs));
        series[1]->addData(key, percentOf(t.nonComputeNs, t.kernelNs));
        series[2]->addData(key, percentOf(t.idleNs, t.kernelNs));
    }
    for (const StreamIdle& s : b.idle.rows) {
        key += 1;
        ticker->addTick(key, tr("stream %1").arg(s.stream));
        const TimeNs all = s.hostWaitNs + s.kernelWaitNs + s.otherNs;
        series[3]->addData(key, percentOf(s.hostWaitNs, all));
        series[4]->addData(key, percentOf(s.kernelWaitNs, all));
        series[5]->addData(key, percentOf(s.otherNs, all));
    }
    m_time->xAxis->setTicker(ticker);
    m_time->xAxis->setRange(0.3, key + 0.7);
    m_time->yAxis->setRange(0, 100);
}

void BreakdownsChart::plotBandwidth(const TraceBreakdowns& b) {
    // Bandwidth per copy kind: HTA's median sample and the median copy.
    auto* hta = stackedBars(m_bandwidth, tr("HTA: median of summed samples"), QColor(0x90, 0xA4, 0xAE));
    auto* perCopy = stackedBars(m_bandwidth, tr("median copy"), QColor(0x1E, 0x88, 0xE5));
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
}

}  // namespace contend::widgets
