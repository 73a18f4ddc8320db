#pragma once
// Compare mode: a baseline and a comparison trace side by side, each a Run (its session, trace,
// report and views), built and fed the same way. Both are opened and analysed off
// the GUI thread by their own AnalysisSession (the same coefficient and overlap for both, set in
// the window's spin boxes, which re-threshold both runs and compare again; the baseline may
// instead be the trace already open in the main window). Once both reports are in,
// compareReports (core/analysis/compare/compare.h) runs and the window shows:
//  - two timelines stacked (baseline above) sharing one ZoomControl (view_state.h), the
//    comparison's views at the alignment's offset: the first iteration's start (ProfilerStep)
//    or the trace start (a combo box); each run has its SelectionControl, and picking an
//    operator in one selects the same signature's nearest occurrence in the other;
//  - the diff tables (per signature, per anomaly, per contention pattern): picking a row shows
//    it in both timelines (a pattern by its costliest run);
//  - the bottleneck-shift chart and the verdict; the two runs' heatmaps side by side;
//  - predicted vs realised (GainCheckView): for the base's findings the new run resolved, the
//    gain the base's what-if predicted and the end-to-end change that happened, per iteration
//    and in total, from the same GainCheck `contend-cli compare` prints.
#include <array>
#include <memory>
#include <optional>

#include <QMainWindow>

#include "app/gui/opened_trace.h"
#include "core/analysis/compare/compare.h"
#include "core/analysis/model/thresholds.h"
#include "core/common/failure.h"
#include "widgets/tables/compare_model.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QTabWidget;

namespace contend::widgets {
class TimelineView;
class TablePanel;
class ShiftChart;
class GainCheckView;
class HeatmapView;
class BreakdownView;
class ZoomControl;
class SelectionControl;
}  // namespace contend::widgets

namespace contend::gui {

class AnalysisSession;
class ViewBinder;

// Labels for two runs that tell them apart: the file or folder names, and when those are the
// same (two "rank0_ascend_pt" folders) as many parent folders as it takes ("run1/rank0_ascend_pt"
// vs "run2/rank0_ascend_pt").
std::pair<QString, QString> distinctLabels(const QString& basePath, const QString& newPath);

class CompareWindow : public QMainWindow {
    Q_OBJECT
  public:
    enum class Alignment { FirstIteration, TraceStart };

    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    // Thresholds both runs are analysed with. Before opening: what they open with; after: both
    // are re-thresholded (off the GUI thread) and compared again, as the spin boxes do.
    void setThresholds(const Thresholds& thresholds);
    const Thresholds& thresholds() const { return m_thresholds; }
    double coefficient() const { return m_thresholds.coefficient; }
    double overlap() const { return m_thresholds.overlapRatio; }
    // Opens and analyses both traces.
    void open(const QString& basePath, const QString& newPath);
    // Compares an already opened trace (and its current report) with a trace still to open.
    void openAgainst(OpenedTracePtr base, ReportPtr baseReport, const QString& newPath);
    bool busy() const;

    void setAlignment(Alignment a);
    Alignment alignment() const { return m_alignment; }
    // Time added to a baseline time to get the aligned comparison time (ns).
    qint64 offset() const { return m_offset; }

    // Writes the comparison as contend-cli compare does ("json" or "markdown"), or the window as
    // a PNG ("png"), atomically; nullopt when saved, else the Failure.
    std::optional<Failure> exportComparison(const QString& path, const QString& format);

    // Shows a diff-table row (source row of that model) in both timelines.
    void showRow(widgets::CompareModel::Kind kind, int sourceRow);

