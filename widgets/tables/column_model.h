#pragma once
// Base of the report tables: a QAbstractTableModel described by its columns. Subclasses give a
// raw value per cell; this class formats it for display by the column's kind, hands the raw
// value for sorting (SortRole, and a whole column's keys at once: sortKeys) and answers the row
// roles of table_roles.h.
#include <utility>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "core/trace/types.h"
#include "widgets/tables/row_sort.h"
#include "widgets/tables/table_roles.h"

namespace contend::widgets {

enum class ColumnKind {
    Text,      // QString
    Name,      // QString operator name or signature: shown short (shortOperatorName), full in the tooltip
    Count,     // integer
    Duration,  // qint64 ns -> "12.5 us"
    Time,      // qint64 absolute ns -> time since the trace began
    Score,     // double, 2 decimals
    Percent,   // double 0..1 -> "72%"
    Resource,  // int (Resource) -> name with a colour swatch
    Gain,      // qint64 ns predicted end-to-end gain (the what-if) -> "12.5 us"; -1 -> "-", "not computed"
};

struct Column {
    QString title;
    ColumnKind kind = ColumnKind::Text;
    QString tip;
};

class ColumnModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    // Without QAbstractTableModel's hasIndex (two virtual calls): the proxy's sort asks for two
    // indexes per comparison, millions on a slider step with 240k findings.
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    const Column& column(int c) const { return m_columns[static_cast<std::size_t>(c)]; }
    // Every row's key of `column`, in the order SortRole's values give (TableProxy sorts by them
    // without a model index per comparison). This one reads data(SortRole) per row; a model with
    // compact column data overrides it for its long columns.
    virtual SortKeys sortKeys(int column) const;

  protected:
    ColumnModel(std::vector<Column> columns, QObject* parent);
    // What SortRole answers: the raw value, a resource's label, -1e300 for a score not finite.
    QVariant sortValue(int row, int column) const;
    // sortKeys of a Resource column from raw(), each resource's label made once.
    SortKeys resourceKeys(int column) const;
    virtual int rows() const = 0;
    virtual QVariant raw(int row, int column) const = 0;
    virtual quint32 rowSlice(int row) const;
    virtual qint64 rowId(int row) const { return row; }
    // Absolute [start, end) of what the row stands for; {-1, -1} if nothing on the timeline.
    virtual std::pair<qint64, qint64> rowSpan(int row) const;
    virtual QString rowGroup(int) const { return {}; }
    // A cell's own tooltip, before the column kind's (empty: the kind's).
    virtual QString cellTip(int, int) const { return {}; }
    // A cell whose value comes with the gains (built by the what-if): it says "computing…".
    virtual bool cellPending(int, int) const { return false; }
    // Time columns are shown relative to this (the trace's begin).
    TimeNs m_origin = 0;
    // The what-if is still computing the gains: a Gain cell without one says "computing…".
    bool m_gainsPending = false;

  private:
    std::vector<Column> m_columns;
};

}  // namespace contend::widgets
