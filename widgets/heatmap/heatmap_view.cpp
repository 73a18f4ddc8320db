#include "widgets/heatmap/heatmap_view.h"

#include <algorithm>

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "widgets/common/text.h"
#include "widgets/common/view_colors.h"
#include "widgets/common/view_state.h"

namespace contend::widgets {

namespace {
QCPColorGradient contentionGradient(const ViewColors& colors) {
    QCPColorGradient g;
    g.clearColorStops();
    // Empty cells are the background (near-white, or near the base of a dark palette); any
    // wait at all is already a clear orange, so a small contention next to a large one shows.
    g.setColorStopAt(0.0, colors.heatEmpty);
    g.setColorStopAt(0.02, QColor(0xfd, 0xd0, 0x8a));
    g.setColorStopAt(0.3, QColor(0xfc, 0x8d, 0x3c));
    g.setColorStopAt(0.7, QColor(0xd7, 0x30, 0x1f));
    g.setColorStopAt(1.0, QColor(0x7f, 0x00, 0x00));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}
}  // namespace

HeatmapView::HeatmapView(QWidget* parent)
    : QWidget(parent),
      m_plot(new QCustomPlot),
      m_scroll(new QScrollArea(this)),
      m_rowsBox(new QComboBox(this)),
      m_metricBox(new QComboBox(this)),
      m_note(new QLabel(this)),
      m_key(new QLabel(this)),
      m_timer(new QTimer(this)) {
    m_rowsBox->addItems({tr("Resources"), tr("Streams")});
    m_metricBox->addItems({tr("Extra wait"), tr("Pressure above threshold")});
    m_metricBox->setToolTip(
        tr("Extra wait: flagged operators' excess per unit of time (1 = one operator waiting all "
           "through the bin).\nPressure: share of the bin the resource was above its high-utilisation "
           "threshold (needs counters)."));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(new QLabel(tr("Rows:"), this));
    bar->addWidget(m_rowsBox);
    bar->addWidget(new QLabel(tr("Colour:"), this));
    bar->addWidget(m_metricBox);
    bar->addSpacing(8);
    bar->addWidget(m_key);
    bar->addWidget(m_note, 1);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addLayout(bar);
    // The plot fills the pane; when its rows need more height (refresh), it scrolls.
    m_scroll->setWidget(m_plot);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setMinimumHeight(120);
    box->addWidget(m_scroll, 1);
    m_scroll->viewport()->installEventFilter(this);

    m_plot->setMinimumHeight(120);
    m_plot->axisRect()->setupFullAxesBox(false);
    m_plot->xAxis->setLabel(tr("time since trace start (ms)"));
    m_plot->xAxis2->setVisible(false);
    m_plot->yAxis2->setVisible(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setSubTickLength(0, 0);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->grid()->setVisible(false);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    // Cell centres are given (refresh), so every cell, the first and last rows included, is
    // drawn whole and the map spans exactly the bins' time range.
    m_map->setTightBoundary(false);
    // The colour key is a line in the bar above (updateKey), not a colour scale beside the
    // plot: the plot's right edge is then free to line up with the timeline's.
    applyColours();
    connect(m_plot, &QCustomPlot::beforeReplot, this, &HeatmapView::applyAlignment);

    m_timer->setSingleShot(true);
    m_timer->setInterval(15);
    connect(m_timer, &QTimer::timeout, this, &HeatmapView::onRefreshTimer);
    connect(m_rowsBox, &QComboBox::currentIndexChanged, this, [this](int i) { setRows(static_cast<HeatmapRows>(i)); });
    connect(m_metricBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setMetric(static_cast<HeatmapMetric>(i)); });
    connect(m_plot, &QCustomPlot::mousePress, this, &HeatmapView::onClick);
    connect(m_plot, &QCustomPlot::mouseMove, this, &HeatmapView::onMove);
    m_plot->setMouseTracking(true);
    m_metricBox->setEnabled(false);
}

void HeatmapView::alignTimeAxisWith(QWidget* reference, std::function<QRect()> timeArea) {
    if (m_alignRef) m_alignRef->removeEventFilter(this);
    m_alignRef = reference;
    m_alignArea = reference ? std::move(timeArea) : std::function<QRect()>();
    if (m_alignRef) m_alignRef->installEventFilter(this);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool HeatmapView::eventFilter(QObject* watched, QEvent* event) {
    // A pane of another height: the rows' room and the time axis' title are decided again.
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize) scheduleRefresh();
    if (watched == m_alignRef) {
        const QEvent::Type t = event->type();
        if (t == QEvent::Resize || t == QEvent::Move || t == QEvent::Show || t == QEvent::Hide)
            m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    return QWidget::eventFilter(watched, event);
}

void HeatmapView::applyAlignment() {
    // Runs before each replot lays the plot out: the axis rect gets the reference's screen
    // columns as its left and right margins (top and bottom stay automatic).
    bool ok = false;
    int left = 0, right = 0;
    if (m_alignRef && m_alignArea && m_alignRef->isVisible() && isVisible() && m_alignRef->window() == window()) {
        const QRect a = m_alignArea();
        left = m_plot->mapFromGlobal(m_alignRef->mapToGlobal(a.topLeft())).x();
        right = m_plot->width() - (left + a.width());
        // Room for the row labels, a sensible plot, and both edges inside the plot.
        ok = left >= 40 && right >= 0 && a.width() >= 50;
    }
    QCPAxisRect* rect = m_plot->axisRect();
    if (ok) {
        rect->setAutoMargins(QCP::msTop | QCP::msBottom);
        QMargins m = rect->margins();
        m.setLeft(left);
        m.setRight(right);
        rect->setMargins(m);
    } else {
        rect->setAutoMargins(QCP::msAll);
    }
    // New edges change the bins and the room for the row labels: rebuild once.
    if (ok != m_aligned || (ok && (left != m_alignLeft || right != m_alignRight))) scheduleRefresh();
    m_aligned = ok;
    m_alignLeft = ok ? left : -1;
    m_alignRight = ok ? right : -1;
}

double HeatmapView::xOf(qint64 t) const {
    const TimeNs origin = m_trace ? m_trace->begin() : 0;
    return m_plot->xAxis->coordToPixel(static_cast<double>(t - origin) / 1e6);
}

void HeatmapView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) {
        applyColours();
        scheduleRefresh();
    }
}

