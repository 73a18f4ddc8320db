#pragma once
// The contention heatmap: a QCustomPlot colour map of the grid from heatmap_grid.h, time on x
// (binned to the timeline's view, which it follows), resources or streams on y. Clicking a cell
// asks the timeline to zoom to the contention window there (and selects it), or to the bin and
// selects the worst flagged operator in the cell; contention windows are outlined in their
// resource's row; hovering a cell tells its value, time range
// and operators. Rows are whole cells, the first and last included.
#include <memory>
#include <utility>

#include <QPoint>
#include <QWidget>

#include "core/analysis/report.h"
#include "core/trace/trace.h"
#include "widgets/heatmap/heatmap_grid.h"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QComboBox;
class QLabel;
class QTimer;

namespace contend::widgets {

class HeatmapView : public QWidget {
    Q_OBJECT
  public:
    explicit HeatmapView(QWidget* parent = nullptr);
    void setTrace(TracePtr trace);
    void setReport(std::shared_ptr<const Report> report);
    // Enables the "pressure" metric for resource rows.
    void setPressureSource(PressureSource source);
    void setRows(HeatmapRows rows);
    void setMetric(HeatmapMetric metric);
    const HeatmapGrid& grid() const { return m_grid; }
    QCustomPlot* plot() const { return m_plot; }
    // Rebuilds the grid now instead of on the next event-loop turn (tests, screenshots).
    void refreshNow();
    // The cell under a widget position of the plot: {row, bin}, or {-1, -1}.
    std::pair<int, int> cellAt(QPoint plotPos) const;
    // The tooltip of a cell: row, time range, value, the flagged operators in it; empty outside.
    QString cellTooltip(int row, int bin) const;
    // What a click on the cell does (zoom, select), as the mouse does.
    void activateCell(int row, int bin);
    // Side by side with another run's heatmap (compare): both get the same rows and one colour
    // scale (the larger peak of the two). Null unlinks.
    void setPeer(HeatmapView* peer);
    // Top of the colour scale in the last refresh.
    double colourTop() const { return m_top; }
    // Contention windows outlined in the last refresh (at most kMaxOutlines).
    int windowOutlines() const { return m_outlines; }
    static constexpr int kMaxOutlines = 2000;

  public slots:
    void setViewRange(qint64 t0, qint64 t1);

  signals:
    void zoomRequested(qint64 t0, qint64 t1);
    void windowActivated(quint32 window);
    // A click on a cell without a window selects its worst flagged operator.
    void sliceActivated(quint32 slice);

  private:
    void scheduleRefresh();
    void refresh();
    void onClick(QMouseEvent* e);
    void onMove(QMouseEvent* e);

    TracePtr m_trace;
    std::shared_ptr<const Report> m_report;
    PressureSource m_pressure;
    HeatmapRows m_rows = HeatmapRows::Resources;
    HeatmapMetric m_metric = HeatmapMetric::ExtraWait;
    TimeNs m_t0 = 0, m_t1 = 0;
    HeatmapGrid m_grid;
    QCustomPlot* m_plot;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
    QComboBox* m_rowsBox;
    QComboBox* m_metricBox;
    QLabel* m_note;
    QTimer* m_timer;
    int m_outlines = 0;
    HeatmapView* m_peer = nullptr;
    double m_top = 0;
};

}  // namespace contend::widgets
