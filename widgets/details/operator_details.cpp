#include "widgets/details/operator_details.h"

#include <QUrl>
#include <cmath>
#include <nlohmann/json.hpp>

#include "widgets/common/text.h"
#include "widgets/timeline/args_fetcher.h"

namespace contend::widgets {

OperatorDetails::OperatorDetails(QWidget* parent) : QTextBrowser(parent), m_args(new ArgsFetcher(this)) {
    setOpenLinks(false);
    setMinimumWidth(200);
    connect(m_args, &ArgsFetcher::ready, this, [this](quint32 slice, const QString&) {
        if (slice == m_slice) render();
    });
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QStringLiteral("window")) emit windowLinkActivated(url.path().toUInt());
    });
    render();
}

void OperatorDetails::setTrace(TracePtr trace) {
    m_trace = std::move(trace);
    m_report.reset();
    m_slice = kNone;
    m_args->clear();
    render();
}

void OperatorDetails::setReport(std::shared_ptr<const Report> report) {
    m_report = std::move(report);
    render();
}

void OperatorDetails::showSlice(std::uint32_t slice) {
    m_slice = m_trace && slice < m_trace->slices().size() ? slice : kNone;
    render();
}

void OperatorDetails::render() {
    if (!m_trace || m_slice == kNone) {
        setHtml(tr("<p style='color:#666'><i>No operator selected.</i></p>"));
        return;
    }
    const Trace& t = *m_trace;
    const Slice& s = t.slices()[m_slice];
    const SliceInfo& info = t.infos()[m_slice];
    auto row = [](const QString& k, const QString& v) { return QStringLiteral("<tr><td style='color:#555;padding-right:8px'>%1</td><td>%2</td></tr>").arg(k, v); };
    QString html = QStringLiteral("<h3 style='margin:2px 0'>%1</h3><table cellspacing='0'>").arg(sliceName(t, m_slice).toHtmlEscaped());
    html += row(tr("track"), trackLabel(t, s.track).toHtmlEscaped());
    html += row(tr("start"), timeText(s.start - t.begin()));
    html += row(tr("duration"), durationText(s.dur));
    html += row(tr("category"), QString::fromUtf8(t.str(s.category).data(), static_cast<qsizetype>(t.str(s.category).size())).toHtmlEscaped());
    if (info.shape) html += row(tr("shape"), QString::fromStdString(std::string(t.str(info.shape))).toHtmlEscaped());
    if (info.waitNs >= 0) html += row(tr("measured wait"), durationText(info.waitNs));
    if (m_report) {
        const Report& r = *m_report;
        const std::uint32_t sig = m_slice < r.sliceSignature.size() ? r.sliceSignature[m_slice] : kNone;
        const float score = m_slice < r.sliceScore.size() ? r.sliceScore[m_slice] : NAN;
        const Anomaly* an = nullptr;
        for (const Anomaly& a : r.anomalies)
            if (a.slice == m_slice) an = &a;
        if (sig < r.operators.size()) {
            const SignatureStats& st = r.operators[sig];
            html += row(tr("signature"), QString::fromStdString(st.signature).toHtmlEscaped());
            html += row(tr("baseline"), durationText(st.baselineNs) + (st.baselineFromSolo ? tr(" (its runs apart from what slows it)") : QString()));
            html += row(tr("excess"), durationText(s.dur - st.baselineNs));
        }
        if (std::isfinite(score)) html += row(tr("score"), QStringLiteral("%1 (threshold %2)").arg(score, 0, 'f', 2).arg(r.settings.coefficient, 0, 'f', 2));
        else html += row(tr("score"), tr("not analysed"));
        if (an) {
            html += row(tr("flagged"), tr("<b style='color:#c62828'>yes</b>, cause <b>%1</b>").arg(resourceLabel(an->cause)));
            if (!an->evidence.empty()) html += row(tr("evidence"), QString::fromStdString(an->evidence).toHtmlEscaped());
            const Breakdown& b = an->breakdown;
            auto part = [](TimeNs ns, bool measured) { return durationText(ns) + (measured ? QObject::tr(" measured") : QObject::tr(" est.")); };
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
                html += row(tr("windows"), links.join(QStringLiteral(", ")));
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
        QString args = (!j.is_discarded() && j.is_object() && j.contains("args")) ? QString::fromStdString(j["args"].dump(1)) : raw;
        if (args.size() > 6000) args = args.left(6000) + QStringLiteral("\n…");
        html += QStringLiteral("<p style='margin:6px 0 0 0'><b>args</b></p><pre style='font-size:9pt'>%1</pre>").arg(args.toHtmlEscaped());
    }
    setHtml(html);
}

}  // namespace contend::widgets
