#pragma once
// The whole-network view with drill-down: the root lists the network per signature, per
// operator type or per iteration; opening a type lists its signatures, opening a signature lists
// its occurrences, and picking an occurrence shows it on the timeline. Back and the breadcrumb
// walk up again. Without a report the root lists operator names from the trace.
#include <memory>
#include <vector>

#include <QString>
#include <QWidget>

#include "core/analysis/model/report.h"
#include "core/analysis/model/slice_view.h"
#include "core/trace/trace.h"
#include "widgets/common/session_view.h"

class QComboBox;
class QLabel;
class QStackedWidget;
class QToolButton;

namespace contend::widgets {

class TablePanel;
class SignatureModel;
class TypeModel;
class IterationModel;
class OccurrenceModel;
class NameStatsModel;

class OperatorBrowser : public QWidget, public SessionView {
    Q_OBJECT
  public:
    enum class Grouping { Signature = 0, Type = 1, Iteration = 2 };
    enum class LevelKind { Root, TypeSignatures, Occurrences };

    explicit OperatorBrowser(QWidget* parent = nullptr);
    ~OperatorBrowser() override;

    // A new trace (no report yet): back to the root, listing names.
    void setTrace(TracePtr trace);
    // A report for the current trace and the trace's per-slice view beside it (slice_view.h:
    // the occurrences of a signature; nullptr: none); the drill-down stays where it is.
    void setReport(std::shared_ptr<const Report> report, SliceViewPtr slices);
    // SessionView: a new trace starts over at the root (the grouping stays); a report keeps the
    // drill-down where it is.
    void showTrace(const ViewInputs& in) override {
        setTrace(in.trace);
        if (in.report) setReport(in.report, in.slices);
    }
    void showReport(const ViewInputs& in) override {
        if (in.report) setReport(in.report, in.slices);
    }
    void setGrouping(Grouping g);
    Grouping grouping() const { return m_grouping; }

    int depth() const { return static_cast<int>(m_levels.size()) - 1; }
    LevelKind level() const { return m_levels.back().kind; }
    QString breadcrumb() const;  // plain text: "Network › matmul › gemm_kernel_3"
    void back();
    void openType(const QString& type);
    void openSignature(std::uint32_t signature);
    void openName(StringId name);

    TablePanel* currentPanel() const;
    TablePanel* occurrencePanel() const { return m_occurrencePanel; }
    OccurrenceModel* occurrenceModel() const { return m_occurrences; }

  signals:
    void occurrencePicked(quint32 slice);
    void signaturePicked(quint32 signature);
    void spanPicked(qint64 t0, qint64 t1);
    void groupingChanged(int grouping);
    // The drill-down moved (root, a type's signatures, a signature's occurrences) by navigation,
    // not by a new trace or report starting it over.
    void levelChanged();

  private:
    void navigate();  // showLevel, then levelChanged
    struct Level {
        LevelKind kind = LevelKind::Root;
        QString type;                     // TypeSignatures
        std::uint32_t signature = kNone;  // Occurrences of a signature
        StringId name = 0;                // Occurrences of a name (no report)
        QString title;
    };
    void showLevel();
    void goTo(int depth);
    QString signatureTitle(std::uint32_t signature) const;

    TracePtr m_trace;
    std::shared_ptr<const Report> m_report;
    SliceViewPtr m_slices;
    Grouping m_grouping = Grouping::Signature;
    std::vector<Level> m_levels;

    SignatureModel* m_signatures;
    TypeModel* m_types;
    IterationModel* m_iterations;
    OccurrenceModel* m_occurrences;
    NameStatsModel* m_names;
    TablePanel* m_signaturePanel;
    TablePanel* m_typePanel;
    TablePanel* m_iterationPanel;
    TablePanel* m_namePanel;
    TablePanel* m_typeSignaturePanel;
    TablePanel* m_occurrencePanel;
    QStackedWidget* m_stack;
    QToolButton* m_back;
    QLabel* m_crumbs;
    QComboBox* m_groupingBox;
};

}  // namespace contend::widgets
