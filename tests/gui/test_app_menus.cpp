// What every window offers alike (File > Quit, Edit > Copy Rows, View > Dark Palette, Help), the
// start page, the method guide inside the app with the Details' links into it, and tables that
// leave the app as CSV or on the clipboard.
#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QUrl>

#include "app/gui/analysis_session.h"
#include "app/gui/app_menus.h"
#include "app/gui/cluster_window.h"
#include "app/gui/compare_window.h"
#include "app/gui/guide_window.h"
#include "app/gui/main_window.h"
#include "app/gui/recent_files.h"
#include "app/gui/welcome_panel.h"
#include "gui_support.h"
#include "widgets/common/view_colors.h"
#include "widgets/common/view_state.h"
#include "widgets/details/operator_details.h"
#include "widgets/tables/anomaly_model.h"
#include "widgets/tables/column_model.h"
#include "widgets/tables/table_export.h"
#include "widgets/tables/table_panel.h"

using namespace contend;
using contend::gui::MainWindow;

namespace {

QStringList menuTitles(QMainWindow& w) {
    QStringList out;
    for (QAction* a : w.menuBar()->actions()) out << a->text().remove(QLatin1Char('&'));
    return out;
}

// Parses one CSV line (RFC 4180 quoting) into fields.
QStringList csvFields(const QString& line) {
    QStringList out;
    QString cur;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                cur += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << cur;
            cur.clear();
        } else {
            cur += c;
        }
    }
    out << cur;
    return out;
}

}  // namespace

TEST_CASE("the main, compare and cluster windows have the same Edit, View and Help menus", "[app][menus]") {
    test::FreshSettings fresh;
    MainWindow main;
    gui::CompareWindow compare;
    gui::ClusterWindow cluster;
    for (QMainWindow* w : std::initializer_list<QMainWindow*>{&main, &compare, &cluster}) {
        INFO(w->metaObject()->className());
        const QStringList titles = menuTitles(*w);
        CHECK(titles.contains(QStringLiteral("File")));
        CHECK(titles.contains(QStringLiteral("Edit")));
        CHECK(titles.contains(QStringLiteral("View")));
        CHECK(titles.last() == QStringLiteral("Help"));
        for (const char* name : {"actionQuit", "actionCopyRows", "actionDarkPalette", "actionGuide"})
            CHECK(w->findChild<QAction*>(QString::fromLatin1(name)));
        CHECK(w->findChild<QAction*>(QStringLiteral("actionQuit"))->shortcut() == QKeySequence(QKeySequence::Quit));
    }
    // The compare window moves its timelines with the main window's keys.
    QStringList compareView;
    for (QAction* a : compare.menuBar()->actions())
        if (a->menu() && a->text().remove(QLatin1Char('&')) == QStringLiteral("View"))
            for (QAction* v : a->menu()->actions()) compareView << v->shortcut().toString();
    for (const char* key : {"W", "S", "A", "D", "F", "0"}) CHECK(compareView.contains(QString::fromLatin1(key)));
}

TEST_CASE("View > Dark Palette switches every window and is remembered", "[app][menus]") {
    test::FreshSettings fresh;
    const QPalette before = QApplication::palette();
    MainWindow a;
    gui::CompareWindow b;
    auto* darkA = a.findChild<QAction*>(QStringLiteral("actionDarkPalette"));
    auto* darkB = b.findChild<QAction*>(QStringLiteral("actionDarkPalette"));
    REQUIRE(darkA);
    REQUIRE(darkB);
    CHECK_FALSE(darkA->isChecked());
    darkA->trigger();
    CHECK(widgets::isDarkPalette(QApplication::palette()));
    CHECK(darkB->isChecked());  // the other window's switch follows
    CHECK(gui::savedPalette() == QStringLiteral("dark"));
    darkB->trigger();
    CHECK_FALSE(darkA->isChecked());
    CHECK(gui::savedPalette() == QStringLiteral("system"));
    CHECK(QApplication::palette().color(QPalette::Window) == before.color(QPalette::Window));
}

