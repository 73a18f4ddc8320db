// The app at the sizes users have: the main window fits a 1280x800 screen (with room for a
// panel or task bar), and text panes wrap to their width instead of cutting lines at the edge.
#include <catch2/catch.hpp>

#include <QAbstractTextDocumentLayout>
#include <QDockWidget>
#include <QScrollBar>
#include <QTextBrowser>

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
