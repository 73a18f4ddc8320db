#include "widgets/tables/iteration_model.h"

namespace contend::widgets {

IterationModel::IterationModel(QObject* parent)
    : ReportTableModel({{tr("Iteration"), ColumnKind::Count, tr("N of ProfilerStep#N")},
                        {tr("Start"), ColumnKind::Time, tr("Since the trace began")},
                        {tr("Duration"), ColumnKind::Duration, {}},
                        {tr("Anomalies"), ColumnKind::Count, {}},
                        {tr("Extra wait"), ColumnKind::Duration, {}}},
                       parent) {}

int IterationModel::rows() const { return m_report ? static_cast<int>(m_report->iterations.size()) : 0; }

QVariant IterationModel::raw(int row, int column) const {
    const IterationStats& it = m_report->iterations[static_cast<std::size_t>(row)];
    switch (column) {
    case Iteration: return static_cast<qint64>(it.index);
    case Start: return static_cast<qint64>(it.start);
    case Duration: return static_cast<qint64>(it.end - it.start);
    case Anomalies: return static_cast<qint64>(it.anomalies);
    case ExtraWait: return static_cast<qint64>(it.extraWaitNs);
    default: return {};
    }
}

qint64 IterationModel::rowId(int row) const { return m_report->iterations[static_cast<std::size_t>(row)].index; }

std::pair<qint64, qint64> IterationModel::rowSpan(int row) const {
    const IterationStats& it = m_report->iterations[static_cast<std::size_t>(row)];
    return {it.start, it.end};
}

}  // namespace contend::widgets
