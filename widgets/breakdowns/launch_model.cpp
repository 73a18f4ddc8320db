#include "widgets/breakdowns/launch_model.h"

#include <utility>

namespace contend::widgets {

LaunchModel::LaunchModel(QObject* parent)
    : ColumnModel({{tr("Kernel"), ColumnKind::Name, {}},
                   {tr("Runs"), ColumnKind::Count, tr("Operations linked to the call that launched them")},
                   {tr("GPU total"), ColumnKind::Duration, tr("Summed device time")},
                   {tr("CPU p50"), ColumnKind::Duration, tr("Median duration of the launch call")},
                   {tr("GPU p50"), ColumnKind::Duration, tr("Median duration on the device")},
                   {tr("Delay p50"), ColumnKind::Duration, tr("Median launch delay: start less the call's end")},
                   {tr("Delay p95"), ColumnKind::Duration, tr("95th percentile of the launch delay")},
                   {tr("Shorter"), ColumnKind::Count, tr("Runs shorter on the device than their launch call")}},
                  parent) {}

void LaunchModel::setRows(std::vector<KernelLaunch> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

QVariant LaunchModel::raw(int row, int column) const {
    const KernelLaunch& k = m_rows[static_cast<std::size_t>(row)];
    switch (column) {
    case Name: return QString::fromStdString(k.name);
    case Runs: return static_cast<qint64>(k.runs);
    case GpuTotal: return static_cast<qint64>(k.gpuTotalNs);
    case CpuP50: return static_cast<qint64>(k.cpuP50Ns);
    case GpuP50: return static_cast<qint64>(k.gpuP50Ns);
    case DelayP50: return static_cast<qint64>(k.delayP50Ns);
    case DelayP95: return static_cast<qint64>(k.delayP95Ns);
    case Shorter: return static_cast<qint64>(k.shorterThanLaunch);
    default: return {};
    }
}

}  // namespace contend::widgets
