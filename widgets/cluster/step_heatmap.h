#pragma once
// The cluster's ranks x iterations heatmap: a QCustomPlot colour map of StepGrid (step_grid.h),
// one row per rank (the first on top), one column per step, coloured by how far the rank's compute
// time (first, as the slow test measures it; or step time, or wait in collectives: the box above
// it) is from the step's median: blue
// below, white at, red above, on a colour bar in percent that says so; the cells where the report's stated
// test marked the rank slow carry a mark, and slow ranks' rows say so in their label. Hovering a
// cell tells rank, step, the three times and, when slow, why (the test and its numbers);
// double-clicking a cell asks to open that rank at that step.
#include <memory>
#include <utility>

#include <QPoint>
#include <QWidget>

#include "core/analysis/ranks/rank_merge.h"
#include "widgets/cluster/step_grid.h"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPGraph;
class QComboBox;
class QLabel;
class QMouseEvent;
class QResizeEvent;

namespace contend::widgets {

class StepHeatmap : public QWidget {
    Q_OBJECT
  public:
    explicit StepHeatmap(QWidget* parent = nullptr);
    void setReport(std::shared_ptr<const ClusterReport> report);
    void setMetric(StepMetric metric);
    StepMetric metric() const { return m_grid.metric; }
    void setTitle(const QString& title);
    // One colour scale for two heatmaps (compare): both show the union of their ranges and
    // follow each other's metric. Null unlinks.
    void setPeer(StepHeatmap* peer);
    const StepGrid& grid() const { return m_grid; }
    QCustomPlot* plot() const { return m_plot; }
    // Clear pixels between the colour bar's title and the plot's right edge.
    static constexpr int kRightMarginPx = 10;
    QComboBox* metricBox() const { return m_metricBox; }
    // The colour bar's range in the last refresh: -d..+d, percent from the step's median.
    std::pair<double, double> colourRange() const { return m_range; }
    // Slow cells marked in the last refresh.
    int slowMarks() const { return m_marks; }
    // The cell under a position in the plot's coordinates: {row, column}, or {-1, -1}.
    std::pair<int, int> cellAt(QPoint plotPos) const;
    // The centre of a cell in the plot's coordinates (tests, screenshots).
    QPoint cellCentre(int row, int column) const;
    // The tooltip of a cell (rich text); empty outside the grid or for a missing cell.
    QString cellTooltip(int row, int column) const;
    // The label of a row on the rank axis ("rank 5  ▲ slow in 12 steps").
    QString rowLabel(int row) const;
    void refresh();
    // The colour bar's title: the longest of its forms that fits the bar's height.
    void fitScaleLabel();

  signals:
    // A double-click on a cell: open that rank (at that step).
    void cellActivated(int rank, quint32 step);

  protected:
    // The rank labels that fit depend on the height: laid out again after a resize.
    void resizeEvent(QResizeEvent* e) override;

  private:
    void onMove(QMouseEvent* e);
    void onDoubleClick(QMouseEvent* e);
    double ownRange() const;  // the grid's largest |deviation|

    std::shared_ptr<const ClusterReport> m_report;
    StepGrid m_grid;
    StepHeatmap* m_peer = nullptr;
    QCustomPlot* m_plot;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
    QString m_scaleLabel;  // the colour bar's full title (fitScaleLabel shortens it to the bar)
    QCPGraph* m_slow;
    QComboBox* m_metricBox;
    QLabel* m_title;
    std::pair<double, double> m_range{0, 0};
    int m_marks = 0;
};

}  // namespace contend::widgets
