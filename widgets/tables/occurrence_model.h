#pragma once
// The occurrences of one operator signature (or, without a report, of one operator name), in
// time order: start, duration, excess over the baseline, score, cause when flagged, track.
// Collecting them reads the signature's occurrences from the trace's per-slice view
// (slice_view.h, a CSR built once per trace), not a pass over every slice.
#include <memory>
#include <vector>

#include "core/analysis/model/report.h"
#include "core/analysis/model/slice_view.h"
#include "core/trace/trace.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class OccurrenceModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col { Start, Duration, Excess, Score, Cause, Track, ColumnCount };
    explicit OccurrenceModel(QObject* parent = nullptr);
    // Occurrences of report->operators[signature], from `slices` (the trace's per-slice view
    // handed beside the report: occurrences and scores; nullptr: none).
    void setSignature(TracePtr trace, std::shared_ptr<const Report> report, SliceViewPtr slices,
                      std::uint32_t signature);
    // Occurrences of a name (trace only).
    void setName(TracePtr trace, StringId name);
    // New thresholds for the same signature (the same trace and view): causes change, rows stay.
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
    SliceViewPtr m_view;
    std::uint32_t m_signature = kNone;
    TimeNs m_baseline = -1;
    std::vector<std::uint32_t> m_slices;   // by start
    std::vector<std::uint32_t> m_anomaly;  // parallel: index into report anomalies or kNone
};

}  // namespace contend::widgets
