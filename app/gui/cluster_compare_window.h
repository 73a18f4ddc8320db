#pragma once
// Two clusters before and after (File ▸ Compare Cluster…, `contend --compare A.json B.json` when
// both are cluster reports or folders of ranks): the verdict in words (slow ranks gone, still slow,
// new; the mean step time), both ranks x steps heatmaps side by side on one colour scale, and per
// rank the step and compute time before and after with its slow steps (compareClusters,
// core/analysis/ranks/rank_compare.h). Each side opens as the cluster window opens it, one after the
// other, off the GUI thread.
#include <memory>

#include <QMainWindow>
#include <QPointer>

#include "app/gui/cluster_load_thread.h"
#include "core/analysis/ranks/rank_compare.h"

class QLabel;
class QStackedWidget;

namespace contend::widgets {
class StepHeatmap;
class TablePanel;
class RankCompareModel;
}  // namespace contend::widgets

namespace contend::gui {

class LoadingPanel;
class MessageBar;

class ClusterCompareWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit ClusterCompareWindow(QWidget* parent = nullptr);
    ~ClusterCompareWindow() override;
    void open(const QString& base, const QString& now);
    void cancel();

    const ClusterComparison* comparison() const { return m_cmp.get(); }
    QLabel* verdict() const { return m_verdict; }
    widgets::StepHeatmap* baseHeatmap() const { return m_base; }
    widgets::StepHeatmap* newHeatmap() const { return m_new; }
    widgets::TablePanel* rankPanel() const { return m_panel; }
    widgets::RankCompareModel* rankModel() const { return m_model; }
    MessageBar* messageBar() const { return m_message; }

  signals:
    void compared();
    void failed(const QString& message);

  private:
    void load(int side);
    void finish();

    QString m_paths[2];
    OpenedClusterPtr m_sides[2];
    QPointer<ClusterLoadThread> m_load;
    std::shared_ptr<const ClusterComparison> m_cmp;
    QStackedWidget* m_centre;
    LoadingPanel* m_loading;
    MessageBar* m_message;
    QLabel* m_verdict;
    widgets::StepHeatmap* m_base;
    widgets::StepHeatmap* m_new;
    widgets::RankCompareModel* m_model;
    widgets::TablePanel* m_panel;
};

}  // namespace contend::gui
