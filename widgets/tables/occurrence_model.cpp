#include "widgets/tables/occurrence_model.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "widgets/common/text.h"

namespace contend::widgets {

OccurrenceModel::OccurrenceModel(QObject* parent)
    : ColumnModel({{tr("Start"), ColumnKind::Time, tr("Since the trace began")},
                   {tr("Duration"), ColumnKind::Duration, {}},
                   {tr("Excess"), ColumnKind::Duration, tr("Duration minus the signature's baseline")},
                   {tr("Score"), ColumnKind::Score, {}},
                   {tr("Cause"), ColumnKind::Resource, tr("Set when the occurrence is flagged")},
                   {tr("Track"), ColumnKind::Text, {}}},
                  parent) {}

void OccurrenceModel::setSignature(TracePtr trace, std::shared_ptr<const Report> report, SliceViewPtr slices,
                                   std::uint32_t signature) {
    beginResetModel();
    m_trace = std::move(trace);
    m_report = std::move(report);
    m_view = std::move(slices);
    m_signature = signature;
    m_slices.clear();
    m_baseline = -1;
    m_origin = m_trace ? m_trace->begin() : 0;
    if (m_trace && m_report && signature < m_report->operators.size()) {
        m_baseline = m_report->operators[signature].baselineNs;
        // In slice order (slices are sorted by track, then start), then by start.
        const std::span<const std::uint32_t> of = (m_view ? *m_view : SliceView::none()).occurrencesOf(signature);
        m_slices.assign(of.begin(), of.end());
        std::sort(m_slices.begin(), m_slices.end(), [&](std::uint32_t a, std::uint32_t b) {
            return m_trace->slices()[a].start < m_trace->slices()[b].start;
        });
    }
    indexAnomalies();
    endResetModel();
}

void OccurrenceModel::setName(TracePtr trace, StringId name) {
    beginResetModel();
    m_trace = std::move(trace);
    m_report.reset();
    m_view.reset();
    m_signature = kNone;
    m_baseline = -1;
    m_slices.clear();
    m_origin = m_trace ? m_trace->begin() : 0;
    if (m_trace) {
        const auto& sl = m_trace->slices();
        for (std::uint32_t i = 0; i < sl.size(); ++i)
            if (sl[i].name == name) m_slices.push_back(i);
        std::sort(m_slices.begin(), m_slices.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return sl[a].start < sl[b].start; });
    }
    indexAnomalies();
    endResetModel();
}

void OccurrenceModel::updateReport(std::shared_ptr<const Report> report) {
    if (!report || m_signature == kNone) return;
    m_report = std::move(report);
    if (m_signature < m_report->operators.size()) m_baseline = m_report->operators[m_signature].baselineNs;
    indexAnomalies();
    if (!m_slices.empty()) emit dataChanged(index(0, 0), index(rows() - 1, ColumnCount - 1));
}

void OccurrenceModel::clear() {
    beginResetModel();
    m_trace.reset();
    m_report.reset();
    m_view.reset();
    m_signature = kNone;
    m_slices.clear();
    m_anomaly.clear();
    endResetModel();
}

void OccurrenceModel::indexAnomalies() {
    m_anomaly.assign(m_slices.size(), kNone);
    if (!m_report || m_slices.empty()) return;
    std::unordered_map<std::uint32_t, std::uint32_t> pos;
    pos.reserve(m_slices.size());
    for (std::uint32_t i = 0; i < m_slices.size(); ++i) pos.emplace(m_slices[i], i);
    for (std::uint32_t a = 0; a < m_report->anomalies.size(); ++a) {
        auto it = pos.find(m_report->anomalies.slice(a));
        if (it != pos.end()) m_anomaly[it->second] = a;
    }
}

int OccurrenceModel::rows() const { return static_cast<int>(m_slices.size()); }

int OccurrenceModel::rowOfSlice(std::uint32_t slice) const {
    auto it = std::find(m_slices.begin(), m_slices.end(), slice);
    return it == m_slices.end() ? -1 : static_cast<int>(it - m_slices.begin());
}

QVariant OccurrenceModel::raw(int row, int column) const {
    const std::uint32_t s = m_slices[static_cast<std::size_t>(row)];
    const Slice& sl = m_trace->slices()[s];
    const std::uint32_t a = m_anomaly[static_cast<std::size_t>(row)];
    switch (column) {
    case Start: return static_cast<qint64>(sl.start);
    case Duration: return static_cast<qint64>(sl.dur);
    case Excess: return static_cast<qint64>(m_baseline >= 0 ? sl.dur - m_baseline : -1);
    case Score: {
        return m_report && m_view ? static_cast<double>(m_view->scoreOf(s)) : std::nan("");
    }
    case Cause: return static_cast<int>(a != kNone ? m_report->anomalies.cause(a) : Resource::None);
    case Track: return trackLabel(*m_trace, sl.track);
    default: return {};
    }
}

quint32 OccurrenceModel::rowSlice(int row) const { return m_slices[static_cast<std::size_t>(row)]; }

qint64 OccurrenceModel::rowId(int row) const { return row; }

std::pair<qint64, qint64> OccurrenceModel::rowSpan(int row) const {
    const Slice& sl = m_trace->slices()[m_slices[static_cast<std::size_t>(row)]];
    return {sl.start, sl.end()};
}

}  // namespace contend::widgets
