#pragma once
// A report table with its filter box and row count: a QTableView over a TableProxy over one of
// the column models. Tells when the user picks a row (click / keyboard) and when they open one
// (double-click / Enter), with the index in the source model.
#include <QWidget>

#include "widgets/tables/table_proxy.h"

class QLabel;
class QLineEdit;
class QTableView;

namespace contend::widgets {

class ColumnModel;

class TablePanel : public QWidget {
    Q_OBJECT
public:
    explicit TablePanel(ColumnModel* model, const QString& filterHint, QWidget* parent = nullptr);
    QTableView* view() const { return m_view; }
    TableProxy* proxy() const { return m_proxy; }
    ColumnModel* model() const { return m_model; }
    QLineEdit* filterEdit() const { return m_filter; }
    // Selects (and scrolls to) a source row without emitting rowPicked; -1 clears.
    void selectSourceRow(int row);
    // Source row of the current selection, -1 if none.
    int currentSourceRow() const;
    void sortBy(int column, Qt::SortOrder order);

signals:
    void rowPicked(const QModelIndex& source);
    void rowOpened(const QModelIndex& source);

private:
    void updateCount();
    ColumnModel* m_model;
    TableProxy* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QLabel* m_count;
    bool m_quiet = false;
};

}  // namespace contend::widgets
