#include "app/gui/screenshot.h"

#include <cstdio>

#include <QApplication>
#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <qcustomplot.h>

#include "app/gui/analysis_session.h"
#include "app/gui/cluster_load_thread.h"
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "app/gui/save_file.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/breakdowns/breakdowns_chart.h"
#include "widgets/compare/gain_check_view.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/table_roles.h"
#include "widgets/timeline/slice_flows.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

void settle(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QCoreApplication::sendPostedEvents();
    }
}

bool waitUntil(const bool& done, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (!done && timer.elapsed() < timeoutMs) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return done;
}

namespace {

bool savePng(const QImage& image, const QString& path) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) return false;
    if (const std::optional<Failure> failed = saveFileAtomically(path, bytes.toStdString())) {
        std::fprintf(stderr, "contend --screenshot: %s\n", failed->message().c_str());
        return false;
    }
    return true;
}

int runCompareScreenshot(const ScreenshotOptions& o) {
    const QString base = o.trace.isEmpty() ? bundledSample() : o.trace;
    QString now = o.compareNew;
    if (now.isEmpty() && !base.isEmpty())
        now = QFileInfo(base).dir().filePath(QStringLiteral("projectx-after.json.gz"));
    if (base.isEmpty() || now.isEmpty()) {
        std::fprintf(stderr, "contend --screenshot: compare needs BASE and NEW (--compare BASE NEW)\n");
        return 2;
    }
    QCoreApplication::setApplicationName(QStringLiteral("contend-screenshot"));
    QSettings().clear();

    CompareWindow w;
    w.resize(o.size);
    w.show();
    settle(100);
    bool done = false, ok = false;
    QObject::connect(&w, &CompareWindow::compared, [&] { done = ok = true; });
    QObject::connect(&w, &CompareWindow::failed, [&](const QString& message) {
        std::fprintf(stderr, "contend --screenshot: %s\n", qPrintable(message));
        done = true;
    });
    w.open(base, now);
    waitUntil(done, o.timeoutMs);
    if (!ok) {
        if (!done)
            std::fprintf(stderr, "contend --screenshot: timed out comparing %s and %s\n", qPrintable(base),
                         qPrintable(now));
        return 3;
    }
    settle(300);
    // The worst anomaly of the comparison (first row, sorted by score), shown in both timelines.
    w.tabs()->setCurrentWidget(w.anomalyPanel());
    const QModelIndex first = w.anomalyPanel()->proxy()->index(0, 0);
    if (first.isValid()) {
        w.anomalyPanel()->view()->setCurrentIndex(first);
        w.showRow(widgets::CompareModel::Kind::Anomalies, w.anomalyPanel()->proxy()->mapToSource(first).row());
    }
    // compare-whatif: the predicted vs realised tab in front.
    if (o.view == QStringLiteral("compare-whatif")) w.tabs()->setCurrentWidget(w.gainView());
    settle(400);
    const QImage image = w.grab().toImage();
    if (image.isNull() || !savePng(image, o.output)) {
        std::fprintf(stderr, "contend --screenshot: could not write %s\n", qPrintable(o.output));
        return 3;
    }
    std::printf("wrote %s (%dx%d) from %s vs %s\n", qPrintable(o.output), image.width(), image.height(),
                qPrintable(base), qPrintable(now));
    return 0;
}

}  // namespace

bool writeScreenshotPng(const QImage& image, const QString& path) { return savePng(image, path); }

