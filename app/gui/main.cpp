// contend: the desktop app. `contend [TRACE]` opens the window (on TRACE when given);
// `contend --bench-render ...` and `contend --screenshot FILE ...` run headless jobs.
#include <cstdio>
#include <string>

#include <QApplication>
#include <QIcon>
#include <QSettings>
#include <QStringList>
#include <QStyle>
#include <QTimer>

#include "app/gui/app_menus.h"
#include "app/gui/bench_open.h"
#include "app/gui/bench_render.h"
#include "app/gui/bench_rethreshold.h"
#include "app/gui/cluster_compare_window.h"
#include "app/gui/cluster_load_thread.h"
#include "app/gui/cluster_window.h"
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "app/gui/screenshot.h"
#include "app/gui/settings_panel.h"
#include "core/common/version.h"
#include "core/io/reader_table.h"
#include "widgets/common/view_colors.h"

namespace {

// The formats and the ranks of a cluster come from the format table (core/io/reader_table.h).
std::string usageText() {
    return "usage: contend [TRACE | CLUSTER.json | DIR]\n"
           "       contend --compare BASE NEW\n"
           "       contend --screenshot FILE [--screenshot-view "
           "main|heatmap|breakdown|zoomed|flows|whatif|patterns|breakdowns|\n"
           "                                  breakdowns-range|tracks|compare|compare-whatif|cluster|\n"
           "                                  cluster-breakdowns|cluster-compare] [--size WxH]\n"
           "                                  [TRACE | CLUSTER.json | DIR]\n"
           "       contend --screenshot FILE [--screenshot-view compare|compare-whatif] --compare BASE NEW\n"
           "       contend --bench-render TRACE | --synthetic N [options]   (see contend --bench-render --help)\n"
           "       contend --bench-rethreshold TRACE [--no-cache]   (see contend --bench-rethreshold --help)\n"
           "       contend --bench-open TRACE   (when the timeline comes and how it answers while the analysis runs)\n"
           "       any of them with --palette system|dark|light\n"
           "       contend --version   (the version and the git commit this build is of)\n"
           "\n"
           "TRACE is a trace file or folder in one of these formats (JSON plain or gzip):\n" +
           contend::formatLines() +
           "--screenshot opens TRACE (default: the bundled sample), waits for the analysis and writes a\n"
           "PNG of the chosen view. --compare opens BASE (the baseline) and NEW side by side\n"
           "and shows what changed, with the thresholds the main window last used (or the defaults,\n"
           "coefficient 3.00 and overlap 0.70); the compare window's title shows them.\n"
           "\n"
           "A cluster report (contend.cluster/1, written by contend-cli merge or cluster) or a folder of\n"
           "several ranks (the folders contend-cli cluster takes, searched three levels deep:\n"
           "  " +
           contend::rankLayoutWords("\n  ") +
           ")\n"
           "opens in the cluster window: ranks x steps heatmap, slow ranks, late collectives;\n"
           "double-click a rank, cell or collective to open that rank's trace.\n"
           "A folder's ranks are analysed two at a time under the memory budget, with progress and\n"
           "Cancel. --compare BASE NEW with two cluster reports (or folders) compares the clusters:\n"
           "per rank step time before and after, slow ranks gone, still slow or new. --screenshot-view\n"
           "cluster photographs the cluster window (default: a simulated 8-rank cluster, rank 5 slow),\n"
           "cluster-breakdowns the same with its Breakdowns (HTA) tab in front, cluster-compare that\n"
           "cluster against a simulated one with no slow rank. breakdowns-range photographs the\n"
           "Breakdowns (HTA) tab over a range measured on the timeline (the middle fifth of TRACE).\n"
           "Colours follow the system's palette (dark when its window colour is dark: QT_QPA_PLATFORMTHEME,\n"
           "the style or -platform decide it), or View > Dark Palette's last choice; --palette dark or light\n"
           "forces Qt's Fusion style with a dark or light palette (screenshots: the system's unless given).\n"
           "\n"
           "A trace that would need more memory than three quarters of what is available stops with a\n"
           "message; CONTEND_MAX_MEMORY=SIZE (\"8G\", \"512M\", 0 for no limit) sets another limit.\n";
}

bool headless(const QStringList& args) {
    return args.contains(QStringLiteral("--bench-render")) || args.contains(QStringLiteral("--bench-rethreshold")) ||
           args.contains(QStringLiteral("--bench-open")) || args.contains(QStringLiteral("--screenshot"));
}

}  // namespace

