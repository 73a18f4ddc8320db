#include "widgets/timeline/timeline_view.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "widgets/common/text.h"
#include "widgets/common/view_colors.h"
#include "widgets/common/view_state.h"

namespace contend::widgets {

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 160);
    m_vbar = new QScrollBar(Qt::Vertical, this);
    connect(m_vbar, &QScrollBar::valueChanged, this, [this](int v) {
        if (static_cast<int>(m_scrollY) != v) {
            m_scrollY = v;
            update();
        }
    });
    m_args = new ArgsFetcher(this);
    connect(m_args, &ArgsFetcher::ready, this, [this](quint32 slice, const QString&) {
        // Refresh the tooltip if it is still about this slice.
        if (slice == m_tooltipSlice && QToolTip::isVisible()) {
            const QString text = tooltipAt(mapFromGlobal(m_tooltipPos));
            if (!text.isEmpty()) QToolTip::showText(m_tooltipPos, themedHtml(text, palette()), this);
        }
    });
    m_painter.setFont(font());
}

TimelineView::~TimelineView() = default;

QRect TimelineView::timeArea() const {
    const int sb = m_vbar ? m_vbar->sizeHint().width() : 14;
    return QRect(kGutter, kRuler, std::max(1, width() - kGutter - sb), std::max(1, height() - kRuler));
}

TimeNs TimelineView::rangeLo() const {
    if (!m_data || !m_data->trace) return 0;
    const Trace& t = *m_data->trace;
    return saturatingSub(t.begin(), std::max<TimeNs>(t.span() / 50, 1000));
}

TimeNs TimelineView::rangeHi() const {
    if (!m_data || !m_data->trace) return 1;
    const Trace& t = *m_data->trace;
    return saturatingAdd(t.end(), std::max<TimeNs>(t.span() / 50, 1000));
}

void TimelineView::setData(TimelineDataPtr data) {
    m_data = std::move(data);
    m_report.reset();
    m_slices.reset();
    m_overlay = std::make_shared<const ReportOverlay>();
    m_selected = kNone;
    m_focusTrack = kNone;
    m_marks.reset();
    m_hoverItem = -1;
    m_layoutOptions.expandedHosts.clear();
    m_layoutOptions.arrangement = m_data && m_data->trace ? TrackArrangement(*m_data->trace) : TrackArrangement();
    m_queues.reset();
    m_layoutOptions.queueOfTrack.clear();
    m_list = DrawList();
    m_painter.clearCaches();
    m_args->clear();
    m_flows = SliceFlows();
    m_flowsFor = kNone;
    m_measure0 = m_measure1 = 0;
    rebuildLayout();
    m_scrollY = 0;
    resetZoom();
    updateScrollBar();
    update();
    emit tracksChanged();
}

void TimelineView::setReport(std::shared_ptr<const Report> report, SliceViewPtr slices,
                             std::shared_ptr<const ReportOverlay> overlay) {
    m_report = std::move(report);
    m_slices = std::move(slices);
    if (m_report && m_data && m_data->trace)
        m_overlay = overlay ? std::move(overlay)
                            : std::make_shared<const ReportOverlay>(*m_data->trace, m_data->index, *m_report,
                                                                    m_slices ? *m_slices : SliceView::none());
    else
        m_overlay = std::make_shared<const ReportOverlay>();
    update();
}

void TimelineView::rebuildLayout() {
    if (m_data && m_data->trace)
        m_layout = TrackLayout(*m_data->trace, m_data->index, m_layoutOptions);
    else
        m_layout = TrackLayout();
    updateScrollBar();
}

void TimelineView::updateScrollBar() {
    const int page = timeArea().height();
    const int max = std::max(0, m_layout.height() - page);
    m_vbar->setGeometry(width() - m_vbar->sizeHint().width(), kRuler, m_vbar->sizeHint().width(), height() - kRuler);
    m_vbar->setRange(0, max);
    m_vbar->setPageStep(page);
    m_vbar->setSingleStep(18);
    setScrollY(m_scrollY);
}

