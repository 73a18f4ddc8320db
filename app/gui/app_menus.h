#pragma once
// The menu items every Contend window shares, so the main, compare and cluster windows offer the
// same things under the same names and keys: File ▸ Quit (the application, not the window),
// Edit ▸ Copy (the focused table's rows), View ▸ Dark Palette, and the Help menu (How Contend
// Decides, Keyboard and Mouse, About Contend).
#include <functional>

#include <QList>
#include <QString>

class QAction;
class QMainWindow;
class QMenu;
class QWidget;

namespace contend::gui {

// File ▸ Quit (Ctrl+Q): closes every window and ends the event loop unless one refused.
QAction* addQuitAction(QMenu* file);
// Edit ▸ Copy (Ctrl+C): the selected rows of the table that has the focus, tab-separated.
QAction* addCopyAction(QMenu* edit, QMainWindow* window);
// View ▸ Zoom In / Zoom Out / Pan Left / Pan Right / Zoom to Selection / Reset Zoom on W S A D F 0,
// as window shortcuts (a text field or spin box keeps the key for itself, so typing never zooms);
// each calls `navigate` with the key (TimelineView::navigateKey).
QList<QAction*> addTimelineKeys(QMenu* view, QWidget* window, const std::function<void(int key)>& navigate);
// View ▸ Dark Palette: checkable, the same state in every window, remembered across runs.
QAction* addPaletteAction(QMenu* view);
// The Help menu.
QMenu* addHelpMenu(QMainWindow* window);

// The palette: "system" (Qt's choice), "dark" or "light" (Fusion with that palette). Applies to
// the whole application; the first call remembers the system style and palette to return to.
void applyPalette(const QString& choice);
QString currentPalette();
// The choice View ▸ Dark Palette saved ("system" when none).
QString savedPalette();

}  // namespace contend::gui
