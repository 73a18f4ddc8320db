#include "app/gui/dock_tab_tips.h"

#include <QAction>
#include <QChildEvent>
#include <QDockWidget>
#include <QHelpEvent>
#include <QMainWindow>
#include <QTabBar>
#include <QToolTip>

namespace contend::gui {

namespace {
const char* const kFullTitle = "contendFullTitle";

// Qt makes its dock tab bars eliding; a short title that is cut reads as nothing.
void noElide(QTabBar* bar) {
    bar->setElideMode(Qt::ElideNone);
    bar->setUsesScrollButtons(true);
}
}  // namespace

DockTabTips::DockTabTips(QMainWindow* window) : QObject(window), m_window(window) {
    window->installEventFilter(this);
    for (QTabBar* bar : window->findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
        bar->installEventFilter(this);
        noElide(bar);
    }
}

void DockTabTips::setTitles(QDockWidget* dock, const QString& title, const QString& fullTitle) {
    dock->setWindowTitle(title);
    dock->setProperty(kFullTitle, fullTitle);
    // After the title: the dock sets its action's text from the title when the title changes.
    dock->toggleViewAction()->setText(fullTitle);
}

QString DockTabTips::tipFor(const QTabBar* bar, int index) const {
    if (!bar || index < 0 || index >= bar->count()) return {};
    const QString text = bar->tabText(index);
    for (const QDockWidget* d : m_window->findChildren<QDockWidget*>())
        if (d->windowTitle() == text) {
            const QString full = d->property(kFullTitle).toString();
            return full.isEmpty() ? text : full;
        }
    return text;
}

bool DockTabTips::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window) {
        // ChildPolished: by then the child is a whole QTabBar (at ChildAdded it is not yet).
        if (event->type() == QEvent::ChildPolished)
            if (auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child())) {
                bar->installEventFilter(this);
                noElide(bar);
            }
        return false;
    }
    auto* bar = qobject_cast<QTabBar*>(watched);
    if (!bar) return false;
    if (event->type() == QEvent::Show) {
        noElide(bar);
    } else if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = bar->tabAt(help->pos());
        if (index < 0) return false;
        QToolTip::showText(help->globalPos(), tipFor(bar, index), bar, bar->tabRect(index));
        return true;
    }
    return false;
}

}  // namespace contend::gui
