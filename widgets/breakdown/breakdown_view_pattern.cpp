// The breakdown of a contention pattern: its title, and its runs beside the partner against its
// runs apart as two distributions on one set of bins, with their medians.
#include <algorithm>

#include <qcustomplot.h>

#include "widgets/breakdown/breakdown_view.h"
#include "widgets/common/palette.h"
#include "widgets/common/text.h"
#include "widgets/common/view_colors.h"

namespace contend::widgets {

namespace {

double us(TimeNs ns) { return static_cast<double>(ns) / 1e3; }
QString signedPercent(double x) { return QStringLiteral("%1%2%").arg(x >= 0 ? "+" : "").arg(x * 100, 0, 'f', 0); }

}  // namespace

void BreakdownView::showPattern(std::uint32_t pattern) {
    if (!m_report || !m_trace || pattern >= m_report->patterns.size()) {
        m_pattern = kNone;
        rebuild();
        return;
    }
    const ContentionPattern& p = m_report->patterns[pattern];
    // Its costliest run is the occurrence the bars show (the one the window selects).
    const auto costliest = std::max_element(
        p.runs.begin(), p.runs.end(), [](const PatternRun& a, const PatternRun& b) { return a.excessNs < b.excessNs; });
    m_group.clear();
    m_slice = costliest != p.runs.end() && costliest->slice < m_trace->slices().size() ? costliest->slice : kNone;
    m_signature = p.signature < m_report->operators.size() ? p.signature : kNone;
    m_pattern = pattern;
    rebuild();
}

QString BreakdownView::patternTitle() const {
    if (m_pattern == kNone || !m_report || m_pattern >= m_report->patterns.size()) return {};
    const ContentionPattern& p = m_report->patterns[m_pattern];
    return tr("<b>Pattern</b>: <b>%1</b> beside <b>%2</b> is %3 slower (95% CI %4 to %5), %6 runs beside against "
              "%7 apart, cost %8, cause %9")
        .arg(shortOperatorName(QString::fromStdString(p.victim)).toHtmlEscaped(),
             shortOperatorName(QString::fromStdString(p.partner)).toHtmlEscaped(), signedPercent(p.slowdown),
             signedPercent(p.slowdownLow), signedPercent(p.slowdownHigh))
        .arg(p.runsBeside)
        .arg(p.runsApart)
        .arg(durationText(p.costNs), resourceLabel(p.cause));
}

void BreakdownView::drawPatternHistogram() {
    QCPAxis* x = m_histRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_histRect->axis(QCPAxis::atLeft);
    const ContentionPattern& p = m_report->patterns[m_pattern];
    const auto& sl = m_trace->slices();
    std::vector<TimeNs> beside, apart;
    beside.reserve(p.runs.size());
    apart.reserve(p.apartSlices.size());
    for (const PatternRun& run : p.runs) beside.push_back(run.durNs);
    for (const std::uint32_t s : p.apartSlices)
        if (s < sl.size()) apart.push_back(sl[s].dur);
    m_paired = makePairedHistogram(std::move(beside), std::move(apart));
    const ViewColors colors = viewColors(palette());
    // The runs beside in the timeline's mark colour.
    const QColor besideColor = QColor::fromRgba(kMarkColor), apartColor = colors.histogramPen;

    QString legend = m_legendText;
    legend += tr("<br>Histogram: <span style='color:%1'>■</span> %2 runs beside, median %3; "
                 "<span style='color:%4'>■</span> %5 runs apart, median %6 (each as a share of its runs)")
                  .arg(besideColor.name())
                  .arg(p.runs.size())
                  .arg(durationText(m_paired.medianBeside), apartColor.name())
                  .arg(p.apartSlices.size())
                  .arg(durationText(m_paired.medianApart));
    if (p.apartSlices.empty() && p.runsApart > 0)
        legend += tr("<br>The runs apart are not in a report read from a file: open the trace to see them.");
    if (legend != m_legend->text()) {
        m_legend->setText(legend);
        fitParts();
    }
    y->setLabel(tr("% of runs"));
    const std::size_t bins = m_paired.beside.counts.size();
    if (bins == 0) return;
    const double w = us(m_paired.beside.width);
    double top = 0;
    // Side by side in each bin: beside on the left half, apart on the right.
    auto series = [&](const DurationHistogram& h, std::size_t n, double offset, const QColor& c, const QString& name) {
        auto* bars = new QCPBars(x, y);
        bars->setName(name);
        bars->setWidth(w / 2);
        bars->setPen(QPen(c.darker(120), 1));
        QColor fill = c;
        fill.setAlpha(170);
        bars->setBrush(fill);
        for (std::size_t b = 0; b < h.counts.size(); ++b) {
            const double share = n > 0 ? 100.0 * h.counts[b] / static_cast<double>(n) : 0.0;
            bars->addData(us(h.binStart(b)) + offset, share);
            top = std::max(top, share);
        }
    };
    series(m_paired.beside, p.runs.size(), w / 4, besideColor, tr("beside"));
    series(m_paired.apart, p.apartSlices.size(), 3 * w / 4, apartColor, tr("apart"));
    const double x0 = us(m_paired.beside.lo), x1 = us(m_paired.beside.binStart(bins));
    markHistogram(m_paired.medianBeside, x0, x1, top, besideColor,
                  tr("beside %1").arg(durationText(m_paired.medianBeside)), 1.02);
    if (!p.apartSlices.empty())
        markHistogram(m_paired.medianApart, x0, x1, top, apartColor,
                      tr("apart %1").arg(durationText(m_paired.medianApart)), 0.85);
    x->setRange(x0 - w, x1 + w);
    y->setRange(0, top * 1.15 + 1);
    fitTicks();
}

}  // namespace contend::widgets
