#pragma once
// The diff table of a compare, one model per view of it:
//  - Operators: per signature, change in words with an arrow (changeWords), signature,
//    count base/new, mean base/new, change of the mean, anomalies base/new;
//  - Anomalies: per anomaly, status (resolved, persisting, new), name, iteration, score base/new,
//    cause;
//  - Patterns: per contention pattern (operator beside partner), status, operator, partner,
//    cause, slowdown base/new, cost base/new; a row stands for the pattern's costliest run.
// Rows know the operator they stand for in each run (baseSlice / newSlice, kNone where the run
// lacks it) and the signature, so the compare window can show the row in both timelines.
#include <memory>
#include <string>
#include <vector>

#include <QColor>

#include "core/analysis/compare/compare.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

// "▼ faster", "▲ slower", "= same", "+ new", "× gone": never "-", which is the empty cell.
QString changeWords(OpChange c);
// What the change words mean (the column's tooltip and the legend under the table).
QString changeLegend();

class CompareModel : public ColumnModel {
    Q_OBJECT
  public:
    enum class Kind { Operators, Anomalies, Patterns };
    enum OpCol {
        OpChangeCol,
        OpSignature,
        OpCountBase,
        OpCountNew,
        OpMeanBase,
        OpMeanNew,
        OpMeanChange,
        OpAnomaliesBase,
        OpAnomaliesNew,
        OpColumnCount
    };
    enum AnCol { AnStatus, AnName, AnIteration, AnScoreBase, AnScoreNew, AnCause, AnColumnCount };
    enum PatCol {
        PatStatus,
        PatOperator,
        PatPartner,
        PatCause,
        PatSlowdownBase,
        PatSlowdownNew,
        PatCostBase,
        PatCostNew,
        PatColumnCount
    };

    explicit CompareModel(Kind kind, QObject* parent = nullptr);
    Kind kind() const { return m_kind; }
    // A new compare (nullptr: none). Slices refer to the two runs' traces.
    void setResult(std::shared_ptr<const CompareResult> result);
    const CompareResult* result() const { return m_result.get(); }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // The operator a row stands for in each run (anomaly rows; a pattern's costliest run), kNone
    // where absent.
    quint32 baseSlice(int row) const;
    quint32 newSlice(int row) const;
    std::string signature(int row) const;
    // Anomaly and pattern rows: "resolved", "persisting" or "new".
    QString status(int row) const;

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    quint32 rowSlice(int row) const override;

  private:
    struct AnomalyRow {
        const AnomalyDiff* diff;
        int status;  // 0 resolved, 1 persisting, 2 new
    };
    struct PatternRow {
        const PatternDiff* diff;
        int status;  // 0 resolved, 1 persisting, 2 new
    };
    QColor rowColor(int row) const;
    int statusOf(int row) const;

    Kind m_kind;
    std::shared_ptr<const CompareResult> m_result;
    std::vector<AnomalyRow> m_anomalies;
    std::vector<PatternRow> m_patterns;
};

}  // namespace contend::widgets
