#pragma once
// Contention windows: resource, start, duration, operators, tracks joined, overlap ratio, peak
// utilisation, extra wait. Each row spans its window on the timeline (StartRole/EndRole).
#include "widgets/tables/report_table_model.h"

namespace contend::widgets {

class WindowModel : public ReportTableModel {
    Q_OBJECT
  public:
    enum Col { Id, Gain, Resource, Start, Duration, Ops, Tracks, Overlap, Peak, ExtraWait, Known, ColumnCount };
    explicit WindowModel(QObject* parent = nullptr);
    // Every column's keys from the windows themselves (no QVariant per row).
    SortKeys sortKeys(int column) const override;

  protected:
    int rows() const override;
    QVariant raw(int row, int column) const override;
    qint64 rowId(int row) const override;
    std::pair<qint64, qint64> rowSpan(int row) const override;
    void reportChanged() override;
    bool cellPending(int row, int column) const override;

  private:
    // Whether a column needs the full windows (their operators, shares and peaks). A slider
    // step's report holds compact rows until read (window_list.h) and the what-if builds them
    // off the GUI thread; while its gains are pending these columns say "computing…" and sort
    // as equal, so the table never builds them (about 100 ms a step at 35k windows).
    static bool needsBuilt(int column);
    // A window's summed extra wait and distinct tracks, worked out the first time a cell, a fit
    // or a sort asks (a re-threshold of 35k windows walking all their operators cost ~50 ms a
    // report before the table showed; it shows ~50 rows).
    void derive(std::size_t row) const;
    mutable std::vector<char> m_derived;        // per window: m_extra and m_tracks worked out
    mutable std::vector<qint64> m_extra;        // per window: summed extra wait
    mutable std::vector<int> m_tracks;          // per window: distinct tracks
    mutable std::vector<std::uint32_t> m_seen;  // per track: the stamp of the last window that met it
    mutable std::uint32_t m_stamp = 0;
    bool m_waiting = false;  // the report's windows are compact rows and its gains are pending
};

}  // namespace contend::widgets
