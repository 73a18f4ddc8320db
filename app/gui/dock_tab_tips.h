#pragma once
// The tabs of tabbed docks, as Qt Creator's output panes and Nsight Systems' bottom views do
// them: a short title on the tab, never elided (the tab bar scrolls when it is too narrow), and
// the dock's full name as the tab's tooltip. Qt names a dock's tab after its window title and
// makes its own tab bars as docks are tabbed; this filter finds them as they are made.
#include <QObject>
#include <QString>

class QDockWidget;
class QMainWindow;
class QTabBar;

namespace contend::gui {

class DockTabTips : public QObject {
    Q_OBJECT
  public:
    // Watches `window` (its parent) for the tab bars Qt makes for tabbed docks.
    explicit DockTabTips(QMainWindow* window);
    // Gives `dock` the short `title` (its tab's text) and the full name for its tooltip and
    // the View menu.
    static void setTitles(QDockWidget* dock, const QString& title, const QString& fullTitle);
    // The full name of the dock on tab `index` of `bar` (the tab's text when there is none).
    QString tipFor(const QTabBar* bar, int index) const;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QMainWindow* m_window;
};

}  // namespace contend::gui