void TimelineView::setScrollY(double y) {
    const double max = std::max(0, m_layout.height() - timeArea().height());
    m_scrollY = std::clamp(y, 0.0, max);
    m_vbar->setValue(static_cast<int>(m_scrollY));
    update();
}

void TimelineView::setAxis(const TimeAxis& a) {
    TimeAxis n = a;
    n.widthPx = timeArea().width();
    if (n == m_axis) return;
    m_axis = n;
    update();
    emit viewChanged(m_axis.t0, m_axis.t1);
    if (m_zoom) m_zoom->setRange(m_axis.t0 - m_zoomOffset, m_axis.t1 - m_zoomOffset);
}

void TimelineView::applyZoom(qint64 t0, qint64 t1) {
    TimeAxis n{t0 + m_zoomOffset, std::max(t1, t0 + 1) + m_zoomOffset, static_cast<double>(timeArea().width())};
    if (n == m_axis) return;
    m_axis = n;
    update();
    emit viewChanged(m_axis.t0, m_axis.t1);
}

void TimelineView::bindZoom(ZoomControl* zoom, qint64 offset) {
    if (m_zoom) disconnect(m_zoom, nullptr, this, nullptr);
    m_zoom = zoom;
    m_zoomOffset = offset;
    if (!m_zoom) return;
    connect(m_zoom, &ZoomControl::rangeChanged, this, &TimelineView::applyZoom);
    connect(m_zoom, &QObject::destroyed, this, [this] { m_zoom = nullptr; });
    // The control's range if it has one, else this view's (when it shows a trace).
    if (m_zoom->isSet())
        applyZoom(m_zoom->start(), m_zoom->end());
    else if (m_data)
        m_zoom->setRange(m_axis.t0 - m_zoomOffset, m_axis.t1 - m_zoomOffset);
}

void TimelineView::setZoomOffset(qint64 offset) {
    m_zoomOffset = offset;
    if (m_zoom && m_zoom->isSet()) applyZoom(m_zoom->start(), m_zoom->end());
}

void TimelineView::bindSelection(SelectionControl* selection) {
    if (m_selection) disconnect(m_selection, nullptr, this, nullptr);
    m_selection = selection;
    if (!m_selection) return;
    connect(m_selection, &SelectionControl::selectionChanged, this, [this](quint32 s) { selectSlice(s, false); });
    connect(m_selection, &QObject::destroyed, this, [this] { m_selection = nullptr; });
}

void TimelineView::pickSlice(quint32 slice, bool reveal) {
    if (!m_data || slice >= m_data->trace->slices().size()) slice = kNone;
    if (m_selection) m_selection->select(slice);  // shown here through the subscription
    selectSlice(slice, reveal);                   // unbound: the selection; bound: the reveal
    emit slicePicked(slice);
}

void TimelineView::showTrace(const ViewInputs& in) {
    setData(in.timeline);
    setQueueTracks(in.queues);
    setReport(in.report, in.slices, in.overlay);
}

void TimelineView::showReport(const ViewInputs& in) {
    setQueueTracks(in.queues);
    setReport(in.report, in.slices, in.overlay);
}

void TimelineView::showAnalysis(const ViewInputs& in) {
    if (in.timeline != m_data) setData(in.timeline);  // another trace after all: start over
    setQueueTracks(in.queues);                        // built with the analysis: they appear now, the view stays put
    setReport(in.report, in.slices, in.overlay);
}

void TimelineView::setQueueTracks(QueueTracksPtr queues) {
    if (queues == m_queues) return;
    m_queues = std::move(queues);
    m_layoutOptions.queueOfTrack = m_queues ? m_queues->ofTrack : std::vector<std::uint32_t>();
    rebuildLayout();
    update();
    emit tracksChanged();
}

void TimelineView::zoomTo(qint64 t0, qint64 t1, double margin) {
    if (t1 <= t0) t1 = t0 + 1;
    // Never narrower than the minimum span, centred on the request.
    const TimeNs minSpan = 50;
    if (t1 - t0 < minSpan) {
        const TimeNs mid = t0 + (t1 - t0) / 2;
        t0 = mid - minSpan / 2;
        t1 = t0 + minSpan;
    }
    setAxis(clampTo(fitRange(t0, t1, timeArea().width(), margin), rangeLo(), rangeHi()));
}

