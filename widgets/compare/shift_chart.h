#pragma once
// The bottleneck shift of a compare: extra wait per resource as grouped bars, baseline next to
// comparison (QCustomPlot), with the shift in words above ("bandwidth 64% -> compute 51%").
// Only resources that have extra wait in either run get a bar pair.
#include <vector>

#include <QWidget>

#include "core/analysis/compare/compare.h"

class QCustomPlot;
class QCPBars;
class QLabel;

namespace contend::widgets {

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

  private:
    QLabel* m_title;
    QCustomPlot* m_plot;
    QCPBars* m_base;
    QCPBars* m_new;
    std::vector<Resource> m_resources;
};

}  // namespace contend::widgets
