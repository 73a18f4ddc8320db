#pragma once
// The desktop app's window: the operator timeline in the middle; docks for the settings, the
// flagged operators, the network drill-down, windows, clusters, the contention heatmap, the
// per-operator breakdown and the selected operator's details. Opening and analysing run in the
// AnalysisSession, off the GUI thread; the views subscribe to it (ViewBinder) and to the
// window's ZoomControl and SelectionControl (widgets/common/view_state.h), so they keep in step
// without the window feeding them. Layout, recent files and settings persist in QSettings.
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <QMainWindow>
#include <QPointer>

#include "app/gui/opened_trace.h"
#include "core/analysis/model/thresholds.h"
#include "core/common/failure.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;

namespace contend::widgets {
class TimelineView;
class TablePanel;
class AnomalyModel;
class WindowModel;
class ClusterModel;
class PatternModel;
class OperatorBrowser;
class HeatmapView;
class BreakdownView;
class BreakdownsChart;
class OperatorDetails;
class ZoomControl;
class SelectionControl;
}  // namespace contend::widgets

namespace contend::gui {

class AnalysisSession;
class DockTabTips;
class CompareWindow;
class ClusterWindow;
class SettingsPanel;
class MessageBar;
class AnalysingStrip;
class LoadingPanel;
class WelcomePanel;
class SearchBar;
class TrackFilterBar;
class RangeBreakdowns;
class ViewBinder;
struct SessionState;

// The report's note of that kind ("no-shapes"), null when it has none.
const ReportNote* noteOfKind(const std::vector<ReportNote>& notes, std::string_view kind);
// A sentence for the summary when the flagged table's first rows (ranked by gain, or by score without a what-if) wait for
// another resource than the bottleneck (ordered by time); empty when they agree.
QString bottleneckVersusTable(const Report& r);
// The what-if's per-resource gains (total and per iteration) for the summary; empty when the
// report has no what-if.
QString whatIfSummaryText(const Report& r);

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts opening a trace file or Ascend profiler folder.
    void openPath(const QString& path);
    // The Open and Compare dialogs' file filter: every format the readers take (JSON, gzip,
    // Nsight Systems .sqlite, Ascend profiler .db), then one entry per kind, then all files.
    static QString traceFileFilter();
    // Writes the report as contend-cli analyze does ("json" or "markdown"), atomically;
    // nullopt when saved, else the Failure (nothing to save, or the file that cannot be written).
    std::optional<Failure> saveReport(const QString& path, const QString& format);
    // Writes the timeline as it is on screen as a PNG, atomically; nullopt when saved, else the
    // Failure.
    std::optional<Failure> exportViewPng(const QString& path);
    // Opens a compare window: the open trace (as it is analysed now) as the baseline, `path` as
    // the comparison, analysed with the same thresholds. Null when no trace is open.
    CompareWindow* compareWith(const QString& path);
    // Selects an operator everywhere (through the window's SelectionControl); `reveal` zooms the
    // timeline to it.
    void selectSlice(quint32 slice, bool reveal);
    // The shared visible range and selection the window's views subscribe to.
    widgets::ZoomControl* zoomControl() const { return m_zoom; }
    widgets::SelectionControl* selectionControl() const { return m_selection; }
    // Clusters (main_window_cluster.cpp): a cluster report or a folder of ranks opens in a
    // cluster window; openAny routes a path to that or to openPath.
    ClusterWindow* openCluster(const QString& path);
    void openAny(const QString& path);

    // Sessions (main_window_session.cpp, the format in session_file.h): saves the open trace's
    // path, the thresholds, the dock layout, the selection, the visible range and the timeline's
    // tracks, atomically; nullopt when saved, else the Failure.
    std::optional<Failure> saveSession(const QString& path);
    // Opens a saved session: its trace (unless it is the one open) with its thresholds, then the
    // rest once the analysis is in. A damaged session or a missing trace is an error in the
    // message bar naming the file and the place, and the trace already open stays. False when
    // refused at once (the trace may still fail to open later: the message bar says so).
    bool openSession(const QString& path);
    // View > Tracks (main_window_tracks.cpp): the filter bar above the timeline.
    TrackFilterBar* trackFilterBar() const { return m_trackFilter; }

