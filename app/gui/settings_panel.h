#pragma once
// The analysis settings: sliders with exact spin boxes for the anomaly coefficient and the
// overlap ratio threshold, and the granularity of the network view. Every slider move is
// reported at once (the session coalesces the re-thresholds); the summary line under them says
// what the current thresholds flag.
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace contend::gui {

class SettingsPanel : public QWidget {
    Q_OBJECT
  public:
    // The Network dock's grouping and drill-down level, kept in step with it both ways.
    enum Granularity { WholeNetwork = 0, PerOperatorType = 1, PerOccurrence = 2, PerIteration = 3 };
    explicit SettingsPanel(QWidget* parent = nullptr);

    double coefficient() const;
    double overlap() const;
    int granularity() const;
    // Sets the values without emitting.
    void setValues(double coefficient, double overlap, int granularity);
    void setSummary(const QString& text);
    QString summary() const;
    void setAnalysisAvailable(bool available, const QString& why = {});

    QSlider* coefficientSlider() const { return m_coefSlider; }
    QSlider* overlapSlider() const { return m_overlapSlider; }
    QDoubleSpinBox* coefficientSpin() const { return m_coefSpin; }
    QDoubleSpinBox* overlapSpin() const { return m_overlapSpin; }

  signals:
    void thresholdsChanged(double coefficient, double overlap);
    void granularityChanged(int granularity);

  private:
    QSlider* m_coefSlider;
    QDoubleSpinBox* m_coefSpin;
    QSlider* m_overlapSlider;
    QDoubleSpinBox* m_overlapSpin;
    QComboBox* m_granularity;
    QLabel* m_summary;
    QLabel* m_unavailable;
};

}  // namespace contend::gui
