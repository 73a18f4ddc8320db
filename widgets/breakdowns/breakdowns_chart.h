#pragma once
// HTA's breakdowns of the report (core/analysis/breakdowns) as charts: per rank the temporal
// breakdown and per stream the idle time, as stacked bars in percent of their whole; per copy
// kind the bandwidth, HTA's median sample beside each copy's median (log scale), and each kind's
// copies as a histogram of their GB/s (bandwidth_histogram_chart.h); beside them the rows as
// tables (ranks and their streams: temporal, overlap, idle, queue length; launch statistics per
// kernel), and below, the sections the trace could not give with their reasons.
//
// Over the whole trace (the report's figures) or over a range selected on the timeline (the
// app computes them off the GUI thread, breakdowns.h, and hands them over): the title says which,
// "range a – b" with a Whole Trace button that asks for the whole trace back. A selected operator
// or finding marks its rank's and streams' rows; opening a stream's row asks to show that stream.
#include <optional>
#include <utility>
#include <vector>

#include <QWidget>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "widgets/common/session_view.h"

class QCustomPlot;
class QLabel;
class QPushButton;
class QTabWidget;

namespace contend::widgets {
class BandwidthHistogramChart;
class BreakdownRowsModel;
class LaunchModel;
class TablePanel;
}  // namespace contend::widgets

namespace contend::widgets {

class BreakdownsChart : public QWidget, public SessionView {
    Q_OBJECT
  public:
    explicit BreakdownsChart(QWidget* parent = nullptr);
    // SessionView: the report's breakdowns (none without a report); a new trace shows the whole
    // of it, a new report of the same trace keeps a range shown (its figures do not depend on
    // the thresholds).
    void showTrace(const ViewInputs& in) override;
    void showReport(const ViewInputs& in) override;
    void showAnalysis(const ViewInputs& in) override { showReport(in); }
    // The whole trace's breakdowns, shown.
    void setBreakdowns(const TraceBreakdowns& b);
    void clear();

    // A range [t0, t1] (absolute ns) asked for: the title says its figures are coming; what is
    // shown stays until showRange.
    void setRangePending(TimeNs t0, TimeNs t1);
    // The breakdowns over [t0, t1].
    void showRange(TimeNs t0, TimeNs t1, const TraceBreakdowns& b);
    // Back to the whole trace's figures.
    void showWhole();
    // The range shown, if any (else the whole trace).
    std::optional<std::pair<TimeNs, TimeNs>> range() const { return m_range; }
    bool rangePending() const { return m_pending.has_value(); }
    // Marks the rows of a selected operator or finding: its rank's and its streams' (rank -2: none).
    void highlight(int rank, std::vector<int> streams);

    QCustomPlot* timePlot() const { return m_time; }
    QCustomPlot* bandwidthPlot() const { return m_bandwidth; }
    BandwidthHistogramChart* histogram() const { return m_histogram; }
    QLabel* title() const { return m_title; }
    QPushButton* wholeTraceButton() const { return m_wholeButton; }
    TablePanel* rowsPanel() const { return m_rowsPanel; }
    BreakdownRowsModel* rowsModel() const { return m_rows; }
    LaunchModel* launchModel() const { return m_launch; }

  signals:
    // The Whole Trace button: the window clears the range (and calls showWhole).
    void wholeTraceRequested();
    // A stream's row opened (double-click, Enter): show it on the timeline.
    void streamActivated(int stream);

  private:
    void display(const TraceBreakdowns& b);
    void updateTitle();
    void plotTime(const TraceBreakdowns& b);
    void plotBandwidth(const TraceBreakdowns& b);

    QLabel* m_title;
    QPushButton* m_wholeButton;
    QCustomPlot* m_time;
    QCustomPlot* m_bandwidth;
    BandwidthHistogramChart* m_histogram;
    QTabWidget* m_tables;
    BreakdownRowsModel* m_rows;
    TablePanel* m_rowsPanel;
    LaunchModel* m_launch;
    TablePanel* m_launchPanel;
    QLabel* m_notes;
    TraceBreakdowns m_whole;  // the report's
    TraceBreakdowns m_shown;  // the whole trace's or the range's
    TimeNs m_origin = 0;      // the trace's begin: range times are shown from it
    std::optional<std::pair<TimeNs, TimeNs>> m_range, m_pending;
};

}  // namespace contend::widgets
