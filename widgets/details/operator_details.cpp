#include "widgets/details/operator_details.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include <QEvent>
#include <QUrl>

#include "core/report/single/advice.h"
#include "widgets/common/text.h"
#include "widgets/common/view_colors.h"
#include "widgets/details/stream_context.h"
#include "widgets/timeline/args_fetcher.h"
#include "widgets/timeline/slice_flows.h"

namespace contend::widgets {

OperatorDetails::OperatorDetails(QWidget* parent) : QTextBrowser(parent), m_args(new ArgsFetcher(this)) {
    setOpenLinks(false);
    setMinimumWidth(200);
    connect(m_args, &ArgsFetcher::ready, this, [this](quint32 slice, const QString&) {
        if (slice == m_slice) render();
    });
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QStringLiteral("window")) emit windowLinkActivated(url.path().toUInt());
        if (url.scheme() == QStringLiteral("slice")) emit sliceLinkActivated(url.path().toUInt());
        if (url.scheme() == QStringLiteral("guide")) emit guideLinkActivated(url.path());
    });
    render();
}

void OperatorDetails::changeEvent(QEvent* e) {
    QTextBrowser::changeEvent(e);
    if (e->type() == QEvent::PaletteChange) render();
}

void OperatorDetails::setTrace(TracePtr trace) {
    m_trace = std::move(trace);
    m_report.reset();
    m_slices.reset();
    m_slice = m_window = m_cluster = kNone;
    m_showRange = false;
    m_args->clear();
    render();
}

void OperatorDetails::setReport(std::shared_ptr<const Report> report, SliceViewPtr slices) {
    // A shown window stays shown across a re-threshold: found again by its id (window ids do
    // not move with the thresholds; positions do), dropped when it no longer qualifies.
    if (m_window != kNone) {
        const std::uint32_t id =
            m_report && m_window < m_report->windows.size() ? m_report->windows[m_window].id : kNone;
        m_window = kNone;
        if (report && id != kNone)
            for (std::size_t i = 0; i < report->windows.size(); ++i)
                if (report->windows[i].id == id) {
                    m_window = static_cast<std::uint32_t>(i);
                    break;
                }
    }
    m_report = std::move(report);
    m_slices = std::move(slices);
    render();
}

void OperatorDetails::showSlice(std::uint32_t slice) {
    m_slice = m_trace && slice < m_trace->slices().size() ? slice : kNone;
    m_window = m_cluster = kNone;
    m_showRange = false;
    render();
}

void OperatorDetails::showRange(const RangeMeasure& range) {
    m_slice = m_window = m_cluster = kNone;
    m_range = range;
    m_showRange = range.t1 > range.t0;
    render();
}

void OperatorDetails::showWindow(std::uint32_t w) {
    m_showRange = false;
    m_slice = m_cluster = kNone;
    m_window = w;
    render();
}

void OperatorDetails::showCluster(std::uint32_t c) {
    m_showRange = false;
    m_slice = m_window = kNone;
    m_cluster = c;
    render();
}

OperatorDetails::Shown OperatorDetails::shown() const {
    if (!m_trace) return Shown::Nothing;
    if (m_slice != kNone) return Shown::Operator;
    if (m_showRange) return Shown::Range;
    if (m_report && m_window < m_report->windows.size()) return Shown::Window;
    if (m_report && m_cluster < m_report->clusters.size()) return Shown::Cluster;
    return Shown::Nothing;
}

namespace {
// A row label with a "?" that opens the guide's section saying how the value is decided
// (guideLinkActivated; the main window opens Help > How Contend Decides there).
QString guided(const QString& label, const char* section) {
    return label + QStringLiteral(" <a href='guide:%1' title='%2'>?</a>")
                       .arg(QString::fromLatin1(section), QObject::tr("How this is decided"));
}

QString detailRow(const QString& k, const QString& v) {
    return QStringLiteral("<tr><td style='color:#555;padding-right:8px'>%1</td><td>%2</td></tr>").arg(k, v);
}
}  // namespace

