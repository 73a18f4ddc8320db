#include "widgets/cluster/rank_breakdowns_view.h"

#include <algorithm>
#include <array>
#include <utility>

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/breakdowns/bar_style.h"
#include "widgets/breakdowns/breakdown_rows_model.h"
#include "widgets/common/view_colors.h"
#include "widgets/tables/table_panel.h"

namespace contend::widgets {

RankBreakdownsView::RankBreakdownsView(QWidget* parent)
    : QWidget(parent),
      m_plot(new QCustomPlot(this)),
      m_rows(new BreakdownRowsModel(this)),
      m_panel(new TablePanel(m_rows, tr("Filter ranks and streams"), this)),
      m_reasons(new QLabel(this)) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_plot);
    split->addWidget(m_panel);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    box->addWidget(split, 1);
    m_reasons->setWordWrap(true);
    m_reasons->setTextFormat(Qt::RichText);
    m_reasons->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->addWidget(m_reasons);
    m_plot->setMinimumSize(260, 150);
    const ViewColors colors = viewColors(palette());
    stylePlot(m_plot, colors);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->setLabel(tr("% of kernel time"));
    legendUnderPlot(m_plot, colors, 4);  // as the single-trace tab has it
}

void RankBreakdownsView::setReport(std::shared_ptr<const ClusterReport> report) {
    m_plot->clearPlottables();
    m_plot->clearGraphs();
    TraceBreakdowns rows;  // the cluster's rows as one value, for the table
    if (!report) {
        m_rows->setBreakdowns(rows);
        m_reasons->clear();
        m_plot->replot();
        return;
    }
    const ClusterReport& c = *report;
    rows.scope = "per rank";
    rows.temporal.rows = c.temporal;
    rows.commCompOverlap.rows = c.commCompOverlap;
    rows.idle.rows = c.idle;
    rows.queueLength.rows = c.queueLength;
    m_rows->setBreakdowns(rows);

    // Stacked per rank: compute, non-compute, idle; the overlap as a dot on the same scale.
    const std::array<QColor, 3> colours = {QColor(0x43, 0xA0, 0x47), QColor(0xFB, 0x8C, 0x00),
                                           QColor(0x9E, 0x9E, 0x9E)};
    const std::array<QString, 3> names = {tr("compute"), tr("non-compute"), tr("idle")};
    std::array<QCPBars*, 3> series{};
    for (std::size_t i = 0; i < series.size(); ++i) {
        series[i] = stackedBars(m_plot, names[i], colours[i]);
        if (i > 0) series[i]->moveAbove(series[i - 1]);
    }
    QCPGraph* overlap = m_plot->addGraph();
    overlap->setName(tr("comm/compute overlap"));
    overlap->setLineStyle(QCPGraph::lsNone);
    overlap->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0x1E, 0x88, 0xE5), 9));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double key = 0;
    for (int rank : c.ranks) {
        key += 1;
        const auto t = std::find_if(c.temporal.begin(), c.temporal.end(),
                                    [rank](const RankTemporal& r) { return r.rank == rank; });
        // A rank without the temporal breakdown keeps its place, its label says why it is empty.
        ticker->addTick(key, t != c.temporal.end() ? tr("rank %1").arg(rank) : tr("rank %1\n(n/c)").arg(rank));
        if (t != c.temporal.end()) {
            series[0]->addData(key, percentOf(t->computeNs, t->kernelNs));
            series[1]->addData(key, percentOf(t->nonComputeNs, t->kernelNs));
            series[2]->addData(key, percentOf(t->idleNs, t->kernelNs));
        }
        for (const RankOverlap& o : c.commCompOverlap)
            if (o.rank == rank) overlap->addData(key, 100.0 * o.fraction);
    }
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(0.3, key + 0.7);
    m_plot->yAxis->setRange(0, 100);
    m_plot->replot();

    QStringList lines;
    for (const RankNotComputed& r : c.breakdownsNotComputed) {
        QStringList parts;
        for (const auto& [section, why] : r.sections)
            parts << tr("%1: %2").arg(QString::fromStdString(section), QString::fromStdString(why).toHtmlEscaped());
        lines << tr("<b>rank %1</b> not computed: %2").arg(r.rank).arg(parts.join(QStringLiteral("; ")));
    }
    // Ranks with no row at all in a cluster report written before the reasons.
    if (c.breakdownsNotComputed.empty())
        for (int rank : c.ranks)
            if (m_rows->rowOfRank(rank) < 0)
                lines << tr("<b>rank %1</b>: no breakdowns in this cluster report (it does not say why: written "
                            "before the reasons)")
                             .arg(rank);
    m_reasons->setText(lines.join(QStringLiteral("<br>")));
    m_reasons->setVisible(!lines.isEmpty());
}

}  // namespace contend::widgets
