#include "widgets/breakdown/breakdown_view.h"

#include <algorithm>
#include <cmath>

#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/common/palette.h"
#include "widgets/common/text.h"
#include "widgets/common/view_colors.h"

namespace contend::widgets {

namespace {

struct Part {
    const char* name;
    Resource colour;
    TimeNs Breakdown::*field;
    bool Breakdown::*measured;  // nullptr: compute is always the baseline (an estimate)
};

const Part kParts[] = {
    {QT_TR_NOOP("computing"), Resource::Compute, &Breakdown::computeNs, nullptr},
    {QT_TR_NOOP("waiting for data"), Resource::Bandwidth, &Breakdown::dataWaitNs, &Breakdown::measuredData},
    {QT_TR_NOOP("queueing for compute units"), Resource::Queue, &Breakdown::queueNs, &Breakdown::measuredQueue},
    {QT_TR_NOOP("waiting on sync / locks"), Resource::Sync, &Breakdown::syncNs, &Breakdown::measuredSync},
};

double us(TimeNs ns) { return static_cast<double>(ns) / 1e3; }

Breakdown meanOf(const SignatureStats& s) {
    Breakdown b = s.breakdown;
    const auto n = static_cast<TimeNs>(std::max<std::uint64_t>(s.count, 1));
    b.computeNs /= n;
    b.dataWaitNs /= n;
    b.queueNs /= n;
    b.syncNs /= n;
    return b;
}

}  // namespace

BreakdownView::BreakdownView(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_plot(new QCustomPlot(this)), m_legend(new QLabel(this)) {
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_title->setContentsMargins(6, 4, 6, 2);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(m_title);
    box->addWidget(m_plot, 1);
    box->addWidget(m_legend);
    // The legend is a line of text under the plot: it never covers a bar nor squeezes a plot.
    QString legend;
    for (const Part& part : kParts)
        legend += QStringLiteral("<span style='color:%1'>■</span> %2 &nbsp;&nbsp;")
                      .arg(QColor::fromRgba(resourceColor(part.colour)).name(), tr(part.name));
    legend += tr("&nbsp;solid: measured, hatched: estimated");
    m_legendText = legend;
    m_legend->setText(legend);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setContentsMargins(6, 0, 6, 2);
    m_legend->setStyleSheet(themedHtml(QStringLiteral("color: #444"), palette()));
    m_plot->setMinimumHeight(kSidePlot);
    // Below this the bars, axis labels and legend overlap: the dock cannot be made smaller
    // (fitParts raises the height when the legend wraps to more lines).
    setMinimumSize(380, kMinHeight);
    m_plot->plotLayout()->clear();
    m_barRect = new QCPAxisRect(m_plot);
    m_histRect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(0, 0, m_barRect);
    m_plot->plotLayout()->addElement(0, 1, m_histRect);
    m_plot->plotLayout()->setColumnStretchFactor(0, 1.2);
    m_plot->plotLayout()->setColumnStretchFactor(1, 1.0);
    for (QCPAxisRect* r : {m_barRect, m_histRect})
        for (QCPAxis* a : r->axes()) a->setLayer(QStringLiteral("axes"));
    m_barRect->axis(QCPAxis::atBottom)->setLabel(tr("time (us)"));
    m_histRect->axis(QCPAxis::atBottom)->setLabel(tr("duration (us)"));
    m_histRect->axis(QCPAxis::atLeft)->setLabel(tr("occurrences"));
    m_barRect->axis(QCPAxis::atLeft)->setTickLength(0, 0);
    m_barRect->axis(QCPAxis::atLeft)->setSubTickLength(0, 0);
    rebuild();  // the empty state, not empty axes
}

void BreakdownView::fitParts() {
    // The plot keeps its minimum and the legend all of its lines; the title gets what is left
    // (at least two lines, its first lines kept, the whole of it in its tooltip). Without this
    // a long title (the evidence) pushed the total past the dock's height and the layout laid
    // the legend over the plot's axis labels.
    const int w = width();
    const int legend = m_legend->isHidden() ? 0 : m_legend->heightForWidth(w);
    if (!m_legend->isHidden()) m_legend->setFixedHeight(legend);
    const int plot = m_plot->isHidden() ? 0 : m_plot->minimumHeight();
    const int line = std::max(1, m_title->fontMetrics().lineSpacing());
    const int margins = m_title->contentsMargins().top() + m_title->contentsMargins().bottom();
    // The pane cannot be made shorter than two title lines, the plot and the whole legend (it
    // wraps to more lines when narrowed): below that the histogram ran off the pane's bottom,
    // under the status bar.
    setMinimumHeight(std::max(kMinHeight, 2 * line + margins + plot + legend));
    // Whole lines only, so a cut title does not show half a line.
    const int lines = std::max(2, (height() - plot - legend - margins) / line);
    const int room = lines * line + margins;
    m_title->setMaximumHeight(room);
    m_title->setToolTip(m_title->heightForWidth(w) > room ? m_title->text() : QString());
}

void BreakdownView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fitParts();
    fitTicks();
    // Side by side when there is room, the histogram under the bars in a narrow dock that is
    // tall enough for two plots (the bars, axis labels and legend must not overlap): the
    // stacked plots get kStackedPlot beside two title lines and the legend at this width. The
    // minimum size is the side-by-side one whatever the layout, so a short window (1280x800)
    // gets the two plots side by side rather than a window taller than its screen.
    const int legend = m_legend->isHidden() ? 0 : m_legend->heightForWidth(width());
    const int title = 2 * std::max(1, m_title->fontMetrics().lineSpacing()) + m_title->contentsMargins().top() +
                      m_title->contentsMargins().bottom();
    const bool side = width() >= 540 || width() > 2 * height() || height() < kStackedHeight ||
                      height() - legend - title < kStackedPlot;
    if (side == m_sideBySide) return;
    m_sideBySide = side;
    // Two axis rects one over the other need twice the height of one.
    m_plot->setMinimumHeight(side ? kSidePlot : kStackedPlot);
    QCPLayoutGrid* grid = m_plot->plotLayout();
    grid->take(m_histRect);
    grid->simplify();
    if (side)
        grid->addElement(0, 1, m_histRect);
    else
        grid->addElement(1, 0, m_histRect);
    grid->simplify();
    fitParts();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BreakdownView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    // A new palette (the system switched to dark): the plot and the rich text follow it.
    if (e->type() == QEvent::PaletteChange) {
        m_legend->setStyleSheet(themedHtml(QStringLiteral("color: #444"), palette()));
        rebuild();
    }
}

void BreakdownView::setTrace(TracePtr trace) {
    m_trace = std::move(trace);
    m_report.reset();
    m_slices.reset();
    m_slice = m_signature = m_pattern = kNone;
    m_group.clear();
    m_durations.clear();
    m_durationsTrace = nullptr;
    rebuild();
}

void BreakdownView::setReport(std::shared_ptr<const Report> report, SliceViewPtr slices) {
    m_report = std::move(report);
    m_slices = std::move(slices);
    if (!m_report || m_pattern >= m_report->patterns.size()) m_pattern = kNone;
    rebuild();
}

bool BreakdownView::isEmptyState() const { return m_plot->isHidden(); }

void BreakdownView::showGroup(const QString& title, std::vector<std::pair<std::uint32_t, TimeNs>> slices) {
    m_group.clear();
    for (const auto& s : slices)
        if (m_trace && s.first < m_trace->slices().size()) m_group.push_back(s);
    std::stable_sort(m_group.begin(), m_group.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    m_groupTitle = title;
    m_pattern = kNone;
    m_slice = m_group.empty() ? kNone : m_group.front().first;
    m_signature = kNone;
    if (m_slice != kNone && m_report && m_slices) m_signature = m_slices->signatureOf(m_slice);
    rebuild();
}

void BreakdownView::showSlice(std::uint32_t slice) {
    m_group.clear();
    slice = m_trace && slice < m_trace->slices().size() ? slice : kNone;
    if (slice != m_slice) m_pattern = kNone;  // the pattern stays while its run is the selection
    m_slice = slice;
    m_signature = kNone;
    if (m_slice != kNone && m_report && m_slices) m_signature = m_slices->signatureOf(m_slice);
    rebuild();
}

void BreakdownView::showSignature(std::uint32_t signature) {
    m_group.clear();
    m_slice = m_pattern = kNone;
    m_signature = m_report && signature < m_report->operators.size() ? signature : kNone;
    rebuild();
}

void BreakdownView::collectDurations() {
    // When the signature changes: its occurrences (or, by name, one pass over the slices).
    const StringId name = m_slice != kNone ? m_trace->slices()[m_slice].name : 0;
    const bool bySignature = m_signature != kNone;
    if (m_durationsTrace == m_trace.get() &&
        (bySignature ? m_durationsFor == m_signature : (m_durationsFor == kNone && m_durationsName == name)))
        return;
    m_durations.clear();
    m_durationsTrace = m_trace.get();
    m_durationsFor = bySignature ? m_signature : kNone;
    m_durationsName = name;
    const auto& sl = m_trace->slices();
    if (bySignature) {
        // The signature's occurrences from the view's index (slice order), not a pass over every slice.
        for (const std::uint32_t i : (m_slices ? *m_slices : SliceView::none()).occurrencesOf(m_signature))
            if (i < sl.size()) m_durations.push_back(sl[i].dur);
    } else if (m_slice != kNone) {
        for (const Slice& s : sl)
            if (s.name == name) m_durations.push_back(s.dur);
    }
}

void BreakdownView::rebuild() {
    m_bars.clear();
    m_hist = DurationHistogram();
    m_paired = PairedHistogram();
    if (!m_trace || (m_slice == kNone && m_signature == kNone)) {
        m_plot->clearPlottables();
        m_plot->clearItems();
        m_title->setText(themedHtml(
            tr("<p style='color:#666'><i>Nothing selected.</i><br>Select an operator on the timeline or in a "
               "table, or a contention window or cluster, to see where its time went.</p>"),
            palette()));
        m_plot->hide();
        m_legend->hide();
        fitParts();
        return;
    }
    m_plot->show();
    m_legend->show();
    collectDurations();
    m_hist = makeHistogram(m_durations);

    // Title: what is shown, in words.
    QString html;
    const SignatureStats* sig =
        m_report && m_signature < m_report->operators.size() ? &m_report->operators[m_signature] : nullptr;
    const Anomaly* anomaly = nullptr;
    if (m_report && m_slice != kNone)
        for (std::size_t k = 0; k < m_report->anomalies.size(); ++k)
            if (m_report->anomalies.slice(k) == m_slice) anomaly = &m_report->anomalies[k];
    if (m_slice != kNone) {
        const Slice& s = m_trace->slices()[m_slice];
        html += QStringLiteral("<b>%1</b> &nbsp; %2 &nbsp; duration <b>%3</b>")
                    .arg(sliceName(*m_trace, m_slice).toHtmlEscaped(), trackLabel(*m_trace, s.track).toHtmlEscaped(),
                         durationText(s.dur));
        if (anomaly) {
            html += tr(" &nbsp; baseline %1, excess %2, score %3, cause <b>%4</b>")
                        .arg(durationText(anomaly->baselineNs), durationText(anomaly->excessNs))
                        .arg(anomaly->score, 0, 'f', 2)
                        .arg(resourceLabel(anomaly->cause));
            if (anomaly->breakdown.waitBeforeNs >= 0)
                html += tr("; queued %1 before it started").arg(durationText(anomaly->breakdown.waitBeforeNs));
            if (!anomaly->evidence.empty())
                html += QStringLiteral("<br><span style='color:#555'>%1</span>")
                            .arg(QString::fromStdString(anomaly->evidence).toHtmlEscaped());
        } else if (sig) {
            html += tr(" &nbsp; (not flagged; baseline %1)").arg(durationText(sig->baselineNs));
        }
    }
    if (sig) {
        if (!html.isEmpty()) html += QStringLiteral("<br>");
        html += tr("Signature <b>%1</b>: %2 occurrences, baseline %3, p95 %4, %5 flagged")
                    .arg(QString::fromStdString(sig->signature.empty() ? sig->name : sig->signature).toHtmlEscaped())
                    .arg(sig->count)
                    .arg(durationText(sig->baselineNs), durationText(sig->p95Ns))
                    .arg(sig->anomalies);
    } else if (!m_report) {
        html += tr("<br><i>The breakdown appears when the analysis is done.</i>");
    }
    if (const QString pattern = patternTitle(); !pattern.isEmpty()) html = pattern + QStringLiteral("<br>") + html;
    m_title->setText(themedHtml(html, palette()));

    if (!m_group.empty()) {
        // A window or cluster: its title, then one bar per operator, costliest at the top.
        m_title->setText(themedHtml(m_groupTitle + QStringLiteral("<br>") + html, palette()));
        const std::size_t n = std::min(m_group.size(), kMaxGroupBars);
        for (std::size_t i = n; i-- > 0;) {
            const std::uint32_t s = m_group[i].first;
            Bar b;
            QString label = shortOperatorName(sliceName(*m_trace, s));
            if (label.size() > 26) label = label.left(25) + QStringLiteral("…");
            b.label = label;
            b.parts.computeNs = m_trace->slices()[s].dur;
            if (m_report)
                for (std::size_t k = 0; k < m_report->anomalies.size(); ++k)
                    if (m_report->anomalies.slice(k) == s) b.parts = m_report->anomalies[k].breakdown;
            b.valid = true;
            m_bars.push_back(b);
        }
    } else if (sig)
        m_bars.push_back(Bar{tr("signature (mean)"), meanOf(*sig), true});
    if (m_group.empty() && m_slice != kNone && m_report) {
        Bar b;
        b.label = tr("this occurrence");
        if (anomaly) {
            b.parts = anomaly->breakdown;
            b.valid = true;
        } else if (sig) {
            // Not flagged: its time is its own work as far as the analysis can tell.
            b.parts.computeNs = m_trace->slices()[m_slice].dur;
            b.valid = true;
        }
        if (b.valid) m_bars.push_back(b);
    }
    m_plot->clearPlottables();
    m_plot->clearItems();
    stylePlot(m_plot, viewColors(palette()));
    drawBars();
    if (m_pattern != kNone)
        drawPatternHistogram();
    else
        drawHistogram();
    fitParts();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BreakdownView::drawBars() {
    // Segments are item rectangles laid end to end: a part can then be both filled lightly and
    // hatched (estimated) or filled solid (measured), which stacked QCPBars cannot express.
    QCPAxis* key = m_barRect->axis(QCPAxis::atLeft);
    QCPAxis* value = m_barRect->axis(QCPAxis::atBottom);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double maxTotal = 0;
    auto rect = [&](double v0, double v1, double k, const QBrush& brush, const QPen& pen) {
        auto* r = new QCPItemRect(m_plot);
        r->setClipAxisRect(m_barRect);
        r->topLeft->setAxes(value, key);
        r->bottomRight->setAxes(value, key);
        r->topLeft->setCoords(v0, k + 0.28);
        r->bottomRight->setCoords(v1, k - 0.28);
        r->setBrush(brush);
        r->setPen(pen);
    };
    for (std::size_t row = 0; row < m_bars.size(); ++row) {
        const Bar& bar = m_bars[row];
        const double k = static_cast<double>(row) + 1;
        ticker->addTick(k, bar.label);
        double at = 0;
        for (const Part& part : kParts) {
            const double len = us(bar.parts.*(part.field));
            if (len <= 0) continue;
            const bool measured = part.measured && bar.parts.*(part.measured);
            const QColor c = QColor::fromRgba(resourceColor(part.colour));
            if (measured) {
                rect(at, at + len, k, QBrush(c), QPen(c.darker(130), 1));
            } else {
                QColor light = c;
                light.setAlpha(70);
                rect(at, at + len, k, QBrush(light), QPen(Qt::NoPen));
                rect(at, at + len, k, QBrush(c, Qt::BDiagPattern), QPen(c.darker(130), 1));
            }
            at += len;
        }
        maxTotal = std::max(maxTotal, at);
    }
    key->setTicker(ticker);
    key->setRange(0.4, std::max<double>(2.0, static_cast<double>(m_bars.size())) + 0.9);
    value->setRange(0, std::max(maxTotal * 1.05, 0.001));
    if (m_bars.empty()) {
        auto* none = new QCPItemText(m_plot);
        none->position->setType(QCPItemPosition::ptAxisRectRatio);
        none->position->setAxisRect(m_barRect);
        none->position->setCoords(0.5, 0.5);
        none->setText(tr("no breakdown without the analysis"));
        none->setColor(viewColors(palette()).mutedText);
    }
}

void BreakdownView::drawHistogram() {
    QCPAxis* x = m_histRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_histRect->axis(QCPAxis::atLeft);
    // What the last bar holds besides its own range is said in the legend, a line that wraps:
    // drawn in the histogram it was cut at the plot's edge in a narrow pane.
    QString legend = m_legendText;
    if (!m_hist.counts.empty() && m_hist.overflow > 0)
        legend += m_hist.overflow == 1
                      ? tr("<br>Histogram: 1 occurrence beyond p99 is counted in its last bar (%1).")
                            .arg(durationText(m_hist.max))
                      : tr("<br>Histogram: %1 occurrences beyond p99 are counted in its last bar (the longest %2).")
                            .arg(m_hist.overflow)
                            .arg(durationText(m_hist.max));
    if (legend != m_legend->text()) {
        m_legend->setText(legend);
        fitParts();
    }
    y->setLabel(tr("occurrences"));
    if (m_hist.counts.empty()) return;
    auto* bars = new QCPBars(x, y);
    bars->setWidth(us(m_hist.width));
    const ViewColors colors = viewColors(palette());
    bars->setPen(QPen(colors.histogramPen, 1));
    bars->setBrush(colors.histogramFill);
    double top = 0;
    for (std::size_t b = 0; b < m_hist.counts.size(); ++b) {
        bars->addData(us(m_hist.binStart(b)) + us(m_hist.width) / 2, m_hist.counts[b]);
        top = std::max(top, static_cast<double>(m_hist.counts[b]));
    }
    const double x0 = us(m_hist.lo), x1 = us(m_hist.binStart(m_hist.counts.size()));
    const SignatureStats* sig =
        m_report && m_signature < m_report->operators.size() ? &m_report->operators[m_signature] : nullptr;
    if (sig)
        markHistogram(sig->baselineNs, x0, x1, top, colors.good, tr("baseline %1").arg(durationText(sig->baselineNs)),
                      1.02);
    if (m_slice != kNone) {
        const TimeNs d = m_trace->slices()[m_slice].dur;
        markHistogram(d, x0, x1, top, colors.bad, tr("this %1").arg(durationText(d)), 0.85);
    }
    x->setRange(x0 - us(m_hist.width), x1 + us(m_hist.width));
    y->setRange(0, top * 1.15 + 1);
    fitTicks();
}

void BreakdownView::fitTicks() {
    // About one duration label per 70 px, so "1.25" and "1.3" do not run into each other in a
    // narrow histogram.
    const int w = m_histRect->width() > 0 ? m_histRect->width() : width() / 2;
    m_histRect->axis(QCPAxis::atBottom)->ticker()->setTickCount(std::clamp(w / 70, 2, 8));
}

void BreakdownView::markHistogram(TimeNs ns, double x0, double x1, double top, const QColor& c, const QString& label,
                                  double ratio) {
    QCPAxis* x = m_histRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_histRect->axis(QCPAxis::atLeft);
    const ViewColors colors = viewColors(palette());
    const double v = std::clamp(us(ns), x0, x1);
    auto* line = new QCPItemStraightLine(m_plot);
    line->setClipAxisRect(m_histRect);
    line->point1->setAxes(x, y);
    line->point2->setAxes(x, y);
    line->point1->setCoords(v, 0);
    line->point2->setCoords(v, 1);
    line->setPen(QPen(c, 2, Qt::DashLine));
    auto* text = new QCPItemText(m_plot);
    text->setClipAxisRect(m_histRect);
    text->position->setAxes(x, y);
    text->position->setCoords(v, top * ratio);
    // Labels right of the line, or left of it in the right half of the plot.
    const bool right = v > (x0 + x1) / 2;
    text->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    text->setText(right ? label + QStringLiteral(" ") : QStringLiteral(" ") + label);
    text->setColor(colors.dark ? c : c.darker(120));
    text->setBrush(colors.labelBackdrop);
}

}  // namespace contend::widgets
