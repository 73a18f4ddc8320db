#pragma once
// Each copy kind's copies as a histogram of their own bandwidth (core's CopyHistogram: the
// report's memory-bandwidth section, HTA's copy kinds and scope, GB/s per copy): one histogram
// per kind on a log-spaced GB/s axis, the median copy marked; a kind chosen above it (or by a
// click on its bars in the tab's bandwidth chart: showKind). Hidden when the report has no copy
// with a bandwidth.
#include <vector>

#include <QWidget>

#include "core/analysis/breakdowns/breakdown_values.h"

class QComboBox;
class QCustomPlot;

namespace contend::widgets {

class BandwidthHistogramChart : public QWidget {
    Q_OBJECT
  public:
    explicit BandwidthHistogramChart(QWidget* parent = nullptr);
    // The rows of the report's memory-bandwidth section (empty: nothing shown).
    void setRows(const std::vector<CopyBandwidth>& rows);
    QCustomPlot* plot() const { return m_plot; }
    // How many kinds have a histogram, and the one shown (-1: none).
    int kinds() const { return static_cast<int>(m_rows.size()); }
    int shownKind() const { return m_shown; }
    // The k-th kind of the rows given (their order), when it has a histogram.
    void showKind(int k);

  private:
    void draw();
    QComboBox* m_kind;
    QCustomPlot* m_plot;
    std::vector<CopyBandwidth> m_rows;  // the kinds with a histogram
    std::vector<int> m_rowOfGiven;      // per row given: index into m_rows, -1 without a histogram
    int m_shown = -1;
};

}  // namespace contend::widgets
