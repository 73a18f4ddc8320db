#pragma once
// `contend --screenshot FILE [--screenshot-view V] [TRACE]` for V in main, heatmap, breakdown, zoomed,
// flows, whatif, patterns, breakdowns, breakdowns-range, tracks, compare, compare-whatif, cluster,
// cluster-breakdowns, cluster-compare: the app photographs itself on TRACE
// (default: the bundled sample) and writes a PNG atomically. Used to make the pictures in
// screenshots/ and the README. The compare view (also chosen by `--compare BASE NEW`) photographs
// the compare window on BASE vs NEW (default: the bundled projectx-before vs projectx-after
// samples); compare-whatif is the same window with its "Predicted vs realised" tab in front. The
// cluster views photograph the cluster window (default: a simulated 8-rank cluster).
#include <QImage>
#include <QSize>
#include <QString>

#include "app/gui/bundled_sample.h"

namespace contend::gui {

struct ScreenshotOptions {
    QString output;
    QString view = QStringLiteral("main");
    QString trace;       // empty: the bundled sample
    QString compareNew;  // compare view: the comparison (trace is the baseline)
    QSize size{1600, 1000};
    int timeoutMs = 300000;
};

int runScreenshot(const ScreenshotOptions& options);

// The cluster views (screenshot_cluster.cpp): "cluster" photographs the cluster window on
// options.trace (a cluster report or folder; default: a simulated 8-rank cluster with rank 5
// slow), "cluster-breakdowns" the same with its Breakdowns (HTA) tab in front, "cluster-compare" that against options.compareNew (default: a simulated cluster with no
// slow rank).
int runClusterScreenshot(const ScreenshotOptions& options);
// Writes a screenshot PNG atomically; false (said on stderr) when it cannot.
bool writeScreenshotPng(const QImage& image, const QString& path);
// Shared by the screenshot views: let queued work (replots, timers, worker results) run for `ms`;
// and wait (events running) until `done` is set or `timeoutMs` passed, returning `done`.
void settle(int ms);
bool waitUntil(const bool& done, int timeoutMs);

}  // namespace contend::gui