QString predictedGainText(const Report& r, TimeNs gainNs) {
    if (!r.whatIf.computed || gainNs < 0) return QObject::tr("not computed");
    if (gainNs == 0) return QObject::tr("none: its operators had slack (off the critical path)");
    const std::size_t n = std::max<std::size_t>(r.whatIf.iterations, 1);
    const QString iterations = n == 1 ? QObject::tr("1 iteration") : QObject::tr("%1 iterations").arg(n);
    return QObject::tr("%1 per iteration, %2 in total (%3)")
        .arg(durationText(gainNs / static_cast<TimeNs>(n)), durationText(gainNs), iterations);
}

QString OperatorDetails::gainText(TimeNs gainNs) const {
    if (m_gainsPending && gainNs < 0) return tr("computing…");
    return predictedGainText(*m_report, gainNs);
}

QString criticalPathText(const Report& r, const SliceView& slices, std::uint32_t slice) {
    if (!r.whatIf.computed) return {};
    const TimeNs slack = slices.slackOf(slice);
    if (slack < 0) return QObject::tr("not in the dependency graph");
    if (slack == 0) return QObject::tr("<b>on the critical path</b>");
    return QObject::tr("slack %1 (it could end that much later without delaying the run)").arg(durationText(slack));
}

QString OperatorDetails::opsTable(std::vector<std::pair<std::uint32_t, TimeNs>> ops) const {
    const Trace& t = *m_trace;
    std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    QString html = tr("<p style='margin:6px 0 2px 0'><b>%n operator(s)</b>, costliest first</p>", nullptr,
                      static_cast<int>(ops.size()));
    html += QStringLiteral(
                "<table cellspacing='0'><tr style='color:#555'><td>%1</td><td align='right'>&nbsp;%2</td><td "
                "align='right'>&nbsp;%3</td></tr>")
                .arg(tr("operator"), tr("duration"), tr("extra wait"));
    const std::size_t shown = std::min<std::size_t>(ops.size(), 40);
    for (std::size_t i = 0; i < shown; ++i) {
        const std::uint32_t s = ops[i].first;
        if (s >= t.slices().size()) continue;
        html += QStringLiteral(
                    "<tr><td><a href='slice:%1'>%2</a> <span style='color:#777'>%3</span></td><td "
                    "align='right'>&nbsp;%4</td>"
                    "<td align='right'>&nbsp;%5</td></tr>")
                    .arg(s)
                    .arg(shortOperatorName(sliceName(t, s)).toHtmlEscaped(),
                         trackLabel(t, t.slices()[s].track).toHtmlEscaped(), durationText(t.slices()[s].dur),
                         ops[i].second > 0 ? durationText(ops[i].second) : QStringLiteral("–"));
    }
    html += QStringLiteral("</table>");
    if (ops.size() > shown) html += tr("<p style='color:#666'>… and %1 more</p>").arg(ops.size() - shown);
    return html;
}

void OperatorDetails::renderWindow() {
    const Trace& t = *m_trace;
    const ContentionWindow& w = m_report->windows[m_window];
    QString html = tr("<h3 style='margin:2px 0'>Contention window #%1: %2</h3><table cellspacing='0'>")
                       .arg(w.id)
                       .arg(resourceLabel(w.resource));
    html += detailRow(tr("start"), timeText(w.start - t.begin()));
    html += detailRow(tr("duration"), durationText(w.end - w.start));
    html += detailRow(guided(tr("overlap"), "4."), QStringLiteral("%1%").arg(w.overlapRatio * 100, 0, 'f', 0));
    html +=
        detailRow(tr("peak"), w.fromCounters ? QStringLiteral("%1% (counters)").arg(w.peakUtilization * 100, 0, 'f', 0)
                                             : tr("no counter"));
    html += detailRow(guided(tr("known"), "3."), QString::fromLatin1(provenanceName(w.provenance)));
    TimeNs extra = 0;
    std::vector<std::pair<std::uint32_t, TimeNs>> ops;
    for (const WindowOp& op : w.ops) {
        ops.emplace_back(op.slice, op.extraWaitNs);
        extra += op.extraWaitNs;
    }
    html += detailRow(tr("extra wait"), durationText(extra));
    html += detailRow(guided(tr("predicted gain"), "7."), gainText(w.gainNs));
    if (!w.evidence.empty())
        html += detailRow(guided(tr("evidence"), "4."), QString::fromStdString(w.evidence).toHtmlEscaped());
    html += detailRow(tr("what to try"), QString::fromUtf8(adviceFor(w.resource)).toHtmlEscaped());
    html += QStringLiteral("</table>");
    setHtml(themedHtml(html + opsTable(std::move(ops)), palette()));
}

