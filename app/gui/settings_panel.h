#pragma once
// The analysis settings: sliders with exact spin boxes for the anomaly coefficient and the
// overlap ratio threshold, and the granularity of the network view. Every slider move is
// reported at once (the session coalesces the re-thresholds); the summary line under them says
// what the current thresholds flag. The ranges and defaults are Thresholds' (thresholds.h).
#include <QWidget>

#include "core/analysis/model/thresholds.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTextBrowser;
class QSlider;

namespace contend::gui {

// The thresholds the main window last used (QSettings "analysis/coefficient" and
// "analysis/overlap"), brought into range, or the defaults; the compare window opened from the
// command line starts from them too.
Thresholds savedThresholds();
void saveThresholds(const Thresholds& t);

class SettingsPanel : public QWidget {
    Q_OBJECT
  public:
    // The Network dock's grouping and drill-down level, kept in step with it both ways.
    enum Granularity { WholeNetwork = 0, PerOperatorType = 1, PerOccurrence = 2, PerIteration = 3 };
    explicit SettingsPanel(QWidget* parent = nullptr);

    Thresholds thresholds() const;
    double coefficient() const;
    double overlap() const;
    int granularity() const;
    // Sets the values (brought into range) without emitting.
    void setValues(const Thresholds& thresholds, int granularity);
    void setSummary(const QString& text);
    QString summary() const;
    void setAnalysisAvailable(bool available, const QString& why = {});

    QSlider* coefficientSlider() const { return m_coefSlider; }
    QSlider* overlapSlider() const { return m_overlapSlider; }
    QDoubleSpinBox* coefficientSpin() const { return m_coefSpin; }
    QDoubleSpinBox* overlapSpin() const { return m_overlapSpin; }
    QTextBrowser* summaryView() const { return m_summary; }

  signals:
    void thresholdsChanged(const contend::Thresholds& thresholds);
    void granularityChanged(int granularity);

  private:
    QSlider* m_coefSlider;
    QDoubleSpinBox* m_coefSpin;
    QSlider* m_overlapSlider;
    QDoubleSpinBox* m_overlapSpin;
    QComboBox* m_granularity;
    // Wraps to the dock's width at word boundaries, and inside a word longer than the width (a
    // signature with its shapes), scrolling down; never cut at the right edge.
    QTextBrowser* m_summary;
    QString m_summaryText;
    QLabel* m_unavailable;
};

}  // namespace contend::gui
