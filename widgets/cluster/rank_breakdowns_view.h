#pragma once
// HTA's breakdowns per rank in the cluster window (the cluster report's `breakdowns`,
// core/analysis/ranks/rank_merge.h): per rank its temporal split (compute, non-compute, idle) as
// a stacked bar in percent of its kernel time, as the single-trace Breakdowns tab draws it, with
// its communication/computation overlap as a dot on the same scale; beside it the rows (each
// rank, then its streams' idle time and queue length: breakdown_rows_model.h); under them, per
// rank, the sections its report did not compute and why ("not computed": a format without
// streams or launch calls, a report written before the breakdowns).
#include <memory>

#include <QWidget>

#include "core/analysis/ranks/rank_merge.h"

class QCustomPlot;
class QLabel;

namespace contend::widgets {

class BreakdownRowsModel;
class TablePanel;

class RankBreakdownsView : public QWidget {
    Q_OBJECT
  public:
    explicit RankBreakdownsView(QWidget* parent = nullptr);
    void setReport(std::shared_ptr<const ClusterReport> report);
    QCustomPlot* plot() const { return m_plot; }
    BreakdownRowsModel* rowsModel() const { return m_rows; }
    // The "not computed" reasons per rank, in words (empty when every rank has every section).
    QLabel* reasons() const { return m_reasons; }

  private:
    QCustomPlot* m_plot;
    BreakdownRowsModel* m_rows;
    TablePanel* m_panel;
    QLabel* m_reasons;
};

}  // namespace contend::widgets
