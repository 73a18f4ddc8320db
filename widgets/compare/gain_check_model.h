#pragma once
// A compare's predicted vs realised (GainCheck, core/analysis/compare/compare.h) as a table: one row per
// resource the base's what-if predicted a gain for, or whose findings the new run resolved, then
// one row for all of them. Columns: the resource, the resolved findings in words, the gain the
// base predicted (over the run and per iteration), and on the last row the end-to-end change
// that happened (the fall of the sum of the iteration times; a run is measured as a whole, so
// the resource rows have none). Every number is the core's, as `contend-cli compare` prints it;
// the rows only group the resolved findings by resource.
#include <memory>
#include <vector>

#include "core/analysis/compare/compare.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

// "1.2 ms faster", "300 us slower", "no change".
QString realisedText(TimeNs realisedNs);

class GainCheckModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { What, Findings, Predicted, PredictedPerIteration, Realised, RealisedPerIteration, ColumnCount };

    explicit GainCheckModel(QObject* parent = nullptr);
    // A new compare (nullptr: none). No rows when the base has no what-if.
    void setResult(std::shared_ptr<const CompareResult> result);
    const CompareResult* result() const { return m_result.get(); }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // The resource a row stands for; Resource::None on the last row (all resolved findings).
    Resource resource(int row) const;
    bool isTotal(int row) const { return resource(row) == Resource::None; }
    TimeNs predictedNs(int row) const;
    TimeNs predictedPerIterationNs(int row) const;
    // Only the last row has a realised change (a run is measured as a whole, not per resource).
    bool hasRealised(int row) const { return isTotal(row); }

  protected:
    int rows() const override { return static_cast<int>(m_rows.size()); }
    QVariant raw(int row, int column) const override;

  private:
    struct Row {
        Resource resource = Resource::None;
        std::size_t windows = 0, clusters = 0, anomalies = 0;
    };
    std::shared_ptr<const CompareResult> m_result;
    std::vector<Row> m_rows;
};

}  // namespace contend::widgets
