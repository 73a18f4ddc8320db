#include "app/gui/app_menus.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QTableView>

#include "app/gui/guide_window.h"
#include "core/common/version.h"
#include "widgets/common/view_colors.h"
#include "widgets/tables/table_export.h"

namespace contend::gui {

namespace {

const char* const kPaletteKey = "view/palette";

// What the application looked like before the first applyPalette, to return to for "system".
struct SystemLook {
    QString style;
    QPalette palette;
    bool taken = false;
};
SystemLook& systemLook() {
    static SystemLook look;
    return look;
}
QString& paletteChoice() {
    static QString choice = QStringLiteral("system");
    return choice;
}

// Every Dark Palette action of every window, kept checked alike.
QList<QPointer<QAction>>& paletteActions() {
    static QList<QPointer<QAction>> actions;
    return actions;
}

}  // namespace

QAction* addQuitAction(QMenu* file) {
    // Quit ends the application, not this window: every window (compare, cluster, other traces)
    // is closed, and the event loop ends unless one of them refused.
    QAction* quit = file->addAction(QObject::tr("&Quit"), qApp, [] {
        QApplication::closeAllWindows();
        for (QWidget* w : QApplication::topLevelWidgets())
            if (w->isVisible() && w->isWindow() && !w->inherits("QMenu")) return;
        QCoreApplication::quit();
    });
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);
    return quit;
}

QAction* addCopyAction(QMenu* edit, QMainWindow* window) {
    QAction* copy = edit->addAction(QObject::tr("&Copy Rows"), window, [window] {
        // The table with the focus (or the one whose cell has it).
        QWidget* w = QApplication::focusWidget();
        while (w && !qobject_cast<QTableView*>(w) && w != window) w = w->parentWidget();
        auto* view = qobject_cast<QTableView*>(w);
        if (!view) return;
        QList<int> rows = widgets::selectedViewRows(view);
        if (rows.isEmpty() && view->currentIndex().isValid()) rows << view->currentIndex().row();
        if (!rows.isEmpty())
            QApplication::clipboard()->setText(widgets::tableText(view, widgets::TableText::Tsv, rows));
    });
    copy->setObjectName(QStringLiteral("actionCopyRows"));
    copy->setToolTip(QObject::tr("Copy the selected rows of the focused table, tab-separated"));
    // The tables' own Ctrl+C (installTableExport) answers first when one has the focus; this item
    // is the menu's way to the same thing, and names the key.
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    return copy;
}

QList<QAction*> addTimelineKeys(QMenu* view, QWidget* window, const std::function<void(int key)>& navigate) {
    const struct {
        const char* text;
        Qt::Key key;
    } keys[] = {{QT_TR_NOOP("Zoom In"), Qt::Key_W},           {QT_TR_NOOP("Zoom Out"), Qt::Key_S},
                {QT_TR_NOOP("Pan Left"), Qt::Key_A},          {QT_TR_NOOP("Pan Right"), Qt::Key_D},
                {QT_TR_NOOP("Zoom to Selection"), Qt::Key_F}, {QT_TR_NOOP("Reset Zoom"), Qt::Key_0}};
    QList<QAction*> actions;
    for (const auto& k : keys) {
        QAction* a = view->addAction(QObject::tr(k.text));
        a->setShortcut(QKeySequence(k.key));
        a->setShortcutContext(Qt::WindowShortcut);
        const int key = k.key;
        QObject::connect(a, &QAction::triggered, window, [navigate, key] { navigate(key); });
        actions << a;
    }
    return actions;
}

QAction* addPaletteAction(QMenu* view) {
    QAction* dark = view->addAction(QObject::tr("&Dark Palette"));
    dark->setObjectName(QStringLiteral("actionDarkPalette"));
    dark->setCheckable(true);
    dark->setChecked(currentPalette() == QStringLiteral("dark"));
    dark->setToolTip(QObject::tr("Dark colours in every window (remembered; --palette on the command line overrides)"));
    QObject::connect(dark, &QAction::toggled, dark, [](bool on) {
        const QString choice = on ? QStringLiteral("dark") : QStringLiteral("system");
        if (choice == currentPalette()) return;
        applyPalette(choice);
        QSettings().setValue(QLatin1String(kPaletteKey), choice);
    });
    paletteActions() << dark;
    return dark;
}