void HeatmapView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (m_stale) scheduleRefresh();
}

void HeatmapView::applyColours() {
    const ViewColors colors = viewColors(palette());
    stylePlot(m_plot, colors);
    m_map->setGradient(contentionGradient(colors));
    m_note->setStyleSheet(themedHtml(QStringLiteral("color: #666"), palette()));
    updateKey();
}

void HeatmapView::updateKey() {
    // "0 [gradient] top unit", painted in the palette's text colour.
    const QString top = QString::number(m_top, 'g', 3);
    const QString unit = m_grid.metric == HeatmapMetric::Pressure ? tr("share above threshold") : tr("ops waiting");
    const QString head = QStringLiteral("0 ");
    const QString tail = QStringLiteral(" %1 %2").arg(top, unit);
    const QFontMetrics fm(font());
    const int ramp = 60;
    const int w = fm.horizontalAdvance(head) + ramp + fm.horizontalAdvance(tail) + 2;
    const int h = fm.height();
    const qreal dpr = devicePixelRatioF();
    QPixmap pm(QSize(w, h) * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setFont(font());
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(0, 0, w, h), Qt::AlignLeft | Qt::AlignVCenter, head);
    const int x0 = fm.horizontalAdvance(head);
    QCPColorGradient g = m_map->gradient();
    for (int x = 0; x < ramp; ++x)
        p.fillRect(QRect(x0 + x, h / 2 - 5, 1, 10), QColor::fromRgb(g.color(x / (ramp - 1.0), QCPRange(0, 1))));
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(QRect(x0, h / 2 - 5, ramp - 1, 9));
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(x0 + ramp, 0, w - x0 - ramp, h), Qt::AlignLeft | Qt::AlignVCenter, tail);
    p.end();
    m_key->setPixmap(pm);
    m_key->setToolTip(tr("Cell colour: 0 to %1 %2").arg(top, unit));
}

void HeatmapView::setPeer(HeatmapView* peer) {
    m_peer = peer == this ? nullptr : peer;
    scheduleRefresh();
}

void HeatmapView::setTrace(TracePtr trace) {
    m_trace = std::move(trace);
    m_report.reset();
    m_pressure = nullptr;
    m_metricBox->setEnabled(false);
    if (m_trace) {
        m_t0 = m_trace->begin();
        m_t1 = m_trace->end();
    }
    scheduleRefresh();
}

