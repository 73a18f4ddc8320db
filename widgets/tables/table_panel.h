#pragma once
// A report table with its filter box and row count: a QTableView over a TableProxy over one of
// the column models. Tells when the user picks a row (click / keyboard) and when they open one
// (double-click / Enter), with the index in the source model.
#include <vector>

#include <QHash>
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
    // Sizes the columns to their content (the first kFitRows rows: the first kFitRowsWhole and a
    // resource column's through the delegate, the rest by their text plus the delegate's margins):
    // numbers and times get the width of their widest cell (never elided); texts start at most kTextStart wide and name columns share what is left
    // of the view (at least two fifths of the view between them and kNameMin each, at most their
    // widest name, elided at the right with the shape or grid kept; in a narrow pane the numbers
    // then scroll sideways rather than the names shrink to a stub). Room still left goes back to the cut texts and names, up to their
    // widest, and then to the last column when it is a text or a name, so the table fills the
    // view while anything is cut. Cut text is whole in the cell's tooltip. Columns the user
    // resized keep their width. Runs on every model reset and view resize.
    void fitColumns();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  signals:
    void rowPicked(const QModelIndex& source);
    void rowOpened(const QModelIndex& source);

  private:
    void updateCount();
    int contentWidth(int column) const;
    void fit(bool measure);
    QList<int> m_measured;                               // per column: widest cell at the last model reset
    mutable std::vector<QHash<QString, int>> m_advance;  // per column: a text's width, kept across fits
    mutable QString m_advanceFont;                       // the font m_advance was measured in
    static constexpr int kAdvanceCache = 50000;          // texts kept per column at most
    static constexpr int kFitRows = 2000;                // rows measured when fitting (tables are sorted worst first)
    static constexpr int kFitRowsWhole = 32;             // of them, measured by the delegate (the rest by their text)
    static constexpr int kTextStart = 240;               // a text column's width before the room left is shared
    static constexpr int kNameMin = 120;                 // a name column's least width
    ColumnModel* m_model;
    TableProxy* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QLabel* m_count;
    bool m_quiet = false;
    bool m_fitting = false;
    QList<int> m_userSized;  // columns the user resized by hand
};

}  // namespace contend::widgets
