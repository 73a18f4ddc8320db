#pragma once
// Getting a table out of the app, as a spreadsheet or a script would want it: the rows the view
// shows (filtered and sorted as the user left them), the columns in their on-screen order, hidden
// ones left out. Numbers go out as numbers (durations and gains in ns, percentages as fractions,
// scores unrounded), names in full; times since the trace start as shown. CSV per RFC 4180 for
// files, tab-separated for the clipboard (a paste into a spreadsheet splits it into cells).
//
// installTableExport gives a QTableView a context menu (Copy Rows, Copy Table, Export as CSV…)
// and Ctrl+C; Export writes the file atomically (core/common/atomic_write.h).
#include <QList>
#include <QString>

class QTableView;
class QWidget;

namespace contend::widgets {

enum class TableText { Csv, Tsv };

// The header line and then `rows` (view rows; empty: every row) of `view`'s model, in `format`.
QString tableText(const QTableView* view, TableText format, const QList<int>& rows = {});
// The view rows whose cells are selected, in order.
QList<int> selectedViewRows(const QTableView* view);
// Asks where to save `view` as CSV (offering `baseName`.csv) and writes it; returns the path
// written, or an empty string when cancelled or failed (then `error` says why).
QString exportTableCsv(QTableView* view, QWidget* parent, const QString& baseName, QString* error);
// The context menu and Ctrl+C described above. `baseName` is offered as the file name.
void installTableExport(QTableView* view, const QString& baseName);

}  // namespace contend::widgets
