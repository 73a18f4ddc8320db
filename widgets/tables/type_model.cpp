#include "widgets/tables/type_model.h"

namespace contend::widgets {

TypeModel::TypeModel(QObject* parent)
    : ColumnModel({{tr("Operator type"), ColumnKind::Text, {}},
                   {tr("Count"), ColumnKind::Count, tr("Occurrences")},
                   {tr("Total"), ColumnKind::Duration, tr("Summed duration")},
                   {tr("Anomalies"), ColumnKind::Count, tr("Flagged occurrences")},
                   {tr("Extra wait"), ColumnKind::Duration, tr("Time lost to contention, summed")},
                   {tr("Dominant cause"), ColumnKind::Resource, {}}},
                  parent) {}

void TypeModel::setReport(std::shared_ptr<const Report> report) {
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

int TypeModel::rows() const { return m_report ? static_cast<int>(m_report->types.size()) : 0; }

QVariant TypeModel::raw(int row, int column) const {
    const TypeStats& t = m_report->types[static_cast<std::size_t>(row)];
    switch (column) {
    case Type: return QString::fromStdString(t.type);
    case Count: return static_cast<qint64>(t.count);
    case Total: return static_cast<qint64>(t.totalNs);
    case Anomalies: return static_cast<qint64>(t.anomalies);
    case ExtraWait: return static_cast<qint64>(t.extraWaitNs);
    case Cause: return static_cast<int>(t.dominantCause);
    default: return {};
    }
}

QString TypeModel::rowGroup(int row) const {
    return QString::fromStdString(m_report->types[static_cast<std::size_t>(row)].type);
}

}  // namespace contend::widgets
