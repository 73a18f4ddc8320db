#pragma once
// The slim bar above the timeline while a trace's analysis runs behind its preview (progressive
// opening, analysis_session.h): the stage in words ("Analysing contention, signatures (3 of
// 10)…"), its progress and Cancel, which keeps the trace on screen without findings. The
// loading panel has the centre until the preview; this bar has the rest of the open.
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace contend::gui {

class AnalysingStrip : public QWidget {
    Q_OBJECT
  public:
    explicit AnalysingStrip(QWidget* parent = nullptr);
    // Progress of the open: 0..1 and the stage in words.
    void setStage(double fraction, const QString& stage);
    QString stageText() const;
    QPushButton* cancelButton() const { return m_cancel; }

  signals:
    void cancelRequested();

  private:
    QLabel* m_stage;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
};

}  // namespace contend::gui