    AnalysisSession* session() const { return m_session; }
    widgets::TimelineView* timeline() const { return m_timeline; }
    SettingsPanel* settingsPanel() const { return m_settings; }
    // View ▸ Critical Path (key P): the what-if's critical path on the timeline.
    QAction* criticalPathAction() const { return m_criticalPath; }
    widgets::TablePanel* anomalyPanel() const { return m_anomalyPanel; }
    widgets::TablePanel* windowPanel() const { return m_windowPanel; }
    widgets::TablePanel* clusterPanel() const { return m_clusterPanel; }
    widgets::TablePanel* patternPanel() const { return m_patternPanel; }
    widgets::OperatorBrowser* browser() const { return m_browser; }
    widgets::HeatmapView* heatmap() const { return m_heatmap; }
    widgets::BreakdownView* breakdown() const { return m_breakdown; }
    // The Breakdowns (HTA) tab, and what computes it over a range measured on the timeline.
    widgets::BreakdownsChart* breakdownsChart() const { return m_breakdowns; }
    RangeBreakdowns* rangeBreakdowns() const { return m_rangeBreakdowns; }
    widgets::OperatorDetails* details() const { return m_details; }
    MessageBar* messageBar() const { return m_message; }
    LoadingPanel* loadingPanel() const { return m_loading; }
    // Above the timeline while the analysis runs behind a preview (progressive opening).
    AnalysingStrip* analysingStrip() const { return m_strip; }
    WelcomePanel* welcomePanel() const { return m_welcome; }
    // The start page is in the centre (no trace open yet).
    bool showsWelcome() const;
    SearchBar* searchBar() const { return m_search; }
    // True while the centre shows the loading panel instead of the timeline.
    bool showsLoading() const;
    QDockWidget* dock(const QString& objectName) const;
    // The full names of the tabbed docks, as their tabs' tooltips.
    DockTabTips* dockTabs() const { return m_dockTabs; }
    // Restores a saved window geometry and dock layout (QMainWindow::saveGeometry/saveState);
    // refuses one that does not restore, or (when shown) leaves a dock below its minimum size,
    // and keeps the default layout instead. False when refused.
    bool restoreLayout(const QByteArray& geometry, const QByteArray& state);
    // Every visible dock at least its minimum readable size.
    bool layoutUsable() const;

  protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void changeEvent(QEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

  private:
    void buildViews();
    void buildDocks();
    void buildMenus();
    void buildStatusBar();
    void wire();
    // The Breakdowns (HTA) tab's links (main_window_breakdowns.cpp): the range, the selection,
    // a stream shown on the timeline.
    void wireBreakdowns();
    // Marks the rows of these slices' rank and streams in the Breakdowns tab (none: no marks).
    void highlightBreakdowns(const std::vector<std::uint32_t>& slices);
    void restoreSettings();
    void saveSettings() const;
    void rebuildRecentMenu();
    // After the views (ViewBinder) took a new trace or report: what the window itself shows.
    void onTraceShown(OpenedTracePtr opened);
    void onReportShown();
    void onFailed(const QString& path, const QString& message);
    void onSliceSelected(quint32 slice);
    void onGranularity(int g, bool raiseDock = true);
    void updateSummary();
    void updateActions();
    void chooseFile();
    void chooseFolder();
    void chooseCompareFile();
    void chooseReportFile(const QString& format);
    void chooseViewPng();
    void addClusterActions(QMenu* file);
    void zoomToWindow(quint32 windowIndex);
    void addSessionActions(QMenu* file);
    void addTrackActions(QMenu* view);
    // Per-trace tracks (main_window_tracks.cpp, TrackMemory): applied when a trace is shown,
    // saved on every change to the trace they were applied to, reset by Show All Tracks.
    void recallTracks(OpenedTracePtr opened);
    void rememberTracks();
    void resetTracks();
    bool showsTracksOf(const OpenedTrace* opened) const;
    // A session's thresholds, layout, tracks, range and selection on the open trace.
    void applySession(const SessionState& state, const QString& sessionPath);
    void sessionOpenFailed(const QString& tracePath);

  public:
    // Shows a contention window (cluster) in Details and Breakdown, replacing the operator
    // selection; index into the report's list.
    void showWindow(quint32 windowIndex);
    void showCluster(quint32 clusterIndex);
    // A contention pattern (index into the report's patterns): its costliest run selected and
    // revealed, all its runs beside the partner marked on the timeline, and in Breakdown its
    // runs beside against its runs apart. The marks and the two distributions go when another
    // operator, window or cluster is selected (Esc too).
    void showPattern(quint32 patternIndex);

  private:
    AnalysisSession* m_session = nullptr;
    ViewBinder* m_binder = nullptr;
    widgets::ZoomControl* m_zoom = nullptr;
    widgets::SelectionControl* m_selection = nullptr;
    widgets::TimelineView* m_timeline = nullptr;
    MessageBar* m_message = nullptr;
    SettingsPanel* m_settings = nullptr;
    widgets::AnomalyModel* m_anomalies = nullptr;
    widgets::WindowModel* m_windows = nullptr;
    widgets::ClusterModel* m_clusters = nullptr;
    widgets::PatternModel* m_patterns = nullptr;
    widgets::TablePanel* m_anomalyPanel = nullptr;
    widgets::TablePanel* m_windowPanel = nullptr;
    widgets::TablePanel* m_clusterPanel = nullptr;
    widgets::TablePanel* m_patternPanel = nullptr;
    widgets::OperatorBrowser* m_browser = nullptr;
    widgets::HeatmapView* m_heatmap = nullptr;
    widgets::BreakdownView* m_breakdown = nullptr;
    widgets::BreakdownsChart* m_breakdowns = nullptr;  // HTA's breakdowns of the report
    RangeBreakdowns* m_rangeBreakdowns = nullptr;      // ... over a range measured on the timeline
    std::weak_ptr<const Trace> m_rangeTrace;           // the trace it computes ranges of
    widgets::OperatorDetails* m_details = nullptr;
    QList<QDockWidget*> m_docks;
    DockTabTips* m_dockTabs = nullptr;
    QList<QAction*> m_timelineKeys;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QAction* m_saveJson = nullptr;
    QAction* m_saveMarkdown = nullptr;
    QAction* m_exportPng = nullptr;
    QAction* m_compare = nullptr;
    QAction* m_criticalPath = nullptr;
    QLabel* m_reportInfo = nullptr;
    QLabel* m_frameInfo = nullptr;
    QStackedWidget* m_centre = nullptr;
    LoadingPanel* m_loading = nullptr;
    AnalysingStrip* m_strip = nullptr;
    // The trace the views were last given (a preview's analysis is the same trace: the selection
    // made on the preview stays).
    std::weak_ptr<const Trace> m_shownTrace;
    WelcomePanel* m_welcome = nullptr;
    SearchBar* m_search = nullptr;
    QByteArray m_defaultState;
    // The dock layout's version: bump it when the docks change, so an old layout is not restored.
    static constexpr int kStateVersion = 3;
    TrackFilterBar* m_trackFilter = nullptr;
    QAction* m_saveSession = nullptr;
    // A session whose trace is opening: applied once it is in, dropped if it fails.
    std::shared_ptr<SessionState> m_pendingSession;
    QString m_pendingSessionPath;
    std::weak_ptr<const Trace> m_tracksFor;  // the trace whose tracks are remembered on change
    Thresholds m_thresholdsBeforeSession;
    bool m_checkLayoutOnShow = false;
};

}  // namespace contend::gui
