#pragma once
// Clusters of short operators run back to back on one track: track, start, duration, operators,
// busy time, gaps, and the estimated saving of fusing them.
#include <memory>

#include "core/analysis/report.h"
#include "core/trace/trace.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class ClusterModel : public ColumnModel {
    Q_OBJECT
public:
    enum Col { Id, Track, Start, Duration, Ops, Busy, Gaps, Saving, ColumnCount };
    explicit ClusterModel(QObject* parent = nullptr);
    void setReport(TracePtr trace, std::shared_ptr<const Report> report);

protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    quint32 rowSlice(int row) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;

private:
    TracePtr m_trace;
    std::shared_ptr<const Report> m_report;
};

}  // namespace contend::widgets
