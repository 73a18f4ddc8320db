#pragma once
// The cluster view: a job's ranks side by side, as a cluster report (contend.cluster/1) tells
// them. A ranks x steps heatmap (step, compute or wait time on one colour bar; the cells the
// report's stated test marked slow carry a mark, slow ranks' rows say so), the summary (slow
// ranks, spread, the test), the late collectives with the chain sentence, the ranks, and HTA's
// breakdowns per rank and stream (with why a rank has none). Opening a
// folder analyses its ranks off the GUI thread (ClusterLoadThread: progress and Cancel); opening
// CLUSTER.json reads it. Drill-down: double-clicking a rank (or a cell) opens its trace in the
// normal main window (at that step), a late collective opens the late rank with that collective
// selected and zoomed to; when the trace is not reachable the message bar says so and why.
#include <optional>

#include <QMainWindow>
#include <QPointer>

#include "app/gui/cluster_load_thread.h"
#include "core/analysis/model/report.h"
#include "core/common/failure.h"
#include "core/trace/trace.h"

class QLabel;
class QStackedWidget;
class QTabWidget;

namespace contend::widgets {
class StepHeatmap;
class TablePanel;
class LateCollectiveModel;
class RankModel;
class RankBreakdownsView;
}  // namespace contend::widgets

namespace contend::gui {

class MainWindow;
class MessageBar;
class LoadingPanel;
class ClusterCompareWindow;

class ClusterWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit ClusterWindow(QWidget* parent = nullptr);
    ~ClusterWindow() override;

    // Starts opening a cluster report or a folder of ranks (a load in progress is cancelled).
    void open(const QString& path);
    void cancel();
    bool busy() const { return m_load != nullptr; }
    const OpenedCluster* cluster() const { return m_cluster.get(); }

    // Drill-down. Opens `rank`'s trace in a new main window (deleted when closed); with a step,
    // zooms to that step once it is analysed. Null, with the reason in the message bar, when the
    // trace is not reachable.
    MainWindow* openRank(int rank, qint64 step = -1);
    // Opens the late rank of report.collectives[index] with that collective occurrence selected
    // and zoomed to once the trace is analysed (collectiveShown says which slice).
    MainWindow* openCollective(int index);
    // Compares this cluster (the baseline) with another report or folder.
    ClusterCompareWindow* compareWith(const QString& path);
    // Writes the cluster report as contend-cli merge does ("json" or "markdown"), atomically;
    // nullopt when saved, else the Failure (nothing to save, or the file that cannot be written).
    std::optional<Failure> saveReport(const QString& path, const QString& format);

    widgets::StepHeatmap* heatmap() const { return m_heatmap; }
    widgets::TablePanel* collectivePanel() const { return m_collectivePanel; }
    widgets::TablePanel* rankPanel() const { return m_rankPanel; }
    widgets::LateCollectiveModel* collectiveModel() const { return m_collectives; }
    widgets::RankModel* rankModel() const { return m_ranks; }
    // HTA's breakdowns per rank and stream, with each rank's "not computed" reasons.
    widgets::RankBreakdownsView* breakdowns() const { return m_breakdowns; }
    QTabWidget* tabs() const { return m_tabs; }
    QLabel* summary() const { return m_summary; }
    // The selected late collective's chain in full, under the tables.
    QLabel* chain() const { return m_chain; }
    MessageBar* messageBar() const { return m_message; }
    LoadingPanel* loadingPanel() const { return m_loading; }

    // The summary in words (slow ranks, spread, the test) for a report.
    static QString summaryText(const ClusterReport& c);

  signals:
    void opened();
    void failed(const QString& message);
    void cancelled();
    // A drill-down's main window has its trace on screen; slice is the collective selected
    // (kNone for a rank opened without one, or when the collective was not found).
    void rankOpened(contend::gui::MainWindow* window, int rank);
    void collectiveShown(contend::gui::MainWindow* window, quint32 slice);

  protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

  private:
    // The step where `rank`'s compute was furthest above the step's median; -1 if none was.
    qint64 worstStep(int rank) const;
    void buildMenus();
    void onDone(OpenedClusterPtr cluster);
    void onFailed(const QString& message);
    void chooseReport();
    void chooseFolder();
    void chooseCompare();
    void chooseSave(const QString& format);
    MainWindow* openTrace(int rank, const QString& path);

    QPointer<ClusterLoadThread> m_load;
    OpenedClusterPtr m_cluster;
    QStackedWidget* m_centre = nullptr;
    LoadingPanel* m_loading = nullptr;
    MessageBar* m_message = nullptr;
    QLabel* m_summary = nullptr;
    widgets::StepHeatmap* m_heatmap = nullptr;
    QTabWidget* m_tabs = nullptr;
    widgets::LateCollectiveModel* m_collectives = nullptr;
    widgets::RankModel* m_ranks = nullptr;
    widgets::TablePanel* m_collectivePanel = nullptr;
    widgets::TablePanel* m_rankPanel = nullptr;
    widgets::RankBreakdownsView* m_breakdowns = nullptr;
    QLabel* m_notes = nullptr;
    QLabel* m_chain = nullptr;
};

// Finds a collective occurrence in a rank's analysed trace: the slice named `name` starting at
// `startNs` (the cluster report's late_start_ns), else the ordinal-th collective of `key` in the
// step `iteration` (older reports). kNone when absent.
quint32 findCollectiveSlice(const Trace& trace, const Report& report, const ClusterCollective& k);

// The finding with the most extra wait starting in [start, end) of `report`'s trace: the culprit a
// double-click on a rank or a step selects. kNone when the step has none.
quint32 stepCulprit(const Report& report, TimeNs start, TimeNs end);

}  // namespace contend::gui
