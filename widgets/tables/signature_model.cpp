#include "widgets/tables/signature_model.h"

namespace contend::widgets {

SignatureModel::SignatureModel(QObject* parent)
    : ColumnModel({{tr("Signature"), ColumnKind::Name, tr("Operator name plus shape or grid")},
                   {tr("Type"), ColumnKind::Text, {}},
                   {tr("Count"), ColumnKind::Count, tr("Occurrences")},
                   {tr("Total"), ColumnKind::Duration, tr("Summed duration")},
                   {tr("Baseline"), ColumnKind::Duration, tr("Expected duration of one occurrence")},
                   {tr("p95"), ColumnKind::Duration, {}},
                   {tr("Anomalies"), ColumnKind::Count, tr("Flagged occurrences")},
                   {tr("Extra wait"), ColumnKind::Duration, tr("Time lost to contention, summed")},
                   {tr("Dominant cause"), ColumnKind::Resource, {}}},
                  parent) {}

void SignatureModel::setReport(std::shared_ptr<const Report> report) {
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

int SignatureModel::rows() const { return m_report ? static_cast<int>(m_report->operators.size()) : 0; }

QVariant SignatureModel::raw(int row, int column) const {
    const SignatureStats& s = m_report->operators[static_cast<std::size_t>(row)];
    switch (column) {
    case Signature: return QString::fromStdString(s.signature.empty() ? s.name : s.signature);
    case Type: return QString::fromStdString(s.opType);
    case Count: return static_cast<qint64>(s.count);
    case Total: return static_cast<qint64>(s.totalNs);
    case Baseline: return static_cast<qint64>(s.baselineNs);
    case P95: return static_cast<qint64>(s.p95Ns);
    case Anomalies: return static_cast<qint64>(s.anomalies);
    case ExtraWait: return static_cast<qint64>(s.extraWaitNs);
    case Cause: return static_cast<int>(s.dominantCause);
    default: return {};
    }
}

qint64 SignatureModel::rowId(int row) const { return m_report->operators[static_cast<std::size_t>(row)].id; }

QString SignatureModel::rowGroup(int row) const {
    return QString::fromStdString(m_report->operators[static_cast<std::size_t>(row)].opType);
}

}  // namespace contend::widgets
