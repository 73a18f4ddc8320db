#pragma once
// HTA's breakdowns (core/analysis/breakdowns) as table rows: one per rank (its temporal
// breakdown and communication/computation overlap), then one per stream of that rank (its idle
// time by kind and its queue length). A cell a row's section does not have, or that was not
// computed, is empty. The Breakdowns (HTA) tab shows it; selecting an operator highlights its
// rank's and stream's rows (rowOfRank, rowOfStream), and opening a stream row shows the stream on
// the timeline (StreamRole).
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "widgets/tables/column_model.h"

namespace contend::widgets {

class BreakdownRowsModel : public ColumnModel {
    Q_OBJECT
  public:
    enum Col {
        Row,
        Kernel,
        IdlePct,
        HostWait,
        KernelWait,
        OtherIdle,
        ComputePct,
        OverlapPct,
        QueueP50,
        QueueMax,
        FullQueue,
        ColumnCount
    };
    // The stream a row stands for (int), -1 for a rank's row.
    static constexpr int StreamRole = FilterRole + 1;
    explicit BreakdownRowsModel(QObject* parent = nullptr);
    void setBreakdowns(const TraceBreakdowns& b);
    // The row of a rank (-1: none; a rank the trace does not say is -1 too) and of a stream.
    int rowOfRank(int rank) const;
    int rowOfStream(int rank, int stream) const;
    // Marks (bold, tinted) the rows of a selected operator or finding: its rank's and its streams'
    // (empty `streams`: the rank's alone); kept across setBreakdowns. clearHighlight: none.
    void setHighlight(int rank, std::vector<int> streams);
    void clearHighlight() { setHighlight(kNoRank, {}); }
    bool highlighted(int row) const;
    static constexpr int kNoRank = -2;  // no highlight (-1 is a rank the trace does not say)
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  protected:
    int rows() const override { return static_cast<int>(m_rows.size()); }
    QVariant raw(int row, int column) const override;
    QString cellTip(int row, int column) const override;

  private:
    struct Entry {
        int rank = -1;
        int stream = -1;  // -1: the rank's row
        const RankTemporal* temporal = nullptr;
        const RankOverlap* overlap = nullptr;
        const StreamIdle* idle = nullptr;
        const StreamQueue* queue = nullptr;
    };
    TraceBreakdowns m_b;  // the rows point into it
    std::vector<Entry> m_rows;
    int m_highlightRank = kNoRank;
    std::vector<int> m_highlightStreams;
};

}  // namespace contend::widgets