void TimelineView::resetZoom() {
    if (!m_data || !m_data->trace) {
        setAxis(TimeAxis{0, 1000000, static_cast<double>(timeArea().width())});
        return;
    }
    const Trace& t = *m_data->trace;
    zoomTo(t.begin(), std::max(t.end(), t.begin() + 1), 0.01);
}

void TimelineView::zoomToSelection() {
    if (!m_data || m_selected >= m_data->trace->slices().size()) return;
    const Slice& s = m_data->trace->slices()[m_selected];
    zoomTo(s.start, std::max(s.end(), s.start + 1), 1.0);
}

void TimelineView::selectSlice(quint32 slice, bool reveal) {
    if (!m_data || slice >= m_data->trace->slices().size()) slice = kNone;
    const bool changed = slice != m_selected;
    m_selected = slice;
    if (m_marks && slice != m_marks->keep()) m_marks.reset();  // another selection: not the pattern's
    if (reveal && slice != kNone) {
        const Slice& s = m_data->trace->slices()[slice];
        // A hidden or filtered-out track is shown, a collapsed host track expanded, so the
        // operator is visible.
        if (!m_layoutOptions.arrangement.shown(*m_data->trace, s.track)) {
            TrackArrangement a = m_layoutOptions.arrangement;
            a.setHidden(s.track, false);
            if (!a.matches(*m_data->trace, s.track)) a.setFilter({});
            setTrackArrangement(a);
        }
        const int row = m_layout.rowOf(s.track, s.depth);
        if (row >= 0 && s.depth > 0 && m_layout.rows()[static_cast<std::size_t>(row)].collapsed)
            setHostExpanded(s.track, true);
        zoomToSelection();
        scrollToRow(m_layout.rowOf(s.track, s.depth));
    }
    update();
    if (changed) emit sliceSelected(m_selected);
}

void TimelineView::setHostExpanded(quint32 track, bool expanded) {
    if (expanded)
        m_layoutOptions.expandedHosts.insert(track);
    else
        m_layoutOptions.expandedHosts.erase(track);
    rebuildLayout();
    update();
}

void TimelineView::setGroupCollapsed(TrackGroup group, bool collapsed) {
    if (collapsed)
        m_layoutOptions.collapsedGroups.insert(group);
    else
        m_layoutOptions.collapsedGroups.erase(group);
    rebuildLayout();
    update();
}

void TimelineView::scrollToRow(int row) {
    if (row < 0 || row >= static_cast<int>(m_layout.rows().size())) return;
    const LayoutRow& r = m_layout.rows()[static_cast<std::size_t>(row)];
    if (r.pinned) return;  // always in view
    // The scrolled rows show under the pinned ones: content [scroll + pinned, scroll + page).
    const int page = timeArea().height(), pinned = m_layout.pinnedHeight();
    if (r.y < m_scrollY + pinned || r.y + r.h > m_scrollY + page) setScrollY(r.y - pinned - (page - pinned) / 3.0);
}