void HeatmapView::showTrace(const ViewInputs& in) {
    setTrace(in.trace);
    setPressureSource(in.pressure);
    setReport(in.report);
    // setTrace shows the whole trace; a bound view keeps the shared range.
    if (m_zoom && m_zoom->isSet()) setViewRange(m_zoom->start() + m_zoomOffset, m_zoom->end() + m_zoomOffset);
}

void HeatmapView::showReport(const ViewInputs& in) { setReport(in.report); }

void HeatmapView::showAnalysis(const ViewInputs& in) {
    if (in.trace != m_trace) return showTrace(in);
    setPressureSource(in.pressure);
    setReport(in.report);
}

void HeatmapView::bindZoom(ZoomControl* zoom, qint64 offset) {
    if (m_zoom) disconnect(m_zoom, nullptr, this, nullptr);
    m_zoom = zoom;
    m_zoomOffset = offset;
    if (!m_zoom) return;
    connect(m_zoom, &ZoomControl::rangeChanged, this,
            [this](qint64 t0, qint64 t1) { setViewRange(t0 + m_zoomOffset, t1 + m_zoomOffset); });
    connect(m_zoom, &QObject::destroyed, this, [this] { m_zoom = nullptr; });
    if (m_zoom->isSet()) setViewRange(m_zoom->start() + m_zoomOffset, m_zoom->end() + m_zoomOffset);
}

void HeatmapView::setZoomOffset(qint64 offset) {
    m_zoomOffset = offset;
    if (m_zoom && m_zoom->isSet()) setViewRange(m_zoom->start() + m_zoomOffset, m_zoom->end() + m_zoomOffset);
}

void HeatmapView::setReport(std::shared_ptr<const Report> report) {
    m_report = std::move(report);
    scheduleRefresh();
}

void HeatmapView::setPressureSource(PressureSource source) {
    m_pressure = std::move(source);
    ++m_pressureGeneration;
    m_metricBox->setEnabled(m_pressure != nullptr);
    scheduleRefresh();
}

void HeatmapView::setRows(HeatmapRows rows) {
    m_rows = rows;
    if (rows == HeatmapRows::Resources && m_metricBox->currentIndex() != static_cast<int>(m_metric)) {
        const QSignalBlocker block(m_metricBox);
        m_metricBox->setCurrentIndex(static_cast<int>(m_metric));
    }
    if (m_rowsBox->currentIndex() != static_cast<int>(rows)) m_rowsBox->setCurrentIndex(static_cast<int>(rows));
    m_metricBox->setEnabled(m_pressure != nullptr && rows == HeatmapRows::Resources);
    scheduleRefresh();
}

void HeatmapView::setMetric(HeatmapMetric metric) {
    m_metric = metric;
    if (m_metricBox->currentIndex() != static_cast<int>(metric)) m_metricBox->setCurrentIndex(static_cast<int>(metric));
    scheduleRefresh();
}

void HeatmapView::setViewRange(qint64 t0, qint64 t1) {
    if (t0 == m_t0 && t1 == m_t1) return;
    m_t0 = t0;
    m_t1 = t1;
    scheduleRefresh();
}

void HeatmapView::scheduleRefresh() {
    if (!m_timer->isActive()) m_timer->start();
}

void HeatmapView::refreshNow() {
    m_timer->stop();
    refresh();
}

void HeatmapView::onRefreshTimer() {
    // A hidden pane (a closed or tabbed-away dock) does nothing per report: it refreshes when
    // it is shown again (showEvent).
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    refresh();
}

void HeatmapView::updateGrid(int bins, const std::vector<Resource>& alsoRows) {
    const bool same = m_gridReport && m_gridTrace == m_trace && m_grid.t0 == m_t0 &&
                      m_grid.t1 == std::max(m_t1, m_t0 + 1) && m_gridBins == bins && m_grid.rows == m_rows &&
                      m_gridPressureGeneration == m_pressureGeneration && m_gridAlsoRows == alsoRows &&
                      (m_grid.metric == m_metric || m_rows == HeatmapRows::Streams) &&
                      sameHeatmapFindings(*m_gridReport, *m_report);
    m_gridReport = m_report;
    if (same) return;
    m_grid = buildHeatmap(*m_trace, *m_report, m_t0, m_t1, bins, m_rows, m_metric, m_pressure, alsoRows);
    ++m_gridBuilds;
    m_gridTrace = m_trace;
    m_gridBins = bins;
    m_gridPressureGeneration = m_pressureGeneration;
    m_gridAlsoRows = alsoRows;
}

