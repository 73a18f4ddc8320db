#pragma once
// The occurrences of one operator signature (or, without a report, of one operator name), in
// time order: start, duration, excess over the baseline, score, cause when flagged, track.
// Collecting them is one pass over the per-slice signature array, done once per drill-down.
#include <memory>
#include <vector>

#include "core/analysis/report.h"
#include "core/trace/trace.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class OccurrenceModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { Start, Duration, Excess, Score, Cause, Track, ColumnCount };
    explicit OccurrenceModel(QObject* parent = nullptr);
    // Occurrences of report->operators[signature].
    void setSignature(TracePtr trace, std::shared_ptr<const Report> report, std::uint32_t signature);
    // Occurrences of a name (trace only).
    void setName(TracePtr trace, StringId name);
    // New thresholds for the same signature: scores and causes change, rows stay.
    void updateReport(std::shared_ptr<const Report> report);
    void clear();
    const std::vector<std::uint32_t>& slices() const { return m_slices; }
    int rowOfSlice(std::uint32_t slice) const;

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    quint32 rowSlice(int row) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;

  private:
    void indexAnomalies();
    TracePtr m_trace;
    std::shared_ptr<const Report> m_report;
    std::uint32_t m_signature = kNone;
    TimeNs m_baseline = -1;
    std::vector<std::uint32_t> m_slices;   // by start
    std::vector<std::uint32_t> m_anomaly;  // parallel: index into report anomalies or kNone
};

}  // namespace contend::widgets
