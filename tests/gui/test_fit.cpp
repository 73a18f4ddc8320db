// The app at the sizes users have: the main window fits a 1280x800 screen (with room for a
// panel or task bar), text panes wrap to their width instead of cutting lines at the edge, dock
// tabs show their titles whole, the compare chart's names do not run together, and the keys at
// the right edge of the timeline's ruler and the cluster heatmap keep a margin.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QDockWidget>
#include <QHelpEvent>
#include <QScrollBar>
#include <QStyle>
#include <QTabBar>
#include <QTextBrowser>
#include <QToolTip>
#include <qcustomplot.h>

#include "app/gui/dock_tab_tips.h"
#include "app/gui/main_window.h"
#include "app/gui/settings_panel.h"
#include "gui_support.h"
#include "widgets/cluster/step_heatmap.h"
#include "widgets/common/text.h"
#include "widgets/compare/shift_chart.h"
#include "widgets/timeline/timeline_painter.h"

using namespace contend;
using contend::gui::MainWindow;
using contend::gui::SettingsPanel;
using contend::test::pump;
using contend::widgets::ShiftChart;

TEST_CASE("the main window fits a 1280x800 screen", "[fit][app]") {
    contend::test::FreshSettings fresh;
    MainWindow w;
    const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
    INFO("minimum size " << min.width() << "x" << min.height());
    // 800 px less a task bar and the title bar (about 60 px on common desktops).
    CHECK(min.width() <= 1280);
    CHECK(min.height() <= 740);
    // At that size every dock keeps its readable minimum.
    w.resize(1280, 740);
    w.show();
    pump(50);
    CHECK(w.height() <= 740);
    CHECK(w.layoutUsable());
}

TEST_CASE("the summary wraps to the panel's width, long words included", "[fit][app]") {
    SettingsPanel p;
    p.resize(240, 400);
    p.show();
    const QString word =
        QStringLiteral("Memcpy_DtoD_(Device_->_Device)_[bytes=16384,_grid=[54,_1,_1],_block=[128,_1,_1]]");
    p.setSummary(QStringLiteral("<b>5</b> flagged operators, <b>0</b> contention windows. Extra wait 5.18 us in "
                                "flagged operators (0.0% of 1.926 s operator time).<br>&nbsp;&nbsp;sync: 12.5 us "
                                "(12.5 us per iteration) of its 142 us extra wait<br>") +
                 word);
    pump(30);
    QTextBrowser* view = p.summaryView();
    // Nothing wider than what shows: the text is laid out to the viewport, and there is no
    // sideways scrolling to reach a cut line.
    CHECK(view->document()->documentLayout()->documentSize().width() <= view->viewport()->width() + 1);
    CHECK(view->horizontalScrollBar()->maximum() == 0);
    CHECK(view->toPlainText().contains(word));
}

TEST_CASE("at 1280x800 every dock tab's title shows whole, its full name as the tooltip", "[fit][app]") {
    contend::test::SampleWindow sample(QSize(1280, 740));
    MainWindow& w = sample.window;
    pump(50);
    int tabs = 0;
    for (QTabBar* bar : w.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (!bar->isVisible()) continue;
        const QFontMetrics fm(bar->font());
        const int padding = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
        for (int i = 0; i < bar->count(); ++i, ++tabs) {
            const QString text = bar->tabText(i);
            const QRect rect = bar->tabRect(i);
            INFO(text.toStdString() << ": tab " << rect.width() << " px, text " << fm.horizontalAdvance(text)
                                    << " px, bar " << bar->width() << " px");
            // The words and the style's padding in the tab (an elided tab is narrower), and the
            // tab inside its bar (not scrolled out of sight).
            CHECK(fm.horizontalAdvance(text) + padding <= rect.width());
            CHECK(bar->rect().contains(rect));
            CHECK(w.rect().contains(QRect(bar->mapTo(&w, rect.topLeft()), rect.size())));
            CHECK_FALSE(w.dockTabs()->tipFor(bar, i).isEmpty());
        }
    }
    CHECK(tabs >= 6);  // the bottom dock's tables and charts
    // The short titles' tooltips and the View menu name the docks in full.
    QTabBar* bottom = nullptr;
    int flagged = -1;
    for (QTabBar* bar : w.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly))
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == QStringLiteral("Flagged")) bottom = bar, flagged = i;
    REQUIRE(bottom);
    CHECK(w.dockTabs()->tipFor(bottom, flagged) == QStringLiteral("Flagged operators"));
    QHelpEvent help(QEvent::ToolTip, bottom->tabRect(flagged).center(),
                    bottom->mapToGlobal(bottom->tabRect(flagged).center()));
    QCoreApplication::sendEvent(bottom, &help);
    CHECK(QToolTip::text() == QStringLiteral("Flagged operators"));
    QToolTip::hideText();
    CHECK(w.dock(QStringLiteral("dock.breakdowns"))->toggleViewAction()->text() == QStringLiteral("Breakdowns (HTA)"));
}

