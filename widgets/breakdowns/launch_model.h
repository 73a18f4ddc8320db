#pragma once
// HTA's kernel launch statistics (core/analysis/breakdowns/launch_stats.h) as a table: one row
// per kernel name, largest GPU time first (the order core gives).
#include "core/analysis/breakdowns/breakdown_values.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class LaunchModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { Name, Runs, GpuTotal, CpuP50, GpuP50, DelayP50, DelayP95, Shorter, ColumnCount };
    explicit LaunchModel(QObject* parent = nullptr);
    void setRows(std::vector<KernelLaunch> rows);

  protected:
    int rows() const override { return static_cast<int>(m_rows.size()); }
    QVariant raw(int row, int column) const override;

  private:
    std::vector<KernelLaunch> m_rows;
};

}  // namespace contend::widgets