void OperatorDetails::renderCluster() {
    const Trace& t = *m_trace;
    const Cluster& c = m_report->clusters[m_cluster];
    QString html = tr("<h3 style='margin:2px 0'>Sync cluster #%1</h3><table cellspacing='0'>").arg(c.id);
    html += detailRow(tr("track"), trackLabel(t, c.track).toHtmlEscaped());
    html += detailRow(tr("start"), timeText(c.start - t.begin()));
    html += detailRow(tr("duration"), durationText(c.end - c.start));
    html += detailRow(tr("busy"), durationText(c.busyNs));
    html += detailRow(tr("gaps"), durationText(c.waitNs) + tr(" (%1 with a sync call)").arg(c.syncGaps));
    html += detailRow(
        tr("saving on its stream"),
        tr("about %1 (its gaps less the one launch gap a fused operator still pays)").arg(durationText(c.savingNs)));
    html += detailRow(guided(tr("predicted gain, end to end"), "7."), gainText(c.gainNs));
    if (m_report->whatIf.computed && c.gainNs >= 0 && c.gainNs != c.savingNs)
        html += detailRow(QString(), gainVersusSaving(c).toHtmlEscaped());
    html += detailRow(guided(tr("known"), "3."), QString::fromLatin1(provenanceName(c.provenance)));
    if (!c.evidence.empty())
        html += detailRow(guided(tr("evidence"), "5."), QString::fromStdString(c.evidence).toHtmlEscaped());
    html += detailRow(tr("what to try"), QString::fromUtf8(clusterAdvice()).toHtmlEscaped());
    html += QStringLiteral("</table>");
    std::vector<std::pair<std::uint32_t, TimeNs>> ops;
    for (std::uint32_t s = c.firstSlice; s <= c.lastSlice && s < t.slices().size(); ++s)
        if (t.slices()[s].track == c.track) ops.emplace_back(s, 0);
    // Tiny operators have no extra wait of their own: list them in time order.
    std::sort(ops.begin(), ops.end(),
              [&](const auto& a, const auto& b) { return t.slices()[a.first].start < t.slices()[b.first].start; });
    setHtml(themedHtml(html + opsTable(std::move(ops)), palette()));
}

