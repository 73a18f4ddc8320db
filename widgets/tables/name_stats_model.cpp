#include "widgets/tables/name_stats_model.h"

namespace contend::widgets {

NameStatsModel::NameStatsModel(QObject* parent)
    : ColumnModel({{tr("Operator"), ColumnKind::Name, {}},
                   {tr("Count"), ColumnKind::Count, {}},
                   {tr("Total"), ColumnKind::Duration, {}},
                   {tr("Mean"), ColumnKind::Duration, {}},
                   {tr("Min"), ColumnKind::Duration, {}},
                   {tr("Max"), ColumnKind::Duration, {}}},
                  parent) {}

void NameStatsModel::setTrace(TracePtr trace) {
    beginResetModel();
    m_trace = std::move(trace);
    endResetModel();
}

int NameStatsModel::rows() const { return m_trace ? static_cast<int>(m_trace->nameStats().size()) : 0; }

QVariant NameStatsModel::raw(int row, int column) const {
    const NameStats& n = m_trace->nameStats()[static_cast<std::size_t>(row)];
    switch (column) {
    case Name: {
        const std::string_view s = m_trace->str(n.name);
        return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
    }
    case Count: return static_cast<qint64>(n.count);
    case Total: return static_cast<qint64>(n.total);
    case Mean: return static_cast<qint64>(n.count ? n.total / static_cast<TimeNs>(n.count) : 0);
    case Min: return static_cast<qint64>(n.min);
    case Max: return static_cast<qint64>(n.max);
    default: return {};
    }
}

qint64 NameStatsModel::rowId(int row) const { return m_trace->nameStats()[static_cast<std::size_t>(row)].name; }

}  // namespace contend::widgets
