#pragma once
// Base of the report tables: a QAbstractTableModel described by its columns. Subclasses give a
// raw value per cell; this class formats it for display by the column's kind, hands the raw
// value to the proxy for sorting (SortRole) and answers the row roles of table_roles.h.
#include <utility>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "core/trace/types.h"
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

  protected:
    ColumnModel(std::vector<Column> columns, QObject* parent);
    virtual int rows() const = 0;
    virtual QVariant raw(int row, int column) const = 0;
    virtual quint32 rowSlice(int row) const;
    virtual qint64 rowId(int row) const { return row; }
    // Absolute [start, end) of what the row stands for; {-1, -1} if nothing on the timeline.
    virtual std::pair<qint64, qint64> rowSpan(int row) const;
    virtual QString rowGroup(int) const { return {}; }
    // A cell's own tooltip, before the column kind's (empty: the kind's).
    virtual QString cellTip(int, int) const { return {}; }
    // Time columns are shown relative to this (the trace's begin).
    TimeNs m_origin = 0;
    // The what-if is still computing the gains: a Gain cell without one says "computing…".
    bool m_gainsPending = false;

  private:
    std::vector<Column> m_columns;
};

}  // namespace contend::widgets
