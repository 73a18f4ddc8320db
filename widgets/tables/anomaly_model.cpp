#include "widgets/tables/anomaly_model.h"

#include "widgets/common/text.h"

namespace contend::widgets {

AnomalyModel::AnomalyModel(QObject* parent)
    : ReportTableModel({{tr("Score"), ColumnKind::Score, tr("Anomaly score; flagged when above the coefficient")},
                        {tr("Gain"), ColumnKind::Gain,
                         tr("Predicted end-to-end gain over the whole run if this were fixed (the what-if re-schedules "
                            "the dependency graph); - : not computed")},
                        {tr("Operator"), ColumnKind::Name, {}},
                        {tr("Track"), ColumnKind::Text, {}},
                        {tr("Start"), ColumnKind::Time, tr("Since the trace began")},
                        {tr("Duration"), ColumnKind::Duration, {}},
                        {tr("Baseline"), ColumnKind::Duration, tr("Expected duration without contention")},
                        {tr("Excess"), ColumnKind::Duration, tr("Duration minus baseline")},
                        {tr("Cause"), ColumnKind::Resource, tr("What the operator waited for")},
                        {tr("Known"), ColumnKind::Text,
                         tr("measured: counters that resolve the operator say so; estimated: its slow runs are the "
                            "ones beside a partner, and what the two lean on names the resource; unknown: nothing "
                            "in the trace supports a verdict")}},
                       parent) {}

int AnomalyModel::rows() const { return m_report ? static_cast<int>(m_report->anomalies.size()) : 0; }

int AnomalyModel::rowOfSlice(std::uint32_t slice) const {
    if (!m_report) return -1;
    for (std::size_t i = 0; i < m_report->anomalies.size(); ++i)
        if (m_report->anomalies[i].slice == slice) return static_cast<int>(i);
    return -1;
}

QVariant AnomalyModel::raw(int row, int column) const {
    const Anomaly& a = m_report->anomalies[static_cast<std::size_t>(row)];
    const bool valid = a.slice < m_trace->slices().size();
    switch (column) {
    case Score: return a.score;
    case Gain: return static_cast<qint64>(a.gainNs);
    case Name: return valid ? sliceName(*m_trace, a.slice) : QString::fromStdString(a.name);
    case Track:
        return valid ? trackLabel(*m_trace, m_trace->slices()[a.slice].track) : QString::fromStdString(a.trackLabel);
    case Start: return static_cast<qint64>(valid ? m_trace->slices()[a.slice].start : a.startNs);
    case Duration: return static_cast<qint64>(valid ? m_trace->slices()[a.slice].dur : a.durNs);
    case Baseline: return static_cast<qint64>(a.baselineNs);
    case Excess: return static_cast<qint64>(a.excessNs);
    case Cause: return static_cast<int>(a.cause);
    case Known: return QString::fromLatin1(provenanceName(a.provenance));
    default: return {};
    }
}

quint32 AnomalyModel::rowSlice(int row) const { return m_report->anomalies[static_cast<std::size_t>(row)].slice; }

qint64 AnomalyModel::rowId(int row) const { return m_report->anomalies[static_cast<std::size_t>(row)].id; }

std::pair<qint64, qint64> AnomalyModel::rowSpan(int row) const {
    const Anomaly& a = m_report->anomalies[static_cast<std::size_t>(row)];
    if (a.slice >= m_trace->slices().size()) return {a.startNs, a.startNs + a.durNs};
    const Slice& s = m_trace->slices()[a.slice];
    return {s.start, s.end()};
}

}  // namespace contend::widgets