void HeatmapView::refresh() {
    m_stale = false;
    auto* data = m_map->data();
    if (!m_trace || !m_report) {
        m_grid = HeatmapGrid();
        m_gridReport.reset();
        m_gridTrace.reset();
        m_plot->clearItems();
        m_boxes.clear();
        m_outlines = 0;
        data->setSize(1, 1);
        data->setCell(0, 0, 0);
        m_note->setText(m_trace ? tr("waiting for the analysis…") : QString());
        // No placeholder axes (rows 0-5 over 0-3 ms) that read as a result: an empty pane.
        m_plot->xAxis->setVisible(false);
        m_plot->yAxis->setVisible(false);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    m_plot->xAxis->setVisible(true);
    m_plot->yAxis->setVisible(true);
    const int bins = std::clamp(m_plot->axisRect()->width() / 3, 20, 1000);
    std::vector<Resource> alsoRows;
    if (m_peer && m_peer->m_report)
        for (std::size_t k = 0; k < m_peer->m_report->anomalies.size(); ++k) {
            const Resource cause = m_peer->m_report->anomalies.cause(k);
            if (std::find(alsoRows.begin(), alsoRows.end(), cause) == alsoRows.end()) alsoRows.push_back(cause);
        }
    updateGrid(bins, alsoRows);
    const int rows = std::max(1, m_grid.rowCount());
    // Every row at least a label line high: the plot's least height is the rows' plus what is
    // around the axis rect (the time axis, its labels, the margins). In a short pane the time
    // axis' title goes first (the timeline under it names the same times in ms); the scroll
    // area scrolls what the pane still cannot show.
    {
        const QString title = tr("time since trace start (ms)");
        const int titleHeight = QFontMetrics(m_plot->xAxis->labelFont()).height() + m_plot->xAxis->labelPadding();
        const bool titled = !m_plot->xAxis->label().isEmpty();
        const int axisRect = m_plot->axisRect()->height();
        const int around = (axisRect > 0 ? m_plot->height() - axisRect
                                         : 2 * QFontMetrics(m_plot->xAxis->tickLabelFont()).height() + 24) -
                           (titled ? titleHeight : 0);
        const int need = rows * minRowHeight() + around;
        const bool room = need + titleHeight <= m_scroll->viewport()->height();
        m_plot->xAxis->setLabel(room ? title : QString());
        m_plot->setMinimumHeight(std::max(120, need + (room ? titleHeight : 0)));
    }
    data->setSize(m_grid.bins, rows);
    const double x0 = static_cast<double>(m_grid.t0 - m_trace->begin()) / 1e6;
    const double x1 = static_cast<double>(m_grid.t1 - m_trace->begin()) / 1e6;
    const double half = (x1 - x0) / (2.0 * std::max(1, m_grid.bins));
    data->setRange(QCPRange(x0 + half, x1 - half), QCPRange(0, std::max(rows - 1, 1)));
    // Row 0 at the top: the colour map's y grows upwards, so rows are written bottom-up.
    for (int r = 0; r < m_grid.rowCount(); ++r)
        for (int k = 0; k < m_grid.bins; ++k) data->setCell(k, rows - 1 - r, m_grid.at(r, k));
    double top = m_grid.metric == HeatmapMetric::Pressure ? 1.0 : std::max(m_grid.maxValue, 1e-3);
    // One colour scale with the peer: the larger peak; the peer redraws when ours is larger.
    if (m_peer && m_grid.metric == HeatmapMetric::ExtraWait && m_peer->m_grid.metric == HeatmapMetric::ExtraWait) {
        top = std::max(top, m_peer->m_grid.maxValue);
        if (m_peer->m_top < top - 1e-12 && m_peer->m_report) m_peer->scheduleRefresh();
    }
    m_top = top;
    m_map->setDataRange(QCPRange(0, top));
    updateKey();
    // The colour box names what the plot shows, also while disabled (stream rows are always
    // extra wait); the chosen measure comes back with the resource rows.
    {
        const QSignalBlocker block(m_metricBox);
        m_metricBox->setCurrentIndex(static_cast<int>(m_grid.metric));
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    // Labels fit the margin (the timeline's label column when aligned), elided at the left so
    // the distinguishing end ("stream 13") stays.
    const QFontMetrics labelMetrics(m_plot->yAxis->tickLabelFont());
    const int labelPx = m_aligned ? std::max(30, m_alignLeft - 14) : 180;
    for (int r = 0; r < m_grid.rowCount(); ++r) {
        const QString label = QString::fromStdString(m_grid.labels[static_cast<std::size_t>(r)]);
        ticker->addTick(rows - 1 - r, labelMetrics.elidedText(label, Qt::ElideLeft, labelPx));
    }
    m_plot->yAxis->setTicker(ticker);

    m_plot->xAxis->setRange(x0, x1);
    m_plot->yAxis->setRange(-0.5, rows - 0.5);
    updateOutlines(rows);
    std::size_t flaggedInView = 0;
    for (double v : m_grid.values) flaggedInView += v > 0;
    QString note = flaggedInView == 0 && m_grid.metric == HeatmapMetric::ExtraWait
                       ? tr("no flagged operator in view")
                       : tr("peak %1").arg(m_grid.maxValue, 0, 'g', 3);
    // The overlap ratio changes the outlines, not the cells: the count shows each change.
    if (m_grid.rows == HeatmapRows::Resources)
        note += m_outlines == 1 ? tr(" · 1 contention window outlined")
                                : tr(" · %1 contention windows outlined").arg(m_outlines);
    m_note->setText(note);
    m_note->setToolTip(
        tr("Cell colours: the flagged operators' extra wait (the coefficient decides which are flagged).\n"
           "Outlined boxes: the contention windows, in their resource's row (the overlap ratio makes them);\n"
           "moving the overlap ratio changes the outlines and this count, not the colours."));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::updateOutlines(int rows) {
    // The contention windows outlined in their resource's row: the overlap ratio makes and
    // unmakes windows, so moving its slider visibly changes the map. The boxes are reused.
    m_outlines = 0;
    if (m_grid.rows == HeatmapRows::Resources) {
        std::vector<int> rowOf(kResourceCount, -1);
        for (int r = 0; r < m_grid.rowCount(); ++r) {
            const auto res = static_cast<std::size_t>(m_grid.rowResource[static_cast<std::size_t>(r)]);
            if (res < rowOf.size()) rowOf[res] = r;
        }
        const QColor blue = viewColors(palette()).windowOutline;
        const QPen pen(blue, 1);
        const QBrush fill(blue);
        // Compact fields only: a slider step's windows are not built to be outlined.
        const WindowList& windows = m_report->windows;
        for (std::size_t k = 0; k < windows.size(); ++k) {
            if (m_outlines >= kMaxOutlines) break;
            const TimeNs start = windows.start(k), end = windows.end(k);
            if (end <= m_grid.t0 || start >= m_grid.t1) continue;
            const auto res = static_cast<std::size_t>(windows.resource(k));
            const int row = res < rowOf.size() ? rowOf[res] : -1;
            if (row < 0) continue;
            if (static_cast<std::size_t>(m_outlines) == m_boxes.size()) {
                auto* made = new QCPItemRect(m_plot);
                made->setClipToAxisRect(true);
                m_boxes.push_back(made);
            }
            QCPItemRect* box = m_boxes[static_cast<std::size_t>(m_outlines)];
            const double y = rows - 1 - row;
            const double a = static_cast<double>(std::max(start, m_grid.t0) - m_trace->begin()) / 1e6;
            const double e = static_cast<double>(std::min(end, m_grid.t1) - m_trace->begin()) / 1e6;
            // A window a few pixels wide is outlined; a narrower one gets a cap on the row's top
            // edge, so it does not hide the colour of its cells.
            const bool wide = m_plot->xAxis->coordToPixel(e) - m_plot->xAxis->coordToPixel(a) >= 6;
            box->topLeft->setCoords(a, y + 0.45);
            box->bottomRight->setCoords(e, wide ? y - 0.45 : y + 0.33);
            box->setPen(pen);
            box->setBrush(wide ? QBrush(Qt::NoBrush) : fill);
            box->setVisible(true);
            ++m_outlines;
        }
    }
    for (std::size_t k = static_cast<std::size_t>(m_outlines); k < m_boxes.size(); ++k) m_boxes[k]->setVisible(false);
}

std::vector<HeatmapView::Outline> HeatmapView::outlines() const {
    std::vector<Outline> out;
    for (int k = 0; k < m_outlines; ++k) {
        const QCPItemRect* box = m_boxes[static_cast<std::size_t>(k)];
        const QPointF a = box->topLeft->coords(), b = box->bottomRight->coords();
        out.push_back({QRectF(QPointF(a.x(), b.y()), QPointF(b.x(), a.y())), box->brush().style() != Qt::NoBrush});
    }
    return out;
}

int HeatmapView::minRowHeight() const {
    return std::max(14, QFontMetrics(m_plot->yAxis->tickLabelFont()).height() + 2);
}

double HeatmapView::rowHeight() const {
    return std::abs(m_plot->yAxis->coordToPixel(0) - m_plot->yAxis->coordToPixel(1));
}

std::pair<int, int> HeatmapView::cellAt(QPoint pos) const {
    if (!m_trace || !m_report || m_grid.bins <= 0 || !m_plot->axisRect()->rect().contains(pos)) return {-1, -1};
    const double x = m_plot->xAxis->pixelToCoord(pos.x());
    const double y = m_plot->yAxis->pixelToCoord(pos.y());
    const TimeNs t = m_trace->begin() + static_cast<TimeNs>(x * 1e6);
    const int bin = m_grid.binOf(t);
    const int row = m_grid.rowCount() - 1 - static_cast<int>(std::lround(y));
    if (bin < 0 || row < 0 || row >= m_grid.rowCount()) return {-1, -1};
    return {row, bin};
}

QString HeatmapView::cellTooltip(int row, int bin) const {
    if (!m_trace || !m_report || row < 0 || row >= m_grid.rowCount() || bin < 0 || bin >= m_grid.bins) return {};
    const TimeNs a = m_grid.binStart(bin), b = m_grid.binEnd(bin);
    QString html = QStringLiteral("<b>%1</b><br>%2 – %3<br>")
                       .arg(QString::fromStdString(m_grid.labels[static_cast<std::size_t>(row)]).toHtmlEscaped(),
                            timeText(a - m_trace->begin()), timeText(b - m_trace->begin()));
    const double v = m_grid.at(row, bin);
    html += m_grid.metric == HeatmapMetric::Pressure
                ? tr("above threshold %1% of the bin").arg(v * 100, 0, 'f', 0)
                : tr("%1 operators waiting on average (extra wait %2)")
                      .arg(v, 0, 'g', 3)
                      .arg(durationText(static_cast<TimeNs>(v * static_cast<double>(b - a))));
    const std::vector<std::uint32_t> ops = anomaliesAt(*m_trace, *m_report, m_grid, row, bin);
    if (!ops.empty()) {
        html += tr("<br>%n flagged operator(s):", nullptr, static_cast<int>(ops.size()));
        for (std::size_t i = 0; i < ops.size() && i < 5; ++i) {
            const Anomaly& an = m_report->anomalies[ops[i]];
            html += QStringLiteral("<br>&nbsp;• %1 <span style='color:#666'>score %2, %3</span>")
                        .arg(shortOperatorName(sliceName(*m_trace, an.slice)).toHtmlEscaped())
                        .arg(an.score, 0, 'f', 1)
                        .arg(durationText(m_trace->slices()[an.slice].dur));
        }
        if (ops.size() > 5) html += tr("<br>&nbsp;… and %1 more").arg(ops.size() - 5);
    }
    const std::uint32_t w = windowAt(*m_trace, *m_report, m_grid, row, bin);
    if (w != kNone)
        html += tr("<br>in contention window #%1 (%2 operators); click to select it")
                    .arg(m_report->windows[w].id)
                    .arg(m_report->windows[w].ops.size());
    else if (!ops.empty())
        html += tr("<br>click to select the worst one");
    return html;
}

void HeatmapView::activateCell(int row, int bin) {
    if (!m_trace || !m_report || row < 0 || bin < 0) return;
    const std::uint32_t w = windowAt(*m_trace, *m_report, m_grid, row, bin);
    if (w != kNone) {
        emit zoomRequested(m_report->windows[w].start, m_report->windows[w].end);
        emit windowActivated(w);
        return;
    }
    emit zoomRequested(m_grid.binStart(bin), m_grid.binEnd(bin));
    const std::vector<std::uint32_t> ops = anomaliesAt(*m_trace, *m_report, m_grid, row, bin);
    if (!ops.empty()) emit sliceActivated(m_report->anomalies.slice(ops.front()));
}

void HeatmapView::onClick(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    const auto [row, bin] = cellAt(e->position().toPoint());
    activateCell(row, bin);
}

void HeatmapView::onMove(QMouseEvent* e) {
    const auto [row, bin] = cellAt(e->position().toPoint());
    const QString tip = cellTooltip(row, bin);
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPosition().toPoint(), themedHtml(tip, palette()), m_plot);
}

}  // namespace contend::widgets
