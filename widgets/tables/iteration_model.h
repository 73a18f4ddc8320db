#pragma once
// The whole-network view per iteration (ProfilerStep#N): start, duration, anomalies, extra wait.
#include "widgets/tables/report_table_model.h"

namespace contend::widgets {

class IterationModel : public ReportTableModel {
    Q_OBJECT
  public:
    enum Col { Iteration, Start, Duration, Anomalies, ExtraWait, ColumnCount };
    explicit IterationModel(QObject* parent = nullptr);

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;
};

}  // namespace contend::widgets
