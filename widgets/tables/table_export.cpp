#include "widgets/tables/table_export.h"

#include <algorithm>
#include <cmath>

#include <QAbstractProxyModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTableView>

#include "core/common/atomic_write.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

namespace {

// The ColumnModel behind a view (through any proxies), or null for another model.
const ColumnModel* columnModelOf(const QAbstractItemModel* m) {
    while (const auto* proxy = qobject_cast<const QAbstractProxyModel*>(m)) m = proxy->sourceModel();
    return qobject_cast<const ColumnModel*>(m);
}

QString quoted(const QString& s, TableText format) {
    if (format == TableText::Tsv) {
        QString t = s;
        t.replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
        return t;
    }
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')) &&
        !s.contains(QLatin1Char('\r')))
        return s;
    QString t = s;
    t.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + t + QLatin1Char('"');
}

// The header of a column, with the unit its exported values are in.
QString headerText(const QAbstractItemModel* m, const ColumnModel* cm, int c) {
    QString h = m->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    if (!cm) return h;
    switch (cm->column(c).kind) {
    case ColumnKind::Duration:
    case ColumnKind::Gain: return h + QStringLiteral(" (ns)");
    case ColumnKind::Percent: return h + QStringLiteral(" (fraction)");
    default: return h;
    }
}

QString cellText(const QAbstractItemModel* m, const ColumnModel* cm, int row, int c) {
    const QModelIndex idx = m->index(row, c);
    if (!cm) return m->data(idx, Qt::DisplayRole).toString();
    const QVariant raw = m->data(idx, SortRole);
    switch (cm->column(c).kind) {
    case ColumnKind::Name:
    case ColumnKind::Text: return raw.toString();  // the full text, not the shortened one
    case ColumnKind::Count: return raw.isValid() ? QString::number(raw.toLongLong()) : QString();
    case ColumnKind::Duration:
    case ColumnKind::Gain:  // -1: not computed, an empty cell rather than a number
        return raw.isValid() && raw.toLongLong() >= 0 ? QString::number(raw.toLongLong()) : QString();
    case ColumnKind::Score:
    case ColumnKind::Percent: {
        const double d = raw.toDouble();
        return raw.isValid() && std::isfinite(d) && d > -1e299 ? QString::number(d, 'g', 10) : QString();
    }
    case ColumnKind::Time:
    case ColumnKind::Resource: return m->data(idx, Qt::DisplayRole).toString();
    }
    return {};
}

}  // namespace

QString tableText(const QTableView* view, TableText format, const QList<int>& rows) {
    const QAbstractItemModel* m = view->model();
    if (!m) return {};
    const ColumnModel* cm = columnModelOf(m);
    const QHeaderView* h = view->horizontalHeader();
    QList<int> columns;
    for (int v = 0; v < h->count(); ++v) {
        const int c = h->logicalIndex(v);
        if (!h->isSectionHidden(c)) columns << c;
    }
    const QChar sep = format == TableText::Csv ? QLatin1Char(',') : QLatin1Char('\t');
    const QString eol = format == TableText::Csv ? QStringLiteral("\r\n") : QStringLiteral("\n");
    QString out;
    QStringList line;
    for (int c : columns) line << quoted(headerText(m, cm, c), format);
    out += line.join(sep) + eol;
    QList<int> which = rows;
    if (which.isEmpty())
        for (int r = 0; r < m->rowCount(); ++r) which << r;
    for (int r : which) {
        if (r < 0 || r >= m->rowCount()) continue;
        line.clear();
        for (int c : columns) line << quoted(cellText(m, cm, r, c), format);
        out += line.join(sep) + eol;
    }
    return out;
}

QList<int> selectedViewRows(const QTableView* view) {
    QList<int> rows;
    if (!view->selectionModel()) return rows;
    for (const QModelIndex& i : view->selectionModel()->selectedIndexes())
        if (!rows.contains(i.row())) rows << i.row();
    std::sort(rows.begin(), rows.end());
    return rows;
}

QString exportTableCsv(QTableView* view, QWidget* parent, const QString& baseName, QString* error) {
    const QString path =
        QFileDialog::getSaveFileName(parent, QObject::tr("Export table as CSV"), baseName + QStringLiteral(".csv"),
                                     QObject::tr("CSV (*.csv);;All files (*)"));
    if (path.isEmpty()) return {};
    const QByteArray bytes = tableText(view, TableText::Csv).toUtf8();
    if (const std::optional<Failure> f = writeFileAtomically(path.toStdString(), bytes.toStdString())) {
        if (error) *error = QString::fromStdString(f->message());
        return {};
    }
    return path;
}

void installTableExport(QTableView* view, const QString& baseName) {
    auto copyRows = [view] {
        QList<int> rows = selectedViewRows(view);
        if (rows.isEmpty() && view->currentIndex().isValid()) rows << view->currentIndex().row();
        if (!rows.isEmpty()) QApplication::clipboard()->setText(tableText(view, TableText::Tsv, rows));
    };
    auto* copy = new QAction(QObject::tr("Copy Rows"), view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(copy, &QAction::triggered, view, copyRows);
    view->addAction(copy);
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view, copy, baseName](const QPoint& at) {
        QMenu menu(view);
        copy->setEnabled(!selectedViewRows(view).isEmpty() || view->currentIndex().isValid());
        menu.addAction(copy);
        menu.addAction(QObject::tr("Copy Table"), view,
                       [view] { QApplication::clipboard()->setText(tableText(view, TableText::Tsv)); });
        menu.addSeparator();
        menu.addAction(QObject::tr("Export as CSV…"), view, [view, baseName] {
            QString error;
            const QString path = exportTableCsv(view, view->window(), baseName, &error);
            auto* main = qobject_cast<QMainWindow*>(view->window());
            if (!error.isEmpty())
                QMessageBox::warning(view->window(), QObject::tr("Could not export the table"), error);
            else if (!path.isEmpty() && main)
                main->statusBar()->showMessage(QObject::tr("Saved %1").arg(path), 5000);
        });
        menu.exec(view->viewport()->mapToGlobal(at));
    });
}

}  // namespace contend::widgets
