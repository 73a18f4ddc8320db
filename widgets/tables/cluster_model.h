#pragma once
// Clusters of short operators run back to back on one track: track, start, duration, operators,
// busy time, gaps, the saving of fusing them on their stream (local: the gaps less one launch)
// and the predicted end-to-end gain of fusing them (the what-if); a Gain cell's tooltip says how
// and why it differs from the Saving beside it.
#include "widgets/tables/report_table_model.h"

namespace contend::widgets {

class ClusterModel : public ReportTableModel {
    Q_OBJECT
  public:
    enum Col { Id, Gain, Track, Start, Duration, Ops, Busy, Gaps, Saving, ColumnCount };
    explicit ClusterModel(QObject* parent = nullptr);
    // The number columns' keys from the clusters themselves (no QVariant per row).
    SortKeys sortKeys(int column) const override;

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    quint32 rowSlice(int row) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;
    QString cellTip(int row, int column) const override;

  private:
};

}  // namespace contend::widgets
