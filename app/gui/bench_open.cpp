#include "app/gui/bench_open.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTimer>

#include "app/gui/analysis_session.h"
#include "app/gui/bench_support.h"
#include "app/gui/main_window.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::gui {

namespace {

const char* kUsage =
    "usage: contend --bench-open TRACE [--size WxH]\n"
    "  opens TRACE in a main window (offscreen, default 1600x1000) and prints when its timeline\n"
    "  came (the preview: read and indexed), the loader's read time, when the analysis was in,\n"
    "  and the timeline's repaint times while the analysis ran (zoomed and panned every 100 ms)\n";

}  // namespace

int runBenchOpen(const QStringList& args) {
    QString path;
    QSize size(1600, 1000);
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == QStringLiteral("--help")) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (a == QStringLiteral("--size") && i + 1 < args.size()) {
            const QStringList wh = args[++i].split(QLatin1Char('x'));
            if (wh.size() == 2) size = QSize(wh[0].toInt(), wh[1].toInt());
        } else if (!a.startsWith(QStringLiteral("--")) && path.isEmpty()) {
            path = a;
        } else {
            std::fprintf(stderr, "contend --bench-open: unknown option '%s'\n\n%s", qPrintable(a), kUsage);
            return 2;
        }
    }
    if (path.isEmpty() || !size.isValid()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    // The defaults, not the user's saved thresholds, tracks or layout: a settings folder of its own.
    QTemporaryDir settingsDir;
    useSettingsIn(settingsDir.path());
    MainWindow w;
    w.resize(size);
    w.show();
    QElapsedTimer clock;
    double previewS = -1, openS = -1;
    bool failed = false;
    QObject::connect(w.session(), &AnalysisSession::previewed, &w,
                     [&] { previewS = static_cast<double>(clock.nsecsElapsed()) / 1e9; });
    QObject::connect(w.session(), &AnalysisSession::opened, &w,
                     [&] { openS = static_cast<double>(clock.nsecsElapsed()) / 1e9; });
    QObject::connect(w.session(), &AnalysisSession::failed, &w, [&](const QString&, const QString& message) {
        std::fprintf(stderr, "contend --bench-open: %s\n", qPrintable(message));
        failed = true;
    });
    // The event loop's lateness: a 10 ms timer's worst delay while the analysis runs.
    double lateMax = 0;
    QElapsedTimer tick;
    QTimer loop;
    loop.setInterval(10);
    QObject::connect(&loop, &QTimer::timeout, &w, [&] {
        if (previewS >= 0 && openS < 0)
            lateMax = std::max(lateMax, static_cast<double>(tick.nsecsElapsed()) / 1e6 - 10);
        tick.restart();
    });
    clock.start();
    tick.start();
    loop.start();
    w.openPath(QFileInfo(path).absoluteFilePath());
    std::vector<double> frames;
    QElapsedTimer sinceFrame;
    sinceFrame.start();
    int step = 0;
    while (openS < 0 && !failed && clock.elapsed() < 3600 * 1000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        if (previewS < 0 || sinceFrame.elapsed() < 100) continue;
        // As a user would: zoom into a part of the trace, pan, zoom out again.
        const widgets::TimelineData* data = w.timeline()->data();
        if (!data || !data->trace) continue;
        const Trace& t = *data->trace;
        const TimeNs span = std::max<TimeNs>(1, t.span());
        const int k = step++ % 8;
        const TimeNs width = k == 7 ? span : span / (2 << (k % 4));
        const TimeNs start = t.begin() + (span - width) * (k % 3) / 2;
        QElapsedTimer f;
        f.start();
        w.timeline()->zoomTo(start, start + width, 0.0);
        w.timeline()->repaint();
        frames.push_back(static_cast<double>(f.nsecsElapsed()) / 1e6);
        sinceFrame.restart();
    }
    loop.stop();
    if (failed || openS < 0 || previewS < 0) {
        if (!failed) std::fprintf(stderr, "contend --bench-open: %s did not open\n", qPrintable(path));
        return 3;
    }
    const OpenedTrace* cur = w.session()->current();
    const double loadS = cur->loadSeconds;
    std::printf(
        "%s: %lld operators; timeline after %.2f s (the loader read it in %.2f s), analysis in after %.2f s%s\n",
        qPrintable(path), static_cast<long long>(cur->trace->operatorCount()), previewS, loadS, openS,
        cur->analysisError.isEmpty() ? "" : qPrintable(QStringLiteral(" (") + cur->analysisError + ")"));
    std::printf(
        "preview_s=%.2f load_s=%.2f preview_over_load=%.2f open_s=%.2f frames=%zu frame_median_ms=%.1f "
        "frame_max_ms=%.1f loop_late_max_ms=%.1f\n",
        previewS, loadS, loadS > 0 ? previewS / loadS : 0, openS, frames.size(), benchMedian(frames),
        frames.empty() ? 0 : *std::max_element(frames.begin(), frames.end()), lateMax);
    return 0;
}

}  // namespace contend::gui
