// The app at the sizes users have: the main window fits a 1280x800 screen (with room for a
// panel or task bar), text panes wrap to their width instead of cutting lines at the edge, and
// dock tabs show their titles whole.
#include <catch2/catch.hpp>
#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QDockWidget>
#include <QHelpEvent>
#include <QScrollBar>
#include <QStyle>
#include <QTabBar>
#include <QTextBrowser>
#include <QToolTip>

#include "app/gui/dock_tab_tips.h"
#include "app/gui/main_window.h"
#include "app/gui/settings_panel.h"
#include "gui_support.h"

using namespace contend;
using contend::gui::MainWindow;
using contend::gui::SettingsPanel;
using contend::test::pump;

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
