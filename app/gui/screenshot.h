#pragma once
// `contend --screenshot FILE [--screenshot-view main|heatmap|breakdown|zoomed|flows|whatif|compare|compare-whatif]
// [TRACE]`: the app
// photographs itself on TRACE (default: the bundled sample) and writes a PNG atomically. Used to
// make the pictures in screenshots/ and the README. The compare view (also chosen by
// `--compare BASE NEW`) photographs the compare window on BASE vs NEW (default: the bundled
// projectx-before vs projectx-after samples); compare-whatif is the same window with its
// "Predicted vs realised" tab in front.
#include <QSize>
#include <QString>

namespace contend::gui {

struct ScreenshotOptions {
    QString output;
    QString view = QStringLiteral("main");
    QString trace;       // empty: the bundled sample
    QString compareNew;  // compare view: the comparison (trace is the baseline)
    QSize size{1600, 1000};
    int timeoutMs = 300000;
};

// The bundled sample (resources/samples/projectx-before.json.gz) next to the executable's
// install or in the source tree; empty if not found.
QString bundledSample();

int runScreenshot(const ScreenshotOptions& options);

}  // namespace contend::gui
