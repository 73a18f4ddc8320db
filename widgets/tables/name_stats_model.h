#pragma once
// Per-name statistics straight from the trace (Trace::nameStats): the network view while the
// analysis runs, or when it cannot run. IdRole is the name's StringId.
#include "core/trace/trace.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class NameStatsModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { Name, Count, Total, Mean, Min, Max, ColumnCount };
    explicit NameStatsModel(QObject* parent = nullptr);
    void setTrace(TracePtr trace);

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    qint64 rowId(int row) const override;

  private:
    TracePtr m_trace;
};

}  // namespace contend::widgets
