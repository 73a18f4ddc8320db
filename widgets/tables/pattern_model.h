#pragma once
// Contention patterns (core/analysis/findings/patterns.h): an operator's runs beside a partner
// against its runs apart, ranked by cost: the victim, the partner, the runs on each side, the
// slowdown with its 95% interval, the adjusted p-value, the cost and the cause.
#include "widgets/tables/report_table_model.h"

namespace contend::widgets {

class PatternModel : public ReportTableModel {
    Q_OBJECT
  public:
    enum Col { Id, Cost, Victim, Partner, Beside, Apart, Slowdown, Low, High, P, Cause, ColumnCount };
    explicit PatternModel(QObject* parent = nullptr);

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    quint32 rowSlice(int row) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;
};

}  // namespace contend::widgets
