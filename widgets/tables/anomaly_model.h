#pragma once
// The flagged-operator table: one row per anomaly (score, name, track, start, duration,
// baseline, excess, cause) and the predicted end-to-end gain; the window ranks it by gain.
#include "widgets/tables/report_table_model.h"

namespace contend::widgets {

class AnomalyModel : public ReportTableModel {
    Q_OBJECT
  public:
    enum Col { Score, Gain, Name, Track, Start, Duration, Baseline, Excess, Cause, Known, ColumnCount };
    explicit AnomalyModel(QObject* parent = nullptr);
    // Row of the anomaly on `slice`, -1 if it is not flagged.
    int rowOfSlice(std::uint32_t slice) const;
    // The number columns' keys straight from the report's compact rows, the cause's by label.
    SortKeys sortKeys(int column) const override;

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    quint32 rowSlice(int row) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;

  private:
};

}  // namespace contend::widgets