void applyPalette(const QString& choice) {
    SystemLook& look = systemLook();
    if (!look.taken) {
        look.style = QApplication::style()->name();
        look.palette = QApplication::palette();
        look.taken = true;
    }
    if (choice == QStringLiteral("dark") || choice == QStringLiteral("light")) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(choice == QStringLiteral("dark") ? widgets::darkPalette()
                                                                  : QApplication::style()->standardPalette());
    } else {
        if (QStyle* s = QStyleFactory::create(look.style)) QApplication::setStyle(s);
        QApplication::setPalette(look.palette);
    }
    paletteChoice() = choice;
    for (const QPointer<QAction>& a : paletteActions()) {
        if (!a) continue;
        const QSignalBlocker quiet(a);
        a->setChecked(choice == QStringLiteral("dark"));
    }
}

QString currentPalette() { return paletteChoice(); }

QString savedPalette() {
    const QString s = QSettings().value(QLatin1String(kPaletteKey), QStringLiteral("system")).toString();
    return s == QStringLiteral("dark") || s == QStringLiteral("light") ? s : QStringLiteral("system");
}

QMenu* addHelpMenu(QMainWindow* window) {
    QMenu* help = window->menuBar()->addMenu(QObject::tr("&Help"));
    QAction* guide = help->addAction(QObject::tr("How Contend &Decides"), window, [] { GuideWindow::showSection(); });
    guide->setObjectName(QStringLiteral("actionGuide"));
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(QObject::tr("&Keyboard and Mouse…"), window, [window] {
        QMessageBox::information(
            window, QObject::tr("Keyboard and mouse"),
            QObject::tr(
                "<table>"
                "<tr><td><b>Wheel</b></td><td>zoom around the cursor</td></tr>"
                "<tr><td><b>Drag</b></td><td>pan (and scroll the tracks)</td></tr>"
                "<tr><td><b>Right-drag</b></td><td>box zoom</td></tr>"
                "<tr><td><b>Shift+drag, drag on the ruler</b></td><td>measure a range: duration, busy time per track, "
                "findings inside (Esc clears)</td></tr>"
                "<tr><td><b>Ctrl+F, F3 / Shift+F3</b></td><td>find operators by name or regex, next / "
                "previous</td></tr>"
                "<tr><td><b>Shift+wheel</b></td><td>scroll the tracks</td></tr>"
                "<tr><td colspan=2>These keys work anywhere in the window except in text fields:</td></tr>"
                "<tr><td><b>W / S</b></td><td>zoom in / out</td></tr>"
                "<tr><td><b>A / D</b></td><td>pan left / right</td></tr>"
                "<tr><td><b>F</b></td><td>zoom to the selected operator</td></tr>"
                "<tr><td><b>0 (R, Home on the timeline)</b></td><td>show the whole trace</td></tr>"
                "<tr><td><b>Click / double-click</b></td><td>select / zoom to an operator</td></tr>"
                "<tr><td><b>Click a track name</b></td><td>expand or collapse a host thread</td></tr>"
                "<tr><td><b>Right-click a track name</b></td><td>pin to top, hide, move up / down; Ctrl+T filters "
                "tracks</td></tr>"
                "<tr><td><b>Backspace</b></td><td>back in the Network view</td></tr>"
                "<tr><td><b>Ctrl+C, right-click a table</b></td><td>copy its rows; copy the table or export it as "
                "CSV</td></tr>"
                "<tr><td><b>F1</b></td><td>How Contend Decides: the method, section by section</td></tr>"
                "</table>"));
    });
    help->addAction(QObject::tr("&About Contend"), window, [window] {
        // The version and the commit this build is of (core/common/version.h): what a bug report
        // needs, and what every report this build writes records as its "producer".
        QMessageBox::about(window, QObject::tr("About Contend"),
                           QObject::tr("<b>Contend</b> finds operator contention in AI-model profiling traces "
                                       "(PyTorch/Kineto, Nsight Systems, Ascend, Chrome JSON): which operators were "
                                       "slowed, by what, and when.") +
                               QStringLiteral("<p>") +
                               QObject::tr("Version %1").arg(QString::fromStdString(versionLine()).toHtmlEscaped()) +
                               QStringLiteral("</p><p>") + QObject::tr("Qt %1").arg(QString::fromLatin1(qVersion())) +
                               QStringLiteral("</p>"));
    });
    return help;
}

}  // namespace contend::gui
