#pragma once
// The bottleneck shift of a compare: extra wait per resource as grouped bars, baseline next to
// comparison (QCustomPlot), with the shift in words above ("bandwidth 64% -> compute 51%").
// Only resources that have extra wait in either run get a bar pair. The resource names under
// the bars never run together: when the chart is too narrow for them side by side they turn
// (45 degrees, then upright), and only when even upright names do not fit is every other one
// left out (each bar pair's tooltip still names its resource).
#include <vector>

#include <QWidget>

#include "core/analysis/compare/compare.h"

class QCustomPlot;
class QCPBars;
class QLabel;

namespace contend::widgets {

// How tick labels fit under bars `spacingPx` apart: their rotation in degrees (0, -45 or -90)
// and `step` (every step-th label shown). `widestPx` and `lineHeightPx` are the widest label's
// advance and the font's line height. Pure, for the tests.
struct TickLabelFit {
    double rotation = 0;
    int step = 1;
};
TickLabelFit fitTickLabels(double spacingPx, double widestPx, double lineHeightPx);

class ShiftChart : public QWidget {
    Q_OBJECT
  public:
    explicit ShiftChart(QWidget* parent = nullptr);
    void setResult(const CompareResult& result);
    void clear();
    QCustomPlot* plot() const { return m_plot; }
    // Resources shown, left to right (for tests).
    const std::vector<Resource>& resources() const { return m_resources; }
    QCPBars* baseBars() const { return m_base; }
    QCPBars* newBars() const { return m_new; }
    // The fit of the resource names to the chart's width, as last laid out.
    TickLabelFit labelFit() const { return m_fit; }
    // The hover text at x coordinate `key` (bar pair k at key k + 1): its resource and the two
    // extra waits; empty between pairs.
    QString resourceTip(double key) const;

  private:
    void fitLabels();
    void setTicks();

    QLabel* m_title;
    QCustomPlot* m_plot;
    QCPBars* m_base;
    QCPBars* m_new;
    std::vector<Resource> m_resources;
    TickLabelFit m_fit;
};

}  // namespace contend::widgets
