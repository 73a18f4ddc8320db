#pragma once
// The whole-network view per iteration (ProfilerStep#N): start, duration, anomalies, extra wait.
#include <memory>

#include "core/analysis/report.h"
#include "core/trace/trace.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class IterationModel : public ColumnModel {
    Q_OBJECT
public:
    enum Col { Iteration, Start, Duration, Anomalies, ExtraWait, ColumnCount };
    explicit IterationModel(QObject* parent = nullptr);
    void setReport(TracePtr trace, std::shared_ptr<const Report> report);

protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;

private:
    std::shared_ptr<const Report> m_report;
};

}  // namespace contend::widgets