void TimelineView::paintTimeline(QPainter& p) {
    QElapsedTimer timer;
    timer.start();
    const QRect area = timeArea();
    if (m_axis.widthPx != area.width()) m_axis.widthPx = area.width();
    DrawInput in;
    if (m_data && m_data->trace) {
        in.trace = m_data->trace.get();
        in.index = &m_data->index;
        in.counterLods = &m_data->counters;
        if (m_queues) in.queues = &m_queues->tracks;
    }
    in.layout = &m_layout;
    in.report = m_report.get();
    in.overlay = m_report ? m_overlay.get() : nullptr;
    in.axis = m_axis;
    in.scrollY = m_scrollY;
    in.viewHeight = area.height();
    in.selected = m_selected;
    in.criticalPath = m_showCritical;
    in.marks = m_marks.get();
    m_list = buildDrawList(in);
    m_lastListMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;

    TimelineFrame f;
    f.trace = in.trace;
    f.report = in.report;
    f.layout = &m_layout;
    f.list = &m_list;
    f.axis = m_axis;
    f.timeArea = area;
    f.gutter = QRect(0, kRuler, kGutter, area.height());
    f.ruler = QRect(kGutter, 0, area.width(), kRuler);
    f.scrollY = m_scrollY;
    f.hoverItem = m_hoverItem;
    f.colors = viewColors(palette());
    f.hiddenTracks = m_layout.notShownTracks();
    f.focusTrack = m_focusTrack;
    f.criticalLegend = m_showCritical && m_report && m_overlay->criticalSlices() > 0;
    if (m_marks) f.marksLabel = QString::fromStdString(m_marks->label());
    m_hiddenHint = hiddenHintRect(f, font());
    if (area.contains(m_mousePos) || (m_mousePos.x() >= area.left() && m_mousePos.x() <= area.right() &&
                                      m_mousePos.y() >= 0 && m_mousePos.y() < kRuler))
        f.cursorX = m_mousePos.x() - area.left();
    if (m_drag == Drag::Box && m_moved) {
        const int x0 = std::clamp(std::min(m_pressPos.x(), m_mousePos.x()), area.left(), area.right());
        const int x1 = std::clamp(std::max(m_pressPos.x(), m_mousePos.x()), area.left(), area.right());
        f.rubberBand = QRect(x0, area.top(), x1 - x0, area.height());
    }
    // The corner above the scroll bar belongs to no area; the widget paints opaquely.
    p.fillRect(QRect(area.right() + 1, 0, width() - area.right() - 1, kRuler), f.colors.ruler);
    m_painter.paint(p, f);
    paintFlows(p, area);
    paintMeasure(p, area);
    if (!in.trace) {
        p.setPen(f.colors.mutedText);
        p.drawText(rect(), Qt::AlignCenter, tr("Open a trace (Ctrl+O) or drop a file here"));
    }
    m_lastFrameMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

void TimelineView::paintFlows(QPainter& p, const QRect& area) {
    if (!m_data || m_selected == kNone) return;
    const Trace& t = *m_data->trace;
    if (m_flowsFor != m_selected) {
        m_flows = flowsOf(t, m_selected);
        m_flowsFor = m_selected;
    }
    if (m_flows.flows.empty()) return;
    // Widget y of the middle of a slice's lane, or -1 when its track is not shown or has
    // scrolled under the pinned tracks (an arrow to it would cross them).
    auto yOf = [&](std::uint32_t s) -> double {
        const int row = m_layout.rowOf(t.slices()[s].track, t.slices()[s].depth);
        if (row < 0) return -1;
        const LayoutRow& r = m_layout.rows()[static_cast<std::size_t>(row)];
        const double mid = m_layout.viewY(r.y, m_scrollY) + r.h / 2.0;
        if (!r.pinned && mid < m_layout.pinnedHeight()) return -1;
        return area.top() + mid;
    };
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing, true);
    const QColor c = viewColors(palette()).flow;
    p.setPen(QPen(c, 1.5));
    p.setBrush(c);
    for (std::uint32_t fi : m_flows.flows) {
        const Flow& f = t.flows()[fi];
        const Slice& from = t.slices()[f.from];
        const Slice& to = t.slices()[f.to];
        const double y0 = yOf(f.from), y1 = yOf(f.to);
        if (y0 < 0 || y1 < 0) continue;
        // From where the flow leaves its slice to where it arrives (the target's start at most).
        const TimeNs a = std::clamp<TimeNs>(f.fromTs, from.start, from.end());
        const TimeNs b = std::clamp<TimeNs>(f.toTs, to.start, to.end());
        const QPointF p0(area.left() + std::clamp(m_axis.toPx(a), -1e6, 1e6), y0);
        const QPointF p1(area.left() + std::clamp(m_axis.toPx(b), -1e6, 1e6), y1);
        p.drawLine(p0, p1);
        // The arrowhead at the launched end.
        const QPointF d = p1 - p0;
        const double len = std::hypot(d.x(), d.y());
        if (len < 1) continue;
        const QPointF u = d / len, n(-u.y(), u.x());
        const QPointF head[3] = {p1, p1 - 8 * u + 4 * n, p1 - 8 * u - 4 * n};
        p.drawPolygon(head, 3);
    }
    p.restore();
}