TEST_CASE("the shift chart's resource names never run together", "[fit][compare]") {
    // Every resource with extra wait: eight names under the bars.
    CompareResult r;
    for (std::size_t i = 0; i < kResourceCount; ++i) {
        r.baseByResource[i] = static_cast<TimeNs>(1'000'000 * (i + 1));
        r.newByResource[i] = static_cast<TimeNs>(800'000 * (i + 1));
    }
    ShiftChart chart;
    chart.setResult(r);
    REQUIRE(chart.resources().size() >= 7);
    // From a compare window at 1280x800 (the chart gets about 500 px) down to a narrow pane.
    for (int width : {900, 500, 380, 260, 160}) {
        chart.resize(width, 320);
        chart.show();
        for (int i = 0; i < 3; ++i) {  // the fit can take a second layout
            chart.plot()->replot();
            pump(10);
        }
        QCPAxis* x = chart.plot()->xAxis;
        const QFontMetrics fm(x->tickLabelFont());
        const double angle = std::abs(x->tickLabelRotation()) * 3.14159265358979 / 180.0;
        const auto ticks = qSharedPointerCast<QCPAxisTickerText>(x->ticker())->ticks();
        struct Label {
            double x;
            int w;
        };
        std::vector<Label> labels;
        for (auto it = ticks.begin(); it != ticks.end(); ++it)
            if (!it.value().isEmpty()) labels.push_back({x->coordToPixel(it.key()), fm.horizontalAdvance(it.value())});
        INFO("width " << width << ": rotation " << x->tickLabelRotation() << ", " << labels.size() << " names");
        CHECK(labels.size() >= 2);
        for (std::size_t i = 1; i < labels.size(); ++i) {
            const double dx = labels[i].x - labels[i - 1].x;
            if (angle == 0)  // side by side: the two half-widths fit between the ticks
                CHECK(dx >= (labels[i].w + labels[i - 1].w) / 2.0 + 2);
            else  // turned: parallel lines at least a line apart
                CHECK(dx * std::sin(angle) >= fm.height());
        }
        // The legend stands above the bars, inside the plot, never on a bar or the axis.
        const QRect legend = chart.plot()->legend->outerRect();
        CHECK_FALSE(legend.intersects(chart.plot()->axisRect()->rect()));
        CHECK(legend.bottom() < chart.plot()->axisRect()->top());
        CHECK(legend.left() >= 0);
        CHECK(legend.right() <= chart.plot()->width());
        // Every bar pair is named on hover, those without a name under it too.
        for (std::size_t k = 0; k < chart.resources().size(); ++k)
            CHECK(chart.resourceTip(static_cast<double>(k + 1)).contains(widgets::resourceLabel(chart.resources()[k])));
    }
    // Wide enough: the names stand upright, all of them.
    chart.resize(1200, 320);
    for (int i = 0; i < 3; ++i) {
        chart.plot()->replot();
        pump(10);
    }
    CHECK(chart.labelFit().rotation == 0);
    CHECK(chart.labelFit().step == 1);
    CHECK(widgets::fitTickLabels(100, 60, 14).rotation == 0);
    CHECK(widgets::fitTickLabels(40, 60, 14).rotation == -45);
    CHECK(widgets::fitTickLabels(21, 60, 14).rotation == -90);
    CHECK(widgets::fitTickLabels(10, 60, 14).step == 2);
}

TEST_CASE("the ruler's critical-path key keeps a margin and is never cut", "[fit][paint]") {
    widgets::TimelineFrame f;
    f.criticalLegend = true;
    QFont small;
    small.setPixelSize(10);
    const int words = QFontMetrics(small).horizontalAdvance(QStringLiteral("critical path"));
    for (int width = 0; width <= 2400; width += 7) {
        f.ruler = QRect(210, 0, width, 24);
        const QRect key = widgets::criticalLegendRect(f, QFont());
        INFO("ruler " << width << " px: key " << key.left() << ".." << key.right());
        if (key.isEmpty()) {
            CHECK(width < 600);  // only a short ruler leaves it out
            continue;
        }
        CHECK(f.ruler.adjusted(0, 0, -widgets::kRulerKeyMarginPx, 0).contains(key));
        CHECK(key.width() >= 24 + words + 4);  // the swatch, the words and room after them
    }
}

TEST_CASE("the cluster heatmap's colour-bar title fits along the bar", "[fit][cluster]") {
    widgets::StepHeatmap map;
    map.show();
    QCPColorScale* scale = nullptr;
    for (int i = 0; i < map.plot()->plotLayout()->elementCount() && !scale; ++i)
        scale = qobject_cast<QCPColorScale*>(map.plot()->plotLayout()->elementAt(i));
    REQUIRE(scale);
    const QFontMetrics fm(scale->axis()->labelFont());
    QString tallest;
    // From a short pane (a 2-rank capture's few rows) to a tall one.
    for (int height : {90, 140, 200, 300, 700}) {
        map.resize(600, height);
        for (int i = 0; i < 3; ++i) {  // the fit can take a second layout
            map.plot()->replot();
            pump(10);
        }
        INFO("height " << height << ": bar " << scale->rect().height() << " px, title '" << scale->label().toStdString()
                       << "'");
        CHECK_FALSE(scale->label().isEmpty());
        CHECK(fm.horizontalAdvance(scale->label()) <= scale->rect().height());
        tallest = scale->label();
    }
    // Tall enough: the whole title.
    CHECK(tallest.contains(QStringLiteral("the step's median")));
}

TEST_CASE("the cluster heatmap's colour-bar title keeps clear of the right edge", "[fit][cluster]") {
    widgets::StepHeatmap map;
    for (int width : {1280, 700, 420}) {
        map.resize(width, 300);
        map.show();
        map.plot()->replot();
        pump(10);
        const QImage img = map.plot()->grab().toImage();
        const QColor background = img.pixelColor(img.width() - 1, 0);
        int inked = 0;
        for (int x = img.width() - widgets::StepHeatmap::kRightMarginPx + 2; x < img.width(); ++x)
            for (int y = 0; y < img.height(); ++y) inked += img.pixelColor(x, y) != background ? 1 : 0;
        INFO("width " << width);
        CHECK(inked == 0);
    }
}
