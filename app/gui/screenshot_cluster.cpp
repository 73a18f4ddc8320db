// `contend --screenshot FILE --screenshot-view cluster|cluster-compare [CLUSTER]`: the cluster
// window (or two clusters compared) photographed by the app itself. Without a cluster given, the
// simulator writes the classic case into a temporary folder: 8 ranks, rank 5 contended (and, for
// the compare, the same job with no slow rank), so the picture needs nothing but the build.
#include <cstdio>

#include <QCoreApplication>
#include <QLabel>
#include <QPainter>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <qcustomplot.h>

#include "app/gui/cluster_compare_window.h"
#include "app/gui/cluster_window.h"
#include "app/gui/screenshot.h"
#include "core/sim/cluster_simulation.h"
#include "widgets/cluster/cluster_models.h"
#include "widgets/cluster/rank_breakdowns_view.h"
#include "widgets/cluster/step_heatmap.h"
#include "widgets/tables/table_panel.h"

namespace contend::gui {

namespace {

// A simulated cluster in `dir`: 8 ranks of 24 steps, contention on `slowRank` (-1: none).
QString simulate(const QString& dir, int slowRank) {
    sim::ClusterRequest r;
    r.scenario = slowRank >= 0 ? sim::Scenario::Bandwidth : sim::Scenario::Null;
    r.ranks = 8;
    r.slowRank = slowRank;
    r.seed = 1;
    r.outDir = dir.toStdString();
    const Result<sim::ClusterSummary> s = sim::runClusterSimulation(r);
    if (!s) {
        std::fprintf(stderr, "contend --screenshot: could not simulate a cluster: %s\n", s.failure().message().c_str());
        return {};
    }
    return dir;
}

// The tooltip of a heatmap cell painted onto the picture where hovering shows it (a tooltip is a
// window of its own, so a grab does not hold it).
void paintTooltip(QImage& image, QWidget* window, const widgets::StepHeatmap* map, int row, int column) {
    const QString tip = map->cellTooltip(row, column);
    if (tip.isEmpty()) return;
    QLabel label;
    label.setText(tip);
    label.setTextFormat(Qt::RichText);
    label.setStyleSheet(
        QStringLiteral("QLabel { background: #ffffe1; color: #111; border: 1px solid #888; padding: 4px; }"));
    // Wrapped at a tooltip's width, as Qt wraps a long one, so all of it fits on the picture.
    label.setWordWrap(true);
    label.setFixedWidth(480);
    label.setFixedHeight(label.heightForWidth(480));
    const QPoint cell = map->plot()->mapTo(window, map->cellCentre(row, column));
    QPoint at = cell + QPoint(14, 10);
    at.setX(std::min(at.x(), image.width() - label.width() - 4));
    at.setY(std::min(at.y(), image.height() - label.height() - 4));
    QPainter p(&image);
    label.render(&p, at);
}

int clusterView(const ScreenshotOptions& o, const QString& path) {
    ClusterWindow w;
    w.resize(o.size);
    w.show();
    settle(100);
    bool done = false, ok = false;
    QObject::connect(&w, &ClusterWindow::opened, [&] { done = ok = true; });
    QObject::connect(&w, &ClusterWindow::failed, [&](const QString& m) {
        std::fprintf(stderr, "contend --screenshot: %s\n", qPrintable(m));
        done = true;
    });
    w.open(path);
    if (!waitUntil(done, o.timeoutMs) || !ok) return 3;
    settle(300);
    if (o.view == QStringLiteral("cluster-breakdowns")) {
        // HTA's breakdowns per rank and stream, with each rank's "not computed" reasons.
        w.tabs()->setCurrentWidget(w.breakdowns());
        settle(400);
        const QImage image = w.grab().toImage();
        if (image.isNull() || !writeScreenshotPng(image, o.output)) return 3;
        std::printf("wrote %s (%dx%d) from %s\n", qPrintable(o.output), image.width(), image.height(),
                    qPrintable(path));
        return 0;
    }
    // The worst late collective selected; the tooltip of the slow rank's cell in that step.
    w.tabs()->setCurrentWidget(w.collectivePanel());
    const QModelIndex first = w.collectivePanel()->proxy()->index(0, 0);
    int row = -1, column = -1;
    if (first.isValid()) {
        w.collectivePanel()->view()->setCurrentIndex(first);
        const int k = w.collectiveModel()->collectiveOf(w.collectivePanel()->proxy()->mapToSource(first).row());
        const ClusterCollective& c = w.cluster()->report->collectives[static_cast<std::size_t>(k)];
        row = w.heatmap()->grid().rowOfRank(c.lateRank);
        column = w.heatmap()->grid().columnOfStep(c.iteration);
    }
    settle(400);
    QImage image = w.grab().toImage();
    if (row >= 0 && column >= 0) paintTooltip(image, &w, w.heatmap(), row, column);
    if (image.isNull() || !writeScreenshotPng(image, o.output)) return 3;
    std::printf("wrote %s (%dx%d) from %s\n", qPrintable(o.output), image.width(), image.height(), qPrintable(path));
    return 0;
}

int compareView(const ScreenshotOptions& o, const QString& base, const QString& now) {
    ClusterCompareWindow w;
    w.resize(o.size);
    w.show();
    settle(100);
    bool done = false, ok = false;
    QObject::connect(&w, &ClusterCompareWindow::compared, [&] { done = ok = true; });
    QObject::connect(&w, &ClusterCompareWindow::failed, [&](const QString& m) {
        std::fprintf(stderr, "contend --screenshot: %s\n", qPrintable(m));
        done = true;
    });
    w.open(base, now);
    if (!waitUntil(done, o.timeoutMs) || !ok) return 3;
    settle(400);
    const QImage image = w.grab().toImage();
    if (image.isNull() || !writeScreenshotPng(image, o.output)) return 3;
    std::printf("wrote %s (%dx%d) from %s vs %s\n", qPrintable(o.output), image.width(), image.height(),
                qPrintable(base), qPrintable(now));
    return 0;
}

}  // namespace

int runClusterScreenshot(const ScreenshotOptions& o) {
    QCoreApplication::setApplicationName(QStringLiteral("contend-screenshot"));
    QSettings().clear();
    QTemporaryDir tmp;
    QString base = o.trace;
    if (base.isEmpty()) base = simulate(tmp.filePath(QStringLiteral("slow-rank-5")), 5);
    if (base.isEmpty()) return 3;
    if (o.view == QStringLiteral("cluster") || o.view == QStringLiteral("cluster-breakdowns"))
        return clusterView(o, base);
    QString now = o.compareNew;
    if (now.isEmpty()) now = simulate(tmp.filePath(QStringLiteral("no-slow-rank")), -1);
    if (now.isEmpty()) return 3;
    return compareView(o, base, now);
}

}  // namespace contend::gui