void TimelineView::setMeasuredRange(qint64 t0, qint64 t1) {
    const bool had = m_measure1 > m_measure0;
    const std::pair<TimeNs, TimeNs> before{m_measure0, m_measure1};
    m_measure0 = std::min(t0, t1);
    m_measure1 = std::max(t0, t1);
    if (t1 <= t0) m_measure0 = m_measure1 = 0;
    if (had && m_measure1 <= m_measure0) emit rangeMeasured(0, 0);
    // A new range set from outside (a session, a screenshot) is told like a measured one.
    if (m_measure1 > m_measure0 && before != std::make_pair(m_measure0, m_measure1))
        emit rangeMeasured(m_measure0, m_measure1);
    update();
}

void TimelineView::paintMeasure(QPainter& p, const QRect& area) {
    if (m_measure1 <= m_measure0) return;
    const double a = std::clamp(m_axis.toPx(m_measure0), -1.0, area.width() + 1.0);
    const double b = std::clamp(m_axis.toPx(m_measure1), -1.0, area.width() + 1.0);
    if (b < 0 || a > area.width()) return;
    const QRectF band(area.left() + a, 0, std::max(1.0, b - a), area.bottom());
    QColor tint = viewColors(palette()).measure;
    const QColor line = tint;
    tint.setAlpha(36);
    p.fillRect(band, tint);
    p.setPen(QPen(line, 1));
    p.drawLine(band.topLeft(), band.bottomLeft());
    p.drawLine(band.topRight(), band.bottomRight());
    const QString label = durationText(m_measure1 - m_measure0);
    const QFontMetrics fm(font());
    const QRectF box(band.center().x() - fm.horizontalAdvance(label) / 2.0 - 4, kRuler + 2,
                     fm.horizontalAdvance(label) + 8, fm.height() + 2);
    p.fillRect(box, QColor(0x19, 0x76, 0xd2));  // white on this blue in both palettes
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, label);
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTimeline(p);
    emit frameRendered(m_lastFrameMs);
}

void TimelineView::resizeEvent(QResizeEvent*) {
    m_axis.widthPx = timeArea().width();
    updateScrollBar();
    emit viewChanged(m_axis.t0, m_axis.t1);
}

QString TimelineView::tooltipAt(QPoint pos) {
    const int it = itemAt(pos);
    if (it < 0) return queueTooltipAt(pos);
    return tooltipForItem(m_list.items[static_cast<std::size_t>(it)]);
}

namespace {
// The first few args of an event, one short line each; the rest are in Details.
constexpr int kTooltipArgs = 6;
constexpr int kTooltipArgChars = 60;
}  // namespace

