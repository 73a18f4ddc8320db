#include "widgets/compare/shift_chart.h"

#include <algorithm>

#include <QLabel>
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
}  // namespace

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

    m_plot->yAxis->setLabel(tr("extra wait (ms)"));
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    const ViewColors colors = viewColors(palette());
    stylePlot(m_plot, colors);
    if (colors.dark) {
        m_plot->legend->setBrush(QBrush(colors.plotBackground));
        m_plot->legend->setTextColor(colors.plotText);
        m_plot->legend->setBorderPen(QPen(colors.separator));
    }
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
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top = 0;
    for (std::size_t k = 0; k < m_resources.size(); ++k) {
        const auto i = static_cast<std::size_t>(m_resources[k]);
        keys << static_cast<double>(k + 1);
        base << static_cast<double>(r.baseByResource[i]) / 1e6;
        now << static_cast<double>(r.newByResource[i]) / 1e6;
        top = std::max({top, base.back(), now.back()});
        ticker->addTick(static_cast<double>(k + 1), resourceLabel(m_resources[k]));
    }
    m_base->setData(keys, base, true);
    m_new->setData(keys, now, true);
    m_plot->xAxis->setTicker(ticker);
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

}  // namespace contend::widgets