    std::shared_ptr<const CompareResult> result() const { return m_result; }
    OpenedTracePtr baseTrace() const { return m_runs[Base].trace; }
    OpenedTracePtr newTrace() const { return m_runs[New].trace; }
    ReportPtr baseReport() const { return m_runs[Base].report; }
    ReportPtr newReport() const { return m_runs[New].report; }
    widgets::TimelineView* baseTimeline() const { return m_runs[Base].timeline; }
    widgets::BreakdownView* baseBreakdown() const { return m_runs[Base].breakdown; }
    widgets::BreakdownView* newBreakdown() const { return m_runs[New].breakdown; }
    widgets::TimelineView* newTimeline() const { return m_runs[New].timeline; }
    widgets::CompareModel* operatorModel() const { return m_opModel; }
    widgets::CompareModel* anomalyModel() const { return m_anModel; }
    widgets::TablePanel* operatorPanel() const { return m_opPanel; }
    widgets::TablePanel* anomalyPanel() const { return m_anPanel; }
    widgets::CompareModel* patternModel() const { return m_patModel; }
    widgets::TablePanel* patternPanel() const { return m_patPanel; }
    widgets::ShiftChart* shiftChart() const { return m_shift; }
    widgets::GainCheckView* gainView() const { return m_gain; }
    QComboBox* alignBox() const { return m_alignBox; }
    QDoubleSpinBox* coefficientSpin() const { return m_coefSpin; }
    QDoubleSpinBox* overlapSpin() const { return m_overlapSpin; }
    QTabWidget* tabs() const { return m_tabs; }
    QLabel* verdictLabel() const { return m_verdict; }

    // Nearest occurrence in the other run of a slice's signature, at the aligned time; kNone if
    // the other run lacks the signature. `toNew`: from the baseline to the comparison.
    quint32 matchingSlice(quint32 slice, bool toNew) const;
    // Earliest occurrence of a signature in one run, kNone if none.
    quint32 firstOccurrence(const std::string& signature, bool inNew) const;

  signals:
    void compared();
    void failed(const QString& message);

  private:
    enum Side : std::size_t { Base = 0, New = 1 };
    static Side other(Side s) { return s == Base ? New : Base; }
    // One side of the comparison, built the same way twice: the session that opens and
    // re-thresholds it, the binder that hands its views what the session has, what it opened,
    // its current report, its selection and the views.
    struct Run {
        AnalysisSession* session = nullptr;
        ViewBinder* binder = nullptr;
        OpenedTracePtr trace;
        ReportPtr report;
        widgets::SelectionControl* selection = nullptr;
        QLabel* header = nullptr;
        widgets::TimelineView* timeline = nullptr;
        widgets::HeatmapView* heatmap = nullptr;
        widgets::BreakdownView* breakdown = nullptr;
    };

    void buildUi();
    void buildMenu();
    void chooseExport(const QString& format);
    void startSession(Side side, const QString& path);
    void onOpened(Side side, OpenedTracePtr t);
    void onFailed(const QString& path, const QString& message);
    void tryCompare(bool resetView = true);
    void onReportChanged(Side side, ReportPtr report);
    void updateOffset();
    void applyOffset();       // the comparison's views at m_offset
    void updateBreakdowns();  // each run's breakdown shows the slice selected in its timeline
    void updateHeaders();
    quint32 matching(quint32 slice, Side from) const;
    quint32 first(const std::string& signature, Side in) const;

    std::array<Run, 2> m_runs;
    Thresholds m_thresholds;
    std::shared_ptr<const CompareResult> m_result;
    Alignment m_alignment = Alignment::FirstIteration;
    qint64 m_offset = 0;
    widgets::ZoomControl* m_zoom = nullptr;
    int m_pending = 0;

    QLabel* m_verdict = nullptr;
    QLabel* m_message = nullptr;
    QComboBox* m_alignBox = nullptr;
    QDoubleSpinBox* m_coefSpin = nullptr;
    QDoubleSpinBox* m_overlapSpin = nullptr;
    widgets::CompareModel* m_opModel = nullptr;
    widgets::CompareModel* m_anModel = nullptr;
    widgets::CompareModel* m_patModel = nullptr;
    widgets::TablePanel* m_patPanel = nullptr;
    widgets::TablePanel* m_opPanel = nullptr;
    widgets::TablePanel* m_anPanel = nullptr;
    widgets::ShiftChart* m_shift = nullptr;
    widgets::GainCheckView* m_gain = nullptr;
    QTabWidget* m_tabs = nullptr;
    QProgressBar* m_progress = nullptr;
};

}  // namespace contend::gui