void OperatorDetails::renderRange() {
    const Trace& t = *m_trace;
    const RangeMeasure& m = m_range;
    QString html = tr("<h3 style='margin:2px 0'>Range: %1</h3><table cellspacing='0'>").arg(durationText(m.duration()));
    html += detailRow(tr("from"), timeText(m.t0 - t.begin()));
    html += detailRow(tr("to"), timeText(m.t1 - t.begin()));
    html += QStringLiteral("</table>");
    html += tr("<p style='margin:6px 0 2px 0'><b>Busy per track</b></p><table cellspacing='0'>");
    const double d = static_cast<double>(std::max<TimeNs>(m.duration(), 1));
    for (std::size_t i = 0; i < m.tracks.size() && i < 24; ++i) {
        const TrackBusy& b = m.tracks[i];
        html += QStringLiteral(
                    "<tr><td>%1</td><td align='right'>&nbsp;%2</td><td align='right'>&nbsp;%3%</td><td align='right' "
                    "style='color:#777'>&nbsp;%4 slices</td></tr>")
                    .arg(trackLabel(t, b.track).toHtmlEscaped(), durationText(b.busyNs))
                    .arg(100.0 * static_cast<double>(b.busyNs) / d, 0, 'f', 0)
                    .arg(b.slices);
    }
    html += QStringLiteral("</table>");
    if (m.tracks.empty()) html += tr("<p style='color:#666'>Nothing ran in this range.</p>");
    if (m_report) {
        const Report& r = *m_report;
        html += tr("<p style='margin:6px 0 2px 0'><b>Findings inside</b>: %1 flagged operator(s), %2 window(s), %3 "
                   "cluster(s)</p>")
                    .arg(m.anomalies.size())
                    .arg(m.windows.size())
                    .arg(m.clusters.size());
        for (std::size_t i = 0; i < m.anomalies.size() && i < 12; ++i) {
            const Anomaly& a = r.anomalies[m.anomalies[i]];
            html += QStringLiteral("<a href='slice:%1'>%2</a> score %3, %4<br>")
                        .arg(a.slice)
                        .arg(shortOperatorName(sliceName(t, a.slice)).toHtmlEscaped())
                        .arg(a.score, 0, 'f', 1)
                        .arg(resourceLabel(a.cause));
        }
        QStringList wins;
        for (std::size_t i = 0; i < m.windows.size() && i < 20; ++i) {
            const ContentionWindow& w = r.windows[m.windows[i]];
            wins << QStringLiteral("<a href='window:%1'>#%1 %2</a>").arg(w.id).arg(resourceLabel(w.resource));
        }
        if (!wins.isEmpty()) html += tr("windows: %1<br>").arg(wins.join(QStringLiteral(", ")));
    }
    setHtml(themedHtml(html, palette()));
}