QString tooltipArgs(const QString& rawEvent) {
    // In the file's order: profilers write the telling args first.
    const auto j = nlohmann::ordered_json::parse(rawEvent.toStdString(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("args") || !j["args"].is_object() || j["args"].empty())
        return {};
    const auto& args = j["args"];
    QString html = QStringLiteral("<hr><table cellspacing=0 cellpadding=0>");
    int shown = 0;
    for (auto kv = args.begin(); kv != args.end() && shown < kTooltipArgs; ++kv, ++shown) {
        QString v =
            kv->is_string() ? QString::fromStdString(kv->get<std::string>()) : QString::fromStdString(kv->dump());
        if (v.size() > kTooltipArgChars) v = v.left(kTooltipArgChars - 1) + QStringLiteral("…");
        html += QStringLiteral("<tr><td style='color:#555'>%1&nbsp;</td><td>%2</td></tr>")
                    .arg(QString::fromStdString(kv.key()).left(32).toHtmlEscaped(), v.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    const auto more = static_cast<int>(args.size()) - shown;
    if (more > 0) html += QStringLiteral("<i>%1 more arg(s) in Details</i>").arg(more);
    return html;
}

QString TimelineView::queueTooltipAt(QPoint pos) const {
    // Over a stream's queue length: its length under the cursor (after every change at that time).
    if (!m_data || pos.x() < kGutter || pos.y() < kRuler) return {};
    const int row = m_layout.rowAtView(pos.y() - kRuler, m_scrollY);
    if (row < 0) return {};
    const LayoutRow& r = m_layout.rows()[static_cast<std::size_t>(row)];
    if (r.kind != RowKind::Queue || !m_queues || r.counter >= m_queues->tracks.size()) return {};
    const breakdowns::QueueSeries& s = *m_queues->tracks[r.counter].series;
    const TimeNs t = m_axis.toTime(pos.x() - kGutter);
    return tr("<b>queue length %1</b> on stream %2 at %3<br><i>operations launched and not yet started "
              "(HTA's queue length)</i>")
        .arg(breakdowns::queueLengthAt(s, t))
        .arg(s.stream)
        .arg(timeText(t - m_data->trace->begin()));
}

QString TimelineView::tooltipForItem(const DrawItem& it) {
    const Trace& t = *m_data->trace;
    const Slice& s = t.slices()[it.slice];
    auto esc = [](const QString& x) { return x.toHtmlEscaped(); };
    QString html;
    if (it.is(kDrawFolded)) {
        html += QStringLiteral("<b>%1 operators</b> folded here (narrower than 2 px); zoom in to see them.<br>")
                    .arg(it.count);
        if (it.flagged > 0) html += QStringLiteral("%1 of them flagged.<br>").arg(it.flagged);
        if (!it.is(kDrawFlagged)) return html;
        html += QStringLiteral("Worst flagged among them:<br>");
    }
    const QString name = sliceName(t, it.slice), shortName = shortOperatorName(name);
    html += QStringLiteral("<b>%1</b><br>").arg(esc(shortName));
    if (shortName != name) html += QStringLiteral("<span style='color:#666'>%1</span><br>").arg(esc(name.left(200)));
    html += esc(trackLabel(t, s.track)) + QStringLiteral("<br>");
    html += QStringLiteral("start %1 &nbsp; duration %2 &nbsp; end %3<br>")
                .arg(timeText(s.start - t.begin()), durationText(s.dur), timeText(s.end() - t.begin()));
    if (m_report) {
        const Report& r = *m_report;
        const std::uint32_t a = m_overlay->anomalyOf(it.slice);
        const SliceView& view = m_slices ? *m_slices : SliceView::none();
        const float score = view.scoreOf(it.slice);
        const std::uint32_t sig = view.signatureOf(it.slice);
        TimeNs baseline = -1;
        if (a != kNone)
            baseline = r.anomalies[a].baselineNs;
        else if (sig < r.operators.size())
            baseline = r.operators[sig].baselineNs;
        if (baseline >= 0) {
            html += QStringLiteral("baseline %1 &nbsp; excess %2<br>")
                        .arg(durationText(baseline), durationText(s.dur - baseline));
        }
        if (std::isfinite(score)) {
            html +=
                QStringLiteral("score %1 (threshold %2)").arg(score, 0, 'f', 2).arg(r.settings.coefficient, 0, 'f', 2);
            if (a != kNone) {
                html += QStringLiteral(" &nbsp; <b style='color:#c62828'>flagged</b>, cause: <b>%1</b>")
                            .arg(resourceLabel(r.anomalies.cause(a)));
                if (const std::size_t n = r.anomalies.windowCount(a))
                    html += QStringLiteral(", in %1 contention window(s)").arg(n);
            }
            html += QStringLiteral("<br>");
        } else {
            html += QStringLiteral("<i>not analysed</i><br>");
        }
    }
    // The original args, read from the file on the fetcher's thread.
    m_tooltipSlice = it.slice;
    const QString raw = m_args->cached(it.slice);
    if (raw.isNull()) {
        m_args->request(m_data->trace, it.slice);
        html += QStringLiteral("<i>reading args…</i>");
    } else if (!raw.isEmpty()) {
        html += tooltipArgs(raw);
    }
    return html;
}

void TimelineView::setCriticalPathShown(bool shown) {
    if (shown == m_showCritical) return;
    m_showCritical = shown;
    update();
}

}  // namespace contend::widgets
