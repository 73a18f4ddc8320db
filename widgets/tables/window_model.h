#pragma once
// Contention windows: resource, start, duration, operators, tracks joined, overlap ratio, peak
// utilisation, extra wait. Each row spans its window on the timeline (StartRole/EndRole).
#include "widgets/tables/report_table_model.h"

namespace contend::widgets {

class WindowModel : public ReportTableModel {
    Q_OBJECT
  public:
    enum Col { Id, Gain, Resource, Start, Duration, Ops, Tracks, Overlap, Peak, ExtraWait, Known, ColumnCount };
    explicit WindowModel(QObject* parent = nullptr);

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;
    void reportChanged() override;

  private:
    std::vector<qint64> m_extra;  // per window: summed extra wait
    std::vector<int> m_tracks;    // per window: distinct tracks
};

}  // namespace contend::widgets