int runScreenshot(const ScreenshotOptions& o) {
    if (o.view == QStringLiteral("cluster") || o.view == QStringLiteral("cluster-compare") ||
        o.view == QStringLiteral("cluster-breakdowns") ||
        (o.view == QStringLiteral("compare") && !o.trace.isEmpty() && isClusterPath(o.trace)))
        return runClusterScreenshot(o);
    if (o.view == QStringLiteral("compare") || o.view == QStringLiteral("compare-whatif"))
        return runCompareScreenshot(o);
    const QString trace = o.trace.isEmpty() ? bundledSample() : o.trace;
    if (trace.isEmpty()) {
        std::fprintf(stderr, "contend --screenshot: no TRACE given and the bundled sample was not found\n");
        return 2;
    }
    // Pictures must not depend on the user's saved settings or layout.
    QCoreApplication::setApplicationName(QStringLiteral("contend-screenshot"));
    QSettings().clear();

    MainWindow w;
    w.resize(o.size);
    w.show();
    settle(100);
    bool done = false, ok = false;
    QObject::connect(w.session(), &AnalysisSession::opened, [&] { done = ok = true; });
    QObject::connect(w.session(), &AnalysisSession::failed, [&](const QString&, const QString& message) {
        std::fprintf(stderr, "contend --screenshot: %s\n", qPrintable(message));
        done = true;
    });
    w.openPath(trace);
    waitUntil(done, o.timeoutMs);
    if (!ok) {
        if (!done) std::fprintf(stderr, "contend --screenshot: timed out opening %s\n", qPrintable(trace));
        return 3;
    }
    settle(300);
    const ReportPtr report = w.session()->report();
    const OpenedTrace* cur = w.session()->current();
    const quint32 top = report && !report->anomalies.empty() ? report->anomalies.front().slice : kNone;

    QImage image;
    if (o.view == QStringLiteral("heatmap")) {
        widgets::HeatmapView view;
        view.resize(1400, 420);
        view.setTrace(cur->trace);
        view.setPressureSource(pressureSourceOf(cur->prepared));
        view.setReport(report);
        view.show();
        view.setViewRange(cur->trace->begin(), cur->trace->end());
        view.refreshNow();
        settle(300);
        image = view.grab().toImage();
        // With the tooltip of the worst operator's cell, as hovering it shows (a tooltip is a
        // window of its own, so it is painted onto the picture here).
        if (report && !report->anomalies.empty()) {
            const Anomaly& a = report->anomalies.front();
            const widgets::HeatmapGrid& g = view.grid();
            int row = -1;
            for (int r = 0; r < g.rowCount(); ++r)
                if (g.rowResource[static_cast<std::size_t>(r)] == a.cause) row = r;
            const Slice& s = cur->trace->slices()[a.slice];
            const int bin = g.binOf(s.start + s.dur / 2);
            const QString tip = view.cellTooltip(row, bin);
            if (!tip.isEmpty()) {
                QLabel label;
                label.setText(tip);
                label.setTextFormat(Qt::RichText);
                label.setStyleSheet(QStringLiteral(
                    "QLabel { background: #ffffe1; color: #111; border: 1px solid #888; padding: 4px; }"));
                label.adjustSize();
                const double ms = static_cast<double>(s.start + s.dur / 2 - cur->trace->begin()) / 1e6;
                const QPoint cell = view.plot()->mapTo(
                    &view, QPoint(static_cast<int>(view.plot()->xAxis->coordToPixel(ms)),
                                  static_cast<int>(view.plot()->yAxis->coordToPixel(g.rowCount() - 1 - row))));
                QPoint at = cell + QPoint(14, 10);
                at.setX(std::min(at.x(), image.width() - label.width() - 4));
                at.setY(std::min(at.y(), image.height() - label.height() - 4));
                QPainter p(&image);
                label.render(&p, at);
            }
        }
    } else if (o.view == QStringLiteral("breakdown")) {
        widgets::BreakdownView view;
        view.resize(1300, 440);
        view.setTrace(cur->trace);
        view.setReport(report, cur->sliceView());
        view.showSlice(top);
        view.show();
        settle(300);
        image = view.grab().toImage();
    } else {
        if (top != kNone) w.selectSlice(top, false);
        if (QDockWidget* d = w.dock(QStringLiteral("dock.flagged"))) d->raise();
        if (o.view == QStringLiteral("zoomed") && report) {
            // The contention window of the worst operator, or the operator itself.
            const Anomaly& a = report->anomalies.front();
            qint64 t0 = cur->trace->slices()[a.slice].start, t1 = cur->trace->slices()[a.slice].end();
            int window = -1;
            for (std::size_t i = 0; i < report->windows.size(); ++i) {
                const ContentionWindow& cw = report->windows[i];
                if (!a.windows.empty() && cw.id == a.windows.front()) {
                    t0 = std::min<qint64>(t0, cw.start), t1 = std::max<qint64>(t1, cw.end);
                    window = static_cast<int>(i);
                }
            }
            // The drill-down: the window's operators and their costs in Details and Breakdown.
            if (window >= 0) {
                w.windowPanel()->selectSourceRow(window);
                w.showWindow(static_cast<quint32>(window));
                if (QDockWidget* d = w.dock(QStringLiteral("dock.windows"))) d->raise();
            }
            w.timeline()->zoomTo(t0, t1, 0.6);
        } else if (o.view == QStringLiteral("flows") && top != kNone) {
            // The worst operator's launch flows: from the host call that launched it.
            const widgets::SliceFlows f = widgets::flowsOf(*cur->trace, top);
            qint64 t0 = cur->trace->slices()[top].start, t1 = cur->trace->slices()[top].end();
            for (std::uint32_t s : f.launchedBy) {
                t0 = std::min<qint64>(t0, cur->trace->slices()[s].start);
                w.timeline()->setHostExpanded(cur->trace->slices()[s].track, true);
            }
            w.timeline()->zoomTo(t0, t1, 0.3);
        } else if (o.view == QStringLiteral("whatif") && report) {
            // The what-if: the windows ranked by predicted gain with the first one in Details,
            // and the critical path (View ▸ Critical Path, on by default) over one iteration
            // (the one holding that window, else the second: the first often warms up).
            w.criticalPathAction()->setChecked(true);
            if (QDockWidget* d = w.dock(QStringLiteral("dock.windows"))) d->raise();
            const QModelIndex first = w.windowPanel()->proxy()->index(0, 0);
            TimeNs at = -1;
            if (first.isValid()) {
                const int row = w.windowPanel()->proxy()->mapToSource(first).row();
                w.windowPanel()->selectSourceRow(row);
                w.showWindow(static_cast<quint32>(row));
                at = report->windows[static_cast<std::size_t>(row)].start;
            }
            const auto& its = report->iterations;
            if (!its.empty()) {
                std::size_t pick = its.size() >= 3 ? 1 : 0;
                for (std::size_t i = 0; i < its.size(); ++i)
                    if (its[i].start <= at && at < its[i].end) pick = i;
                w.timeline()->zoomTo(its[pick].start, its[pick].end, 0.05);
            }
        } else if (o.view == QStringLiteral("patterns") && report) {
            // The contention patterns by cost, the costliest selected: its costliest run on the
            // timeline and in Details, its runs marked on the timeline (30% of the trace around
            // the costliest: the runs wide enough are outlined, the rest ticked), its runs beside
            // against its runs apart in Breakdown.
            if (QDockWidget* d = w.dock(QStringLiteral("dock.patterns"))) d->raise();
            const QModelIndex first = w.patternPanel()->proxy()->index(0, 0);
            if (first.isValid()) {
                const int row = w.patternPanel()->proxy()->mapToSource(first).row();
                w.patternPanel()->selectSourceRow(row);
                w.showPattern(static_cast<quint32>(row));
                const quint32 slice = first.data(widgets::SliceRole).toUInt();
                if (cur && slice < cur->trace->slices().size()) {
                    const TimeNs at = cur->trace->slices()[slice].start, half = cur->trace->span() * 3 / 20;
                    w.timeline()->zoomTo(at - half, at + half, 0.0);
                }
            }
        } else if (o.view == QStringLiteral("tracks") && cur) {
            // Tracks under the user's control: the first host thread pinned to the top, the
            // second device stream hidden (the ruler's corner counts it), the critical path on.
            widgets::TimelineView* tl = w.timeline();
            std::uint32_t host = kNone;
            std::vector<std::uint32_t> streams;
            for (std::uint32_t t : cur->trace->trackOrder()) {
                if (tl->layout().trackSpan(t).first < 0) continue;
                if (cur->trace->tracks()[t].kind == TrackKind::DeviceStream) streams.push_back(t);
                if (cur->trace->tracks()[t].kind == TrackKind::HostThread && host == kNone) host = t;
            }
            if (host != kNone) tl->setTrackPinned(host, true);
            if (streams.size() >= 2) tl->setTrackHidden(streams[1], true);
            w.criticalPathAction()->setChecked(true);
        } else if (o.view == QStringLiteral("breakdowns") && report) {
            // HTA's breakdowns of the report: temporal and idle stacked, bandwidth per copy kind.
            if (QDockWidget* d = w.dock(QStringLiteral("dock.breakdowns"))) d->raise();
        } else if (o.view == QStringLiteral("breakdowns-range") && report && top != kNone) {
            // The same over a range measured on the timeline (the middle fifth of the trace,
            // computed off the GUI thread), the worst operator's rank and stream marked in the
            // tab's rows.
            if (QDockWidget* d = w.dock(QStringLiteral("dock.breakdowns"))) d->raise();
            const TimeNs at = cur->trace->begin() + cur->trace->span() / 2, half = cur->trace->span() / 10;
            w.timeline()->setMeasuredRange(at - half, at + half);
            QElapsedTimer wait;
            wait.start();
            while (w.breakdownsChart()->rangePending() && wait.elapsed() < 30000) settle(50);
        } else if (o.view != QStringLiteral("main")) {
            std::fprintf(stderr,
                         "contend --screenshot: unknown view '%s' (main, heatmap, breakdown, zoomed, flows, whatif, "
                         "patterns, breakdowns, breakdowns-range, tracks, compare, compare-whatif, cluster, "
                         "cluster-breakdowns, cluster-compare)\n",
                         qPrintable(o.view));
            return 2;
        }
        settle(400);
        image = w.grab().toImage();
    }
    if (image.isNull() || !savePng(image, o.output)) {
        std::fprintf(stderr, "contend --screenshot: could not write %s\n", qPrintable(o.output));
        return 3;
    }
    std::printf("wrote %s (%dx%d) from %s\n", qPrintable(o.output), image.width(), image.height(), qPrintable(trace));
    return 0;
}

}  // namespace contend::gui
