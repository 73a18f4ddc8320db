#pragma once
// The contention heatmap: a QCustomPlot colour map of the grid from heatmap_grid.h, time on x
// (binned to the timeline's view, which it follows), resources or streams on y. Clicking a cell
// asks the timeline to zoom to the contention window there (and selects it), or to the bin and
// selects the worst flagged operator in the cell; contention windows are outlined in their
// resource's row; hovering a cell tells its value, time range
// and operators. Rows are whole cells, the first and last included. Aligned with a timeline
// (alignTimeAxisWith), its time axis spans the same screen columns as the timeline's time area,
// so a time is drawn at the same x in both; the colour key is in the bar above the plot.
// Rows are at least a line of label text high (minRowHeight), so their labels never overlap:
// with more rows than the pane has room for, the plot scrolls vertically. The bar says what
// the colours and outlines are: the cells are the flagged operators' extra wait (set by the
// coefficient), the outlines the contention windows (made by the overlap ratio), counted.
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include <QPoint>
#include <QPointer>
#include <QRect>
#include <QRectF>
#include <QWidget>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"
#include "widgets/common/session_view.h"
#include "widgets/heatmap/heatmap_grid.h"

class QCustomPlot;
class QCPColorMap;
class QCPItemRect;
class QComboBox;
class QLabel;
class QScrollArea;
class QTimer;

namespace contend::widgets {

class ZoomControl;

class HeatmapView : public QWidget, public SessionView {
    Q_OBJECT
  public:
    explicit HeatmapView(QWidget* parent = nullptr);
    // SessionView: the trace with its pressure source and report, or a new report.
    void showTrace(const ViewInputs& in) override;
    void showReport(const ViewInputs& in) override;
    void showAnalysis(const ViewInputs& in) override;
    // Shows the range of `zoom` plus `offset` (its run's alignment in compare); it never
    // publishes (a drag asks the timeline to zoom: zoomRequested).
    void bindZoom(ZoomControl* zoom, qint64 offset = 0);
    void setZoomOffset(qint64 offset);
    void setTrace(TracePtr trace);
    void setReport(std::shared_ptr<const Report> report);
    // Enables the "pressure" metric for resource rows.
    void setPressureSource(PressureSource source);
    void setRows(HeatmapRows rows);
    void setMetric(HeatmapMetric metric);
    const HeatmapGrid& grid() const { return m_grid; }
    // The time range shown (absolute ns).
    std::pair<qint64, qint64> viewRange() const { return {m_t0, m_t1}; }
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
    // The outlines of the last refresh in plot coordinates (x: ms since the trace's start, y:
    // row from the bottom), in window order; a window narrower than 6 px is a cap (filled).
    struct Outline {
        QRectF rect;
        bool filled = false;
        bool operator==(const Outline&) const = default;
    };
    std::vector<Outline> outlines() const;
    // Times the grid was built (a report that changes only the windows reuses it).
    int gridBuilds() const { return m_gridBuilds; }
    // Lines the time axis up with another view's time area: `timeArea` gives that area in the
    // reference's own coordinates. The plot then keeps the same left and right screen edges
    // (its row labels in the margin left of them), following resizes of either; while the two
    // do not overlap horizontally (a floating dock) the margins are automatic. Null unlinks.
    void alignTimeAxisWith(QWidget* reference, std::function<QRect()> timeArea);
    // True when the last replot used the reference's edges.
    bool timeAxisAligned() const { return m_aligned; }
    // The x of a time (absolute ns) in plot pixels, as the colour map draws it.
    double xOf(qint64 t) const;
    // The colour key above the plot ("0 [gradient] 0.78 ops waiting").
    QLabel* colourKey() const { return m_key; }
    // The line beside the key: the peak and the contention windows outlined in view.
    QLabel* note() const { return m_note; }
    // The least height of a row, px: a label line and some air.
    int minRowHeight() const;
    // A row's height in the last replot, px.
    double rowHeight() const;
    // What holds the plot and scrolls it when the rows need more height than the pane has.
    QScrollArea* scrollArea() const { return m_scroll; }

  public slots:
    void setViewRange(qint64 t0, qint64 t1);

  signals:
    void zoomRequested(qint64 t0, qint64 t1);
    void windowActivated(quint32 window);
    // A click on a cell without a window selects its worst flagged operator.
    void sliceActivated(quint32 slice);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;

  private:
    void scheduleRefresh();
    void refresh();
    void onRefreshTimer();
    // The grid for the current inputs: the last one when only the windows changed.
    void updateGrid(int bins, const std::vector<Resource>& alsoRows);
    void updateOutlines(int rows);
    void onClick(QMouseEvent* e);
    void onMove(QMouseEvent* e);
    void applyAlignment();
    void applyColours();
    void updateKey();

    TracePtr m_trace;
    std::shared_ptr<const Report> m_report;
    PressureSource m_pressure;
    ZoomControl* m_zoom = nullptr;
    qint64 m_zoomOffset = 0;
    HeatmapRows m_rows = HeatmapRows::Resources;
    HeatmapMetric m_metric = HeatmapMetric::ExtraWait;
    TimeNs m_t0 = 0, m_t1 = 0;
    HeatmapGrid m_grid;
    QCustomPlot* m_plot;
    QScrollArea* m_scroll;
    QCPColorMap* m_map;
    QComboBox* m_rowsBox;
    QComboBox* m_metricBox;
    QLabel* m_note;
    QLabel* m_key;
    QTimer* m_timer;
    int m_outlines = 0;
    // The outline boxes, kept between refreshes (shown: the first m_outlines, the rest hidden):
    // creating and deleting a QCPItemRect per window was a third of a re-threshold's refresh.
    std::vector<QCPItemRect*> m_boxes;
    // What m_grid was built from (updateGrid).
    std::shared_ptr<const Report> m_gridReport;
    TracePtr m_gridTrace;
    std::vector<Resource> m_gridAlsoRows;
    int m_gridBins = -1;
    int m_pressureGeneration = 0, m_gridPressureGeneration = -1;
    int m_gridBuilds = 0;
    bool m_stale = false;  // a refresh was due while hidden: refresh when shown
    HeatmapView* m_peer = nullptr;
    double m_top = 0;
    QPointer<QWidget> m_alignRef;
    std::function<QRect()> m_alignArea;
    bool m_aligned = false;
    int m_alignLeft = -1, m_alignRight = -1;  // margins of the last aligned replot
};

}  // namespace contend::widgets
