#include "app/gui/bench_rethreshold.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>
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
#include "core/analysis/whatif/whatif.h"

namespace contend::gui {

namespace {

const char* kUsage =
    "usage: contend --bench-rethreshold TRACE [--no-cache] [--repeat N] [--window]\n"
    "  opens TRACE as the app does, then re-thresholds it step by step as a dragged slider:\n"
    "  coefficient 3.0 -> 2.0 -> 3.0 by 0.1, then overlap 0.70 -> 0.50 -> 0.70 by 0.05 (N times,\n"
    "  default 1), and prints each step's time (request to report), build and what-if ms\n"
    "  --no-cache   the what-if from scratch on every step (no replays kept between reports)\n"
    "  --window     through a main window (offscreen, 1600x1000, default settings): the times\n"
    "               then include the views taking each report (tables, heatmap, timeline)\n";

// Runs the event loop until `done` or the timeout (ms); returns done(). Sleeps between events
// as the app's own loop does: processEvents with a time limit drops WaitForMoreEvents and
// returns at once when nothing is pending, so a loop of it kept the GUI thread spinning on one
// of the two cores the report worker and the views need. A 50 ms timer wakes it for the timeout.
template <typename F>
bool waitUntil(F done, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    QTimer wake;
    wake.start(50);
    while (!done() && t.elapsed() < timeoutMs) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    return done();
}

}  // namespace

int runBenchRethreshold(const QStringList& args) {
    QString path;
    bool cache = true;
    bool withWindow = false;
    int repeat = 1;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == QStringLiteral("--help")) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (a == QStringLiteral("--no-cache"))
            cache = false;
        else if (a == QStringLiteral("--window"))
            withWindow = true;
        else if (a == QStringLiteral("--repeat") && i + 1 < args.size())
            repeat = std::max(1, args[++i].toInt());
        else if (!a.startsWith(QStringLiteral("--")) && path.isEmpty())
            path = a;
        else {
            std::fprintf(stderr, "contend --bench-rethreshold: unknown option '%s'\n\n%s", qPrintable(a), kUsage);
            return 2;
        }
    }
    if (path.isEmpty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    // With --window the session is a main window's (its views are told each report before the
    // bench's own slot: they were connected first), with settings of its own (the defaults).
    QTemporaryDir settingsDir;
    std::unique_ptr<MainWindow> window;
    std::unique_ptr<AnalysisSession> own;
    if (withWindow) {
        useSettingsIn(settingsDir.path());
        window = std::make_unique<MainWindow>();
        window->resize(1600, 1000);
        window->show();
    } else {
        own = std::make_unique<AnalysisSession>();
    }
    AnalysisSession& session = window ? *window->session() : *own;
    session.setWhatIfCacheEnabled(cache);
    bool opened = false, failed = false;
    QObject::connect(&session, &AnalysisSession::opened, [&] { opened = true; });
    QObject::connect(&session, &AnalysisSession::failed, [&](const QString&, const QString& message) {
        std::fprintf(stderr, "contend --bench-rethreshold: %s\n", qPrintable(message));
        failed = true;
    });
    QElapsedTimer openTimer;
    openTimer.start();
    session.open(QFileInfo(path).absoluteFilePath(), Thresholds{});
    if (!waitUntil([&] { return opened || failed; }, 3600 * 1000) || failed) return 3;
    if (!session.report()) {
        std::fprintf(stderr, "contend --bench-rethreshold: no analysis: %s\n",
                     qPrintable(session.current()->analysisError));
        return 3;
    }
    std::printf("opened %s in %.1f s (load %.1f s, analysis and first report %.1f s): %zu anomalies, %zu windows\n",
                qPrintable(path), static_cast<double>(openTimer.elapsed()) / 1e3, session.current()->loadSeconds,
                session.current()->analysisSeconds, session.report()->anomalies.size(),
                session.report()->windows.size());

    // From the defaults (3.0, 0.70) down and back, as the usage says.
    const Thresholds d;
    std::vector<std::pair<double, double>> steps;
    for (int r = 0; r < repeat; ++r) {
        for (int i = 29; i >= 20; --i) steps.emplace_back(i / 10.0, d.overlapRatio);
        for (int i = 21; i <= 30; ++i) steps.emplace_back(i / 10.0, d.overlapRatio);
        for (int i = 13; i >= 10; --i) steps.emplace_back(d.coefficient, i * 0.05);
        for (int i = 11; i <= 14; ++i) steps.emplace_back(d.coefficient, i * 0.05);
    }
    ReportPtr last = session.report();
    // Each step: the findings first (the tables show them at once), then the gains.
    QElapsedTimer t;
    double findingsMs = -1;
    QObject::connect(&session, &AnalysisSession::reportChanged, [&](const ReportPtr& r) {
        last = r;
        if (findingsMs < 0) findingsMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
    });
    std::vector<double> walls, findings, builds, whatIfs;
    for (const auto& [k, ratio] : steps) {
        findingsMs = -1;
        t.start();
        session.setThresholds({k, ratio});
        if (!waitUntil([&] { return session.reportCurrent() && !session.rethresholding(); }, 600 * 1000)) {
            std::fprintf(stderr, "contend --bench-rethreshold: no report at coefficient %.2f overlap %.2f\n", k, ratio);
            return 3;
        }
        const double wall = static_cast<double>(t.nsecsElapsed()) / 1e6;
        walls.push_back(wall);
        findings.push_back(findingsMs);
        builds.push_back(session.lastBuildMs());
        whatIfs.push_back(session.lastWhatIfMs());
        const WhatIfCache* c = session.whatIfCache();
        std::printf(
            "coefficient %.2f overlap %.2f: findings %6.1f ms (built in %.1f ms), gains %8.1f ms (build %.1f ms, "
            "what-if %.1f ms) %zu anomalies, %zu windows, %zu replayed%s\n",
            k, ratio, findingsMs, session.lastFindingsBuildMs(), wall, session.lastBuildMs(), session.lastWhatIfMs(),
            last->anomalies.size(), last->windows.size(), last->whatIf.replayed,
            c ? qPrintable(QStringLiteral(" (cache: %1 hits, %2 misses so far)").arg(c->hits()).arg(c->misses())) : "");
    }
    std::printf(
        "steps=%zu cache=%s window=%s findings_median_ms=%.1f findings_max_ms=%.1f rethreshold_median_ms=%.1f "
        "rethreshold_max_ms=%.1f whatif_median_ms=%.1f whatif_max_ms=%.1f\n",
        steps.size(), cache ? "on" : "off", withWindow ? "yes" : "no", benchMedian(findings),
        *std::max_element(findings.begin(), findings.end()), benchMedian(walls),
        *std::max_element(walls.begin(), walls.end()), benchMedian(whatIfs),
        *std::max_element(whatIfs.begin(), whatIfs.end()));
    return 0;
}

}  // namespace contend::gui
