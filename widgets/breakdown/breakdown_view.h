#pragma once
// Per-operator breakdown: for the selected occurrence and for its signature (mean per
// occurrence), stacked bars of computing / waiting for data / queueing for compute units /
// waiting on sync or locks; solid parts are measured (counters, metrics), hatched parts are
// estimates. Beside them, the signature's duration histogram with the baseline and the selected
// occurrence marked. Without a report it shows the histogram of the operator's name.
#include <memory>
#include <vector>

#include <QWidget>

#include "core/analysis/model/report.h"
#include "core/analysis/model/slice_view.h"
#include "core/trace/trace.h"
#include "widgets/breakdown/duration_histogram.h"
#include "widgets/common/session_view.h"

class QCustomPlot;
class QCPAxisRect;
class QLabel;

namespace contend::widgets {

class BreakdownView : public QWidget, public SessionView {
    Q_OBJECT
  public:
    explicit BreakdownView(QWidget* parent = nullptr);
    void showTrace(const ViewInputs& in) override {
        setTrace(in.trace);
        setReport(in.report, in.slices);
    }
    void showReport(const ViewInputs& in) override { setReport(in.report, in.slices); }
    void setTrace(TracePtr trace);
    // The report and the trace's per-slice view beside it (slice_view.h: signatures and the
    // occurrences of each; nullptr: none).
    void setReport(std::shared_ptr<const Report> report, SliceViewPtr slices);
    // The occurrence to show (with its signature); kNone clears.
    void showSlice(std::uint32_t slice);
    // A signature without a particular occurrence.
    void showSignature(std::uint32_t signature);
    // A contention window or sync cluster: one bar per operator (the costliest kMaxGroupBars,
    // by extra wait), the histogram of the costliest one's signature. Empty `slices` clears.
    void showGroup(const QString& title, std::vector<std::pair<std::uint32_t, TimeNs>> slices);
    static constexpr std::size_t kMaxGroupBars = 8;
    // A contention pattern (index into the report's patterns; breakdown_view_pattern.cpp): titled
    // with its victim, partner, slowdown and interval, the bars of its costliest run, and the
    // histogram of its runs beside the partner against its runs apart (the sample its statistics
    // used), side by side in each bin as a share of each side's runs, with both medians. kNone,
    // or another selection, clears it.
    void showPattern(std::uint32_t pattern);
    std::uint32_t pattern() const { return m_pattern; }
    // The two distributions drawn for the pattern (empty without one).
    const PairedHistogram& patternHistogram() const { return m_paired; }
    // True when nothing is selected: the plot is hidden behind a line of text (no stale axes).
    bool isEmptyState() const;
    std::uint32_t slice() const { return m_slice; }
    std::uint32_t signature() const { return m_signature; }
    QCustomPlot* plot() const { return m_plot; }
    // The line of text under the plot that names the colours.
    QLabel* legend() const { return m_legend; }
    const DurationHistogram& histogram() const { return m_hist; }
    // Rows of the bar chart as drawn: [0] signature mean, [1] this occurrence (absent when none).
    struct Bar {
        QString label;
        Breakdown parts;
        bool valid = false;
    };
    const std::vector<Bar>& bars() const { return m_bars; }

  protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

  private:
    void rebuild();
    void fitParts();
    void fitTicks();
    void collectDurations();
    void drawBars();
    void drawHistogram();
    // A dashed vertical line at `ns` on the histogram (clamped to [x0, x1], in us) with `label`
    // beside it at `ratio` of the tallest bar `top`: right of the line, or left of it in the
    // right half of the plot.
    void markHistogram(TimeNs ns, double x0, double x1, double top, const QColor& c, const QString& label,
                       double ratio);
    // The pattern's title line, empty without one; its two distributions in the histogram.
    QString patternTitle() const;
    void drawPatternHistogram();

    TracePtr m_trace;
    std::shared_ptr<const Report> m_report;
    SliceViewPtr m_slices;
    std::uint32_t m_slice = kNone;
    std::uint32_t m_signature = kNone;
    QString m_groupTitle;
    std::vector<std::pair<std::uint32_t, TimeNs>> m_group;  // window/cluster operators, costliest first
    StringId m_name = 0;                                    // without a report: the name shown
    // Durations of the shown signature (or name), cached across re-thresholds.
    std::vector<TimeNs> m_durations;
    std::uint32_t m_durationsFor = kNone;
    StringId m_durationsName = 0;
    const Trace* m_durationsTrace = nullptr;
    DurationHistogram m_hist;
    std::uint32_t m_pattern = kNone;
    PairedHistogram m_paired;
    std::vector<Bar> m_bars;

    QLabel* m_title;
    QCustomPlot* m_plot;
    QCPAxisRect* m_barRect;
    QCPAxisRect* m_histRect;
    QLabel* m_legend;
    QString m_legendText;  // the colours, without the histogram's line
    bool m_sideBySide = true;
    static constexpr int kStackedHeight = 420;  // the least height for the two plots stacked
    static constexpr int kSidePlot = 160;       // the plot's least height, side by side
    static constexpr int kStackedPlot = 300;    // and stacked: two axis rects with their labels
    static constexpr int kMinHeight = 250;      // the pane's least height with a one-line legend
};

}  // namespace contend::widgets