void OperatorDetails::render() {
    switch (shown()) {
    case Shown::Window: renderWindow(); return;
    case Shown::Cluster: renderCluster(); return;
    case Shown::Range: renderRange(); return;
    default: break;
    }
    if (!m_trace || m_slice == kNone) {
        setHtml(themedHtml(tr("<p style='color:#666'><i>No operator selected.</i></p>"), palette()));
        return;
    }
    const Trace& t = *m_trace;
    const Slice& s = t.slices()[m_slice];
    const SliceInfo& info = t.infos()[m_slice];
    auto row = [](const QString& k, const QString& v) {
        return QStringLiteral("<tr><td style='color:#555;padding-right:8px'>%1</td><td>%2</td></tr>").arg(k, v);
    };
    QString html = QStringLiteral("<h3 style='margin:2px 0'>%1</h3><table cellspacing='0'>")
                       .arg(sliceName(t, m_slice).toHtmlEscaped());
    html += row(tr("track"), trackLabel(t, s.track).toHtmlEscaped());
    html += row(tr("start"), timeText(s.start - t.begin()));
    html += row(tr("duration"), durationText(s.dur));
    html += row(
        tr("category"),
        QString::fromUtf8(t.str(s.category).data(), static_cast<qsizetype>(t.str(s.category).size())).toHtmlEscaped());
    if (info.shape) html += row(tr("shape"), QString::fromStdString(std::string(t.str(info.shape))).toHtmlEscaped());
    if (info.waitNs >= 0) html += row(tr("measured wait"), durationText(info.waitNs));
    // Launch flows, each a link that selects the other end.
    const SliceFlows flows = flowsOf(t, m_slice);
    auto links = [&](const std::vector<std::uint32_t>& slices) {
        QStringList out;
        for (std::size_t i = 0; i < slices.size() && i < 8; ++i)
            out << QStringLiteral("<a href='slice:%1'>%2</a> <span style='color:#777'>%3</span>")
                       .arg(slices[i])
                       .arg(shortOperatorName(sliceName(t, slices[i])).toHtmlEscaped(),
                            trackLabel(t, t.slices()[slices[i]].track).toHtmlEscaped());
        if (slices.size() > 8) out << tr("… and %1 more").arg(slices.size() - 8);
        return out.join(QStringLiteral("<br>"));
    };
    if (!flows.launchedBy.empty()) html += row(tr("launched by"), links(flows.launchedBy));
    if (!flows.launches.empty()) html += row(tr("launches"), links(flows.launches));
    if (m_queues)
        if (const auto c = streamContext(t, *m_queues, m_report.get(), m_slice)) {
            html += row(guided(tr("its stream"), "8."), streamIdleText(*c).toHtmlEscaped());
            html += row(guided(tr("queue length"), "8."), queueContextText(*c).toHtmlEscaped());
        }
    if (m_report) {
        const Report& r = *m_report;
        const SliceView& view = m_slices ? *m_slices : SliceView::none();
        const std::uint32_t sig = view.signatureOf(m_slice);
        const float score = view.scoreOf(m_slice);
        const Anomaly* an = nullptr;
        for (std::size_t k = 0; k < r.anomalies.size(); ++k)
            if (r.anomalies.slice(k) == m_slice) an = &r.anomalies[k];
        if (sig < r.operators.size()) {
            const SignatureStats& st = r.operators[sig];
            html += row(tr("signature"), QString::fromStdString(st.signature).toHtmlEscaped());
            html += row(guided(tr("baseline"), "2."),
                        durationText(st.baselineNs) +
                            (st.baselineFromSolo ? tr(" (its runs apart from what slows it)") : QString()));
            html += row(tr("excess"), durationText(s.dur - st.baselineNs));
        }
        if (const QString path = criticalPathText(r, view, m_slice); !path.isEmpty())
            html += row(guided(tr("critical path"), "7."), path);
        if (std::isfinite(score))
            html +=
                row(guided(tr("score"), "2."),
                    QStringLiteral("%1 (threshold %2)").arg(score, 0, 'f', 2).arg(r.settings.coefficient, 0, 'f', 2));
        else
            html += row(tr("score"), tr("not analysed"));
        if (an) {
            html += row(guided(tr("flagged"), "3."),
                        tr("<b style='color:#c62828'>yes</b>, cause <b>%1</b>").arg(resourceLabel(an->cause)));
            html += row(guided(tr("predicted gain (at its baseline)"), "7."), gainText(an->gainNs));
            if (!an->evidence.empty())
                html += row(guided(tr("evidence"), "3."), QString::fromStdString(an->evidence).toHtmlEscaped());
            const Breakdown& b = an->breakdown;
            auto part = [](TimeNs ns, bool measured) {
                return durationText(ns) + (measured ? QObject::tr(" measured") : QObject::tr(" est."));
            };
            html += row(tr("computing"), part(b.computeNs, false));
            html += row(tr("waiting for data"), part(b.dataWaitNs, b.measuredData));
            html += row(tr("queueing"), part(b.queueNs, b.measuredQueue));
            html += row(tr("sync / locks"), part(b.syncNs, b.measuredSync));
            if (!an->windows.empty()) {
                QStringList links;
                for (std::uint32_t w : an->windows) {
                    QString label = QStringLiteral("#%1").arg(w);
                    for (const ContentionWindow& cw : r.windows)
                        if (cw.id == w) label += QStringLiteral(" ") + resourceLabel(cw.resource);
                    links << QStringLiteral("<a href='window:%1'>%2</a>").arg(w).arg(label);
                }
                html += row(guided(tr("windows"), "4."), links.join(QStringLiteral(", ")));
            }
        }
    }
    html += QStringLiteral("</table>");
    const QString raw = m_args->cached(m_slice);
    if (raw.isNull()) {
        m_args->request(m_trace, m_slice);
        html += tr("<p style='color:#666'><i>reading the event's args…</i></p>");
    } else if (!raw.isEmpty()) {
        const auto j = nlohmann::json::parse(raw.toStdString(), nullptr, false);
        QString args = (!j.is_discarded() && j.is_object() && j.contains("args"))
                           ? QString::fromStdString(j["args"].dump(1))
                           : raw;
        if (args.size() > 6000) args = args.left(6000) + QStringLiteral("\n…");
        html += QStringLiteral("<p style='margin:6px 0 0 0'><b>args</b></p><pre style='font-size:9pt'>%1</pre>")
                    .arg(args.toHtmlEscaped());
    }
    setHtml(themedHtml(html, palette()));
}

}  // namespace contend::widgets
