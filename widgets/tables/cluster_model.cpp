#include "widgets/tables/cluster_model.h"

#include "widgets/common/text.h"

namespace contend::widgets {

ClusterModel::ClusterModel(QObject* parent)
    : ReportTableModel(
          {{tr("#"), ColumnKind::Count, {}},
           {tr("Gain (end to end)"), ColumnKind::Gain,
            tr("Predicted end-to-end gain over the whole run of fusing the run into one operator: the what-if "
               "re-schedules the dependency graph with it fused. It differs from the Saving on its stream: more "
               "when fusing also removes the launch gap the Saving keeps and later work starts sooner (knock-on); "
               "less when the gaps had slack (other work decided when the run ended); - : not computed")},
           {tr("Track"), ColumnKind::Text, {}},
           {tr("Start"), ColumnKind::Time, tr("Since the trace began")},
           {tr("Duration"), ColumnKind::Duration, {}},
           {tr("Ops"), ColumnKind::Count, tr("Operators in the run")},
           {tr("Busy"), ColumnKind::Duration, tr("Time the operators ran")},
           {tr("Gaps"), ColumnKind::Duration, tr("Time between them: barriers, launch overhead")},
           {tr("Saving (its stream)"), ColumnKind::Duration,
            tr("Saving of fusing the run into one operator, on its own stream: its gaps less the one launch gap "
               "the fused operator still pays. The extra wait the summary counts as sync; not the run's end, "
               "which the Gain predicts")}},
          parent) {}

int ClusterModel::rows() const { return m_report ? static_cast<int>(m_report->clusters.size()) : 0; }

QVariant ClusterModel::raw(int row, int column) const {
    const Cluster& c = m_report->clusters[static_cast<std::size_t>(row)];
    switch (column) {
    case Id: return static_cast<qint64>(c.id);
    case Gain: return static_cast<qint64>(c.gainNs);
    case Track:
        return c.track < m_trace->tracks().size() ? trackLabel(*m_trace, c.track)
                                                  : QString::fromStdString(c.trackLabel);
    case Start: return static_cast<qint64>(c.start);
    case Duration: return static_cast<qint64>(c.end - c.start);
    case Ops: return static_cast<qint64>(c.ops);
    case Busy: return static_cast<qint64>(c.busyNs);
    case Gaps: return static_cast<qint64>(c.waitNs);
    case Saving: return static_cast<qint64>(c.savingNs);
    default: return {};
    }
}

SortKeys ClusterModel::sortKeys(int column) const {
    if (!m_report || column == Track) return ReportTableModel::sortKeys(column);
    const auto& clusters = m_report->clusters;
    SortKeys keys;
    keys.codes.reserve(clusters.size());
    for (const Cluster& c : clusters) {
        switch (column) {
        case Id: keys.codes.push_back(orderedInt(static_cast<qint64>(c.id))); break;
        case Gain: keys.codes.push_back(orderedInt(c.gainNs)); break;
        case Start: keys.codes.push_back(orderedInt(c.start)); break;
        case Duration: keys.codes.push_back(orderedInt(c.end - c.start)); break;
        case Ops: keys.codes.push_back(orderedInt(static_cast<qint64>(c.ops))); break;
        case Busy: keys.codes.push_back(orderedInt(c.busyNs)); break;
        case Gaps: keys.codes.push_back(orderedInt(c.waitNs)); break;
        case Saving: keys.codes.push_back(orderedInt(c.savingNs)); break;
        default: return ReportTableModel::sortKeys(column);
        }
    }
    return keys;
}

QString ClusterModel::cellTip(int row, int column) const {
    if (column != Gain) return {};
    const Cluster& c = m_report->clusters[static_cast<std::size_t>(row)];
    if (c.gainNs <= 0) return {};  // the column's own: not computed, or off the critical path
    return tr("fusing it would end the run %1 sooner (predicted, over all iterations);\n%2")
        .arg(durationText(c.gainNs), gainVersusSaving(c));
}

quint32 ClusterModel::rowSlice(int row) const { return m_report->clusters[static_cast<std::size_t>(row)].firstSlice; }

qint64 ClusterModel::rowId(int row) const { return row; }

std::pair<qint64, qint64> ClusterModel::rowSpan(int row) const {
    const Cluster& c = m_report->clusters[static_cast<std::size_t>(row)];
    return {c.start, c.end};
}

}  // namespace contend::widgets
