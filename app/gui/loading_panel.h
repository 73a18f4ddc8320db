#pragma once
// What the centre of the main window shows while a trace opens: the file (name and folder), the
// stage with its numbers ("Reading run.json.gz: 120 of 260 MB", "Analysing contention: 1.2M
// operators"), a progress bar (busy while a stage has no fraction), the time so far and Cancel,
// where the user is looking rather than in the status bar.
#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace contend::gui {

class LoadingPanel : public QWidget {
    Q_OBJECT
  public:
    explicit LoadingPanel(QWidget* parent = nullptr);
    // A load of `path` begins.
    void start(const QString& path);
    // Progress of the load: 0..1 (negative: this stage has no fraction) and the stage in words.
    void setStage(double fraction, const QString& stage);
    // The load ended (opened, failed or cancelled): the clock stops.
    void stop();
    bool running() const;
    QString fileText() const;
    QString stageText() const;
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* bar() const { return m_bar; }

  signals:
    void cancelRequested();

  private:
    void tick();
    QLabel* m_file;
    QLabel* m_folder;
    QLabel* m_stage;
    QLabel* m_elapsed;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
    QTimer* m_timer;
    QElapsedTimer m_clock;
};

}  // namespace contend::gui
