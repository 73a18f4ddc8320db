#pragma once
// What the main window's centre shows before any trace is open (and again when the only trace
// failed or was cancelled): what Contend does, the ways to open something (a trace, an Ascend
// folder, a cluster, the bundled sample) and the recent files, each one click away, as Qt
// Creator's and Nsight Systems' start pages do. The heatmap and tables stay empty until then.
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace contend::gui {

class WelcomePanel : public QWidget {
    Q_OBJECT
  public:
    explicit WelcomePanel(QWidget* parent = nullptr);
    // Re-reads the recent files (RecentFiles) and whether the bundled sample is installed.
    void refresh();
    QListWidget* recentList() const { return m_recent; }
    QPushButton* sampleButton() const { return m_sample; }

  signals:
    void openFileRequested();
    void openFolderRequested();
    void openClusterRequested();
    void openPathRequested(const QString& path);
    void guideRequested();

  private:
    QListWidget* m_recent;
    QLabel* m_recentTitle;
    QPushButton* m_sample;
    QString m_samplePath;
};

}  // namespace contend::gui
