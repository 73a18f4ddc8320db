#include "widgets/tables/anomaly_model.h"

#include <cmath>

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
        if (m_report->anomalies.slice(i) == slice) return static_cast<int>(i);
    return -1;
}

// Reads the report's compact fields (anomaly_list.h), so sorting and filtering half a million
// rows builds no Anomaly; names come from the trace, and only a report without its slices (read
// from JSON) reads the full anomaly for them.
QVariant AnomalyModel::raw(int row, int column) const {
    const AnomalyList& list = m_report->anomalies;
    const auto k = static_cast<std::size_t>(row);
    const std::uint32_t slice = list.slice(k);
    const bool valid = slice < m_trace->slices().size();
    switch (column) {
    case Score: return list.score(k);
    case Gain: return static_cast<qint64>(list.gainNs(k));
    case Name: return valid ? sliceName(*m_trace, slice) : QString::fromStdString(list[k].name);
    case Track:
        return valid ? trackLabel(*m_trace, m_trace->slices()[slice].track)
                     : QString::fromStdString(list[k].trackLabel);
    case Start: return static_cast<qint64>(valid ? m_trace->slices()[slice].start : list.startNs(k));
    case Duration: return static_cast<qint64>(valid ? m_trace->slices()[slice].dur : list.durNs(k));
    case Baseline: return static_cast<qint64>(list.baselineNs(k));
    case Excess: return static_cast<qint64>(list.excessNs(k));
    case Cause: return static_cast<int>(list.cause(k));
    case Known: return QString::fromLatin1(provenanceName(list.provenance(k)));
    default: return {};
    }
}

SortKeys AnomalyModel::sortKeys(int column) const {
    if (!m_report) return ReportTableModel::sortKeys(column);
    if (column == Cause) return resourceKeys(column);
    const AnomalyList& list = m_report->anomalies;
    const std::size_t n = list.size();
    const auto& slices = m_trace->slices();
    // As raw() and SortRole give them: the slice's own start and duration when the report has it.
    auto value = [&](std::size_t k) -> quint64 {
        const std::uint32_t slice = list.slice(k);
        const bool valid = slice < slices.size();
        switch (column) {
        case Score: {
            const double d = list.score(k);
            return orderedReal(std::isfinite(d) ? d : -1e300);
        }
        case Gain: return orderedInt(list.gainNs(k));
        case Start: return orderedInt(valid ? slices[slice].start : list.startNs(k));
        case Duration: return orderedInt(valid ? slices[slice].dur : list.durNs(k));
        case Baseline: return orderedInt(list.baselineNs(k));
        default: return orderedInt(list.excessNs(k));
        }
    };
    switch (column) {
    case Score:
    case Gain:
    case Start:
    case Duration:
    case Baseline:
    case Excess: break;
    default: return ReportTableModel::sortKeys(column);
    }
    SortKeys keys;
    keys.codes.reserve(n);
    for (std::size_t k = 0; k < n; ++k) keys.codes.push_back(value(k));
    return keys;
}

quint32 AnomalyModel::rowSlice(int row) const { return m_report->anomalies.slice(static_cast<std::size_t>(row)); }

qint64 AnomalyModel::rowId(int row) const { return m_report->anomalies[static_cast<std::size_t>(row)].id; }

std::pair<qint64, qint64> AnomalyModel::rowSpan(int row) const {
    const AnomalyList& list = m_report->anomalies;
    const auto k = static_cast<std::size_t>(row);
    if (list.slice(k) >= m_trace->slices().size()) return {list.startNs(k), list.startNs(k) + list.durNs(k)};
    const Slice& s = m_trace->slices()[list.slice(k)];
    return {s.start, s.end()};
}

}  // namespace contend::widgets
