#pragma once
// HTA's breakdowns of the report (core/analysis/breakdowns) as charts: per rank the temporal
// breakdown and per stream the idle time, as stacked bars in percent of their whole; per copy
// kind the bandwidth, HTA's median sample beside each copy's median (log scale), and each kind's
// copies as a histogram of their GB/s (bandwidth_histogram_chart.h); and below, the sections the
// trace could not give with their reasons.
#include <QWidget>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "widgets/common/session_view.h"

class QCustomPlot;
class QLabel;

namespace contend::widgets {
class BandwidthHistogramChart;
}

namespace contend::widgets {

class BreakdownsChart : public QWidget, public SessionView {
    Q_OBJECT
  public:
    explicit BreakdownsChart(QWidget* parent = nullptr);
    // SessionView: the report's breakdowns (none without a report).
    void showTrace(const ViewInputs& in) override { showReport(in); }
    void showReport(const ViewInputs& in) override {
        if (in.report)
            setBreakdowns(in.report->breakdowns);
        else
            clear();
    }
    void setBreakdowns(const TraceBreakdowns& b);
    void clear();
    QCustomPlot* timePlot() const { return m_time; }
    QCustomPlot* bandwidthPlot() const { return m_bandwidth; }
    BandwidthHistogramChart* histogram() const { return m_histogram; }

  private:
    QLabel* m_title;
    QCustomPlot* m_time;
    QCustomPlot* m_bandwidth;
    BandwidthHistogramChart* m_histogram;
    QLabel* m_notes;
};

}  // namespace contend::widgets