TEST_CASE("an empty main window shows a start page that opens the sample and lists recent files", "[app][welcome]") {
    test::FreshSettings fresh;
    REQUIRE(test::haveSample());
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    test::pump();
    CHECK(w.showsWelcome());
    gui::WelcomePanel* welcome = w.welcomePanel();
    REQUIRE(welcome);
    CHECK(welcome->recentList()->isHidden());  // nothing opened yet
    REQUIRE(welcome->sampleButton()->isVisible());
    bool opened = false;
    QObject::connect(w.session(), &gui::AnalysisSession::opened, [&] { opened = true; });
    welcome->sampleButton()->click();
    REQUIRE(test::waitFor([&] { return opened; }));
    test::pump(50);
    CHECK_FALSE(w.showsWelcome());
    CHECK(w.session()->current());

    // A second window starts on the start page too, with the sample among the recent files,
    // and a click on it opens it.
    MainWindow second;
    second.show();
    test::pump();
    CHECK(second.showsWelcome());
    QListWidget* recent = second.welcomePanel()->recentList();
    REQUIRE(recent->count() >= 1);
    CHECK(recent->item(0)->data(Qt::UserRole).toString() == QFileInfo(test::samplePath()).absoluteFilePath());
    bool secondOpened = false;
    QObject::connect(second.session(), &gui::AnalysisSession::opened, [&] { secondOpened = true; });
    emit recent->itemClicked(recent->item(0));
    REQUIRE(test::waitFor([&] { return secondOpened; }));
}

TEST_CASE("a first trace that fails leaves the start page, not an empty timeline", "[app][welcome]") {
    test::FreshSettings fresh;
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write("{\"traceEvents\": [ {\"ph\": ");
    f.close();
    MainWindow w;
    w.show();
    CHECK(test::openAndWait(w, bad) == test::Outcome::Failed);
    CHECK(w.showsWelcome());
}

TEST_CASE("the method guide opens inside the app at the section a Details link names", "[app][guide]") {
    const QString md = gui::guideMarkdown();
    REQUIRE(md.startsWith(QStringLiteral("# How Contend decides")));
    gui::GuideWindow* guide = gui::GuideWindow::showSection();
    REQUIRE(guide);
    // Every heading of the Markdown is in the table of contents.
    int headings = 0;
    for (const QString& line : md.split(QLatin1Char('\n')))
        if (line.startsWith(QStringLiteral("# ")) || line.startsWith(QStringLiteral("## ")) ||
            line.startsWith(QStringLiteral("### ")))
            ++headings;
    CHECK(guide->headings().size() == headings);
    CHECK(guide->browser()->toPlainText().contains(QStringLiteral("The baseline")));
    // Its sections by number: the cause, the what-if, the windows.
    for (const char* section : {"3.", "7.", "4.", "2."}) {
        guide = gui::GuideWindow::showSection(QString::fromLatin1(section));
        test::pump(20);
        INFO(section);
        CHECK(guide->currentHeading().startsWith(QString::fromLatin1(section)));
    }

    // The Details of a flagged operator link its baseline, cause, evidence and gain there.
    test::SampleWindow s;
    MainWindow& w = s.window;
    REQUIRE(w.session()->report());
    REQUIRE(w.session()->report()->anomalies.size() > 0);
    w.selectSlice(w.session()->report()->anomalies.slice(0), true);
    test::pump(20);
    const QString html = w.details()->toHtml();
    for (const char* link : {"guide:2.", "guide:3.", "guide:7."}) CHECK(html.contains(QString::fromLatin1(link)));
    QString asked;
    QObject::connect(w.details(), &widgets::OperatorDetails::guideLinkActivated,
                     [&](const QString& section) { asked = section; });
    emit w.details()->anchorClicked(QUrl(QStringLiteral("guide:3.")));
    CHECK(asked == QStringLiteral("3."));
    test::pump(20);
    CHECK(gui::GuideWindow::showSection(asked)->currentHeading().startsWith(QStringLiteral("3.")));
    guide->close();
}