int main(int argc, char** argv) {
    QStringList args;
    for (int i = 1; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    QString palette = QStringLiteral("system");
    const bool paletteGiven = args.contains(QStringLiteral("--palette"));
    if (const qsizetype at = args.indexOf(QStringLiteral("--palette")); at >= 0) {
        palette = at + 1 < args.size() ? args[at + 1] : QString();
        if (palette != QStringLiteral("system") && palette != QStringLiteral("dark") &&
            palette != QStringLiteral("light")) {
            std::fprintf(stderr, "contend: --palette takes system, dark or light\n\n%s", usageText().c_str());
            return 2;
        }
        args.remove(at, 2);
    }
    if (args.contains(QStringLiteral("--help")) && !args.contains(QStringLiteral("--bench-render")) &&
        !args.contains(QStringLiteral("--bench-rethreshold")) && !args.contains(QStringLiteral("--bench-open"))) {
        std::fputs(usageText().c_str(), stdout);
        return 0;
    }
    if (args.contains(QStringLiteral("--version"))) {
        std::printf("contend %s\n", contend::versionLine().c_str());
        return 0;
    }
    if (!args.isEmpty() && args[0] == QStringLiteral("--compare") && args.size() != 3) {
        std::fputs(usageText().c_str(), stderr);
        return 2;
    }
    // The headless jobs need no display.
    if (headless(args) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Contend"));
    QApplication::setApplicationName(QStringLiteral("contend"));
    QApplication::setApplicationVersion(QString::fromStdString(contend::versionLine()));
    // A PNG: Qt reads it without the SVG plugin (resources/desktop/contend.svg is its source).
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/contend/contend.png")));
    QGuiApplication::setDesktopFileName(QStringLiteral("contend"));
    // --palette dark|light: Fusion with that palette; system leaves Qt's choice. Without the
    // option, what View > Dark Palette last chose (system when never).
    // Screenshots and benchmarks keep the system's look unless told.
    if (!paletteGiven && !headless(args)) palette = contend::gui::savedPalette();
    if (palette != QStringLiteral("system")) contend::gui::applyPalette(palette);

    if (!args.isEmpty() && args[0] == QStringLiteral("--bench-render"))
        return contend::gui::runBenchRender(args.mid(1));
    if (!args.isEmpty() && args[0] == QStringLiteral("--bench-rethreshold"))
        return contend::gui::runBenchRethreshold(args.mid(1));
    if (!args.isEmpty() && args[0] == QStringLiteral("--bench-open")) return contend::gui::runBenchOpen(args.mid(1));
    if (args.contains(QStringLiteral("--screenshot"))) {
        contend::gui::ScreenshotOptions o;
        for (int i = 0; i < args.size(); ++i) {
            const QString& a = args[i];
            auto next = [&]() { return i + 1 < args.size() ? args[++i] : QString(); };
            if (a == QStringLiteral("--screenshot"))
                o.output = next();
            else if (a == QStringLiteral("--screenshot-view"))
                o.view = next();
            else if (a == QStringLiteral("--compare")) {
                o.trace = next();
                o.compareNew = next();
                if (o.view != QStringLiteral("compare-whatif")) o.view = QStringLiteral("compare");
            } else if (a == QStringLiteral("--size")) {
                const QStringList wh = next().split(QLatin1Char('x'));
                if (wh.size() == 2) o.size = QSize(wh[0].toInt(), wh[1].toInt());
            } else if (!a.startsWith(QStringLiteral("--")))
                o.trace = a;
            else {
                std::fprintf(stderr, "contend: unknown option '%s'\n\n%s", qPrintable(a), usageText().c_str());
                return 2;
            }
        }
        if (o.output.isEmpty()) {
            std::fputs(usageText().c_str(), stderr);
            return 2;
        }
        return contend::gui::runScreenshot(o);
    }
    if (!args.isEmpty() && args[0] == QStringLiteral("--compare")) {
        const bool clusterA = contend::gui::isClusterPath(args[1]), clusterB = contend::gui::isClusterPath(args[2]);
        if (clusterA != clusterB) {
            std::fprintf(stderr,
                         "contend --compare: %s is a cluster and %s is not: compare two traces or two clusters\n",
                         qPrintable(clusterA ? args[1] : args[2]), qPrintable(clusterA ? args[2] : args[1]));
            return 2;
        }
        if (clusterA) {
            contend::gui::ClusterCompareWindow compare;
            compare.show();
            const QString base = args[1], now = args[2];
            QTimer::singleShot(0, &compare, [&compare, base, now] { compare.open(base, now); });
            return app.exec();
        }
        contend::gui::CompareWindow compare;
        // One rule for the thresholds: the ones the main window last used (its sliders), or the
        // defaults; the compare window's title says which.
        compare.setThresholds(contend::gui::savedThresholds());
        compare.resize(1600, 1000);
        compare.show();
        const QString base = args[1], now = args[2];
        QTimer::singleShot(0, &compare, [&compare, base, now] { compare.open(base, now); });
        return app.exec();
    }
    for (const QString& a : args) {
        if (a.startsWith(QStringLiteral("--"))) {
            std::fprintf(stderr, "contend: unknown option '%s'\n\n%s", qPrintable(a), usageText().c_str());
            return 2;
        }
    }
    if (!args.isEmpty() && contend::gui::isClusterPath(args.back())) {
        contend::gui::ClusterWindow cluster;
        cluster.show();
        const QString path = args.back();
        QTimer::singleShot(0, &cluster, [&cluster, path] { cluster.open(path); });
        return app.exec();
    }
    contend::gui::MainWindow window;
    window.show();
    if (!args.isEmpty()) {
        const QString path = args.back();
        QTimer::singleShot(0, &window, [&window, path] { window.openPath(path); });
    }
    return app.exec();
}