TEST_CASE("a table leaves the app as CSV and on the clipboard, as the user filtered and sorted it", "[app][export]") {
    test::SampleWindow s;
    widgets::TablePanel* panel = s.window.anomalyPanel();
    QTableView* view = panel->view();
    const int rows = panel->proxy()->rowCount();
    REQUIRE(rows > 2);
    const QString csv = widgets::tableText(view, widgets::TableText::Csv);
    QStringList lines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == rows + 1);
    const QStringList header = csvFields(lines[0]);
    const auto* model = qobject_cast<const widgets::ColumnModel*>(panel->model());
    REQUIRE(model);
    REQUIRE(header.size() == model->columnCount());
    // Every row as the view shows it, in its order; durations in ns, names in full.
    for (int c = 0; c < model->columnCount(); ++c) {
        const widgets::ColumnKind kind = model->column(c).kind;
        INFO(header[c].toStdString());
        for (int r = 0; r < rows; ++r) {
            const QStringList f = csvFields(lines[r + 1]);
            REQUIRE(f.size() == header.size());
            const QVariant raw = panel->proxy()->index(r, c).data(widgets::SortRole);
            if (kind == widgets::ColumnKind::Duration) {
                CHECK(header[c].endsWith(QStringLiteral("(ns)")));
                CHECK(f[c].toLongLong() == raw.toLongLong());
            } else if (kind == widgets::ColumnKind::Name) {
                CHECK(f[c] == raw.toString());
            }
        }
    }
    // Filtered: only what is shown.
    const QString word = panel->proxy()->index(0, 0).data(Qt::DisplayRole).toString();
    panel->filterEdit()->setText(word);
    test::pump(20);
    const int shown = panel->proxy()->rowCount();
    CHECK(widgets::tableText(view, widgets::TableText::Csv).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts).size() ==
          shown + 1);
    panel->filterEdit()->clear();

    // Ctrl+C on a selected row: that row, tab-separated, under the header.
    view->setFocus();
    panel->selectSourceRow(panel->proxy()->mapToSource(panel->proxy()->index(1, 0)).row());
    QApplication::clipboard()->clear();
    for (QAction* a : view->actions())
        if (a->shortcut() == QKeySequence(QKeySequence::Copy)) a->trigger();
    const QStringList copied = QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    REQUIRE(copied.size() == 2);
    CHECK(copied[0].split(QLatin1Char('\t')) == header);
    CHECK(copied[1].split(QLatin1Char('\t')).size() == header.size());
}

TEST_CASE("CSV quotes what needs quoting", "[app][export]") {
    // A cell with a comma, a quote and a line break survives a round trip.
    class Model : public QAbstractTableModel {
      public:
        int rowCount(const QModelIndex& = {}) const override { return 1; }
        int columnCount(const QModelIndex& = {}) const override { return 2; }
        QVariant data(const QModelIndex& i, int role) const override {
            if (role != Qt::DisplayRole) return {};
            return i.column() == 0 ? QStringLiteral("a, \"b\"\nc") : QStringLiteral("plain");
        }
        QVariant headerData(int s, Qt::Orientation o, int role) const override {
            if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
            return s == 0 ? QStringLiteral("odd") : QStringLiteral("even");
        }
    } model;
    QTableView view;
    view.setModel(&model);
    const QString csv = widgets::tableText(&view, widgets::TableText::Csv);
    CHECK(csv == QStringLiteral("odd,even\r\n\"a, \"\"b\"\"\nc\",plain\r\n"));
    // A hidden column stays out; a moved one goes where the user put it.
    view.horizontalHeader()->moveSection(1, 0);
    CHECK(widgets::tableText(&view, widgets::TableText::Tsv) == QStringLiteral("even\todd\nplain\ta, \"b\" c\n"));
    view.setColumnHidden(0, true);
    CHECK(widgets::tableText(&view, widgets::TableText::Tsv) == QStringLiteral("even\nplain\n"));
}
