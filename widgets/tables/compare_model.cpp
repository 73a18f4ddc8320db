#include "widgets/tables/compare_model.h"

#include <cmath>
#include <limits>

#include "widgets/common/view_colors.h"

namespace contend::widgets {

namespace {

std::vector<Column> columnsFor(CompareModel::Kind kind) {
    if (kind == CompareModel::Kind::Operators)
        return {{QObject::tr("Change"), ColumnKind::Text, changeLegend()},
                {QObject::tr("Signature"), ColumnKind::Name, QObject::tr("Operator name plus shape/grid")},
                {QObject::tr("Count base"), ColumnKind::Count, {}},
                {QObject::tr("Count new"), ColumnKind::Count, {}},
                {QObject::tr("Mean base"), ColumnKind::Duration, {}},
                {QObject::tr("Mean new"), ColumnKind::Duration, {}},
                {QObject::tr("Change %"), ColumnKind::Percent, QObject::tr("Relative change of the mean duration")},
                {QObject::tr("Anomalies base"), ColumnKind::Count, {}},
                {QObject::tr("Anomalies new"), ColumnKind::Count, {}}};
    if (kind == CompareModel::Kind::Patterns)
        return {{QObject::tr("Status"), ColumnKind::Text,
                 QObject::tr("resolved: only in the baseline; new: only in the comparison")},
                {QObject::tr("Operator"), ColumnKind::Name, QObject::tr("The operator slowed beside its partner")},
                {QObject::tr("Partner"), ColumnKind::Name,
                 QObject::tr("The kernel, kind of operator or counter that goes with its slow runs")},
                {QObject::tr("Cause"), ColumnKind::Resource,
                 QObject::tr("In the comparison when present there, else in the baseline")},
                {QObject::tr("Slowdown base"), ColumnKind::Percent,
                 QObject::tr("Runs beside the partner against runs apart (Hodges-Lehmann)")},
                {QObject::tr("Slowdown new"), ColumnKind::Percent, {}},
                {QObject::tr("Cost base"), ColumnKind::Duration,
                 QObject::tr("The time the slowdown took from the runs beside the partner")},
                {QObject::tr("Cost new"), ColumnKind::Duration, {}}};
    return {
        {QObject::tr("Status"), ColumnKind::Text,
         QObject::tr("resolved: only in the baseline; new: only in the comparison")},
        {QObject::tr("Name"), ColumnKind::Name, {}},
        {QObject::tr("Iteration"), ColumnKind::Count, QObject::tr("Position among the run's iterations (-1: none)")},
        {QObject::tr("Score base"), ColumnKind::Score, {}},
        {QObject::tr("Score new"), ColumnKind::Score, {}},
        {QObject::tr("Cause"), ColumnKind::Resource,
         QObject::tr("In the comparison when present there, else in the baseline")}};
}

}  // namespace

QString changeWords(OpChange c) {
    switch (c) {
    case OpChange::Faster: return QObject::tr("▼ faster");
    case OpChange::Slower: return QObject::tr("▲ slower");
    case OpChange::Same: return QObject::tr("= same");
    case OpChange::New: return QObject::tr("+ new");
    case OpChange::Gone: return QObject::tr("× gone");
    }
    return {};
}

QString changeLegend() {
    return QObject::tr(
        "▼ faster, ▲ slower: the mean duration moved beyond the tolerance; = same: within it; "
        "+ new: only in the comparison; × gone: only in the baseline. An empty cell is \"-\".");
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

CompareModel::CompareModel(Kind kind, QObject* parent) : ColumnModel(columnsFor(kind), parent), m_kind(kind) {}

void CompareModel::setResult(std::shared_ptr<const CompareResult> result) {
    beginResetModel();
    m_result = std::move(result);
    m_anomalies.clear();
    m_patterns.clear();
    if (m_result) {
        for (const AnomalyDiff& d : m_result->anomalies.resolved) m_anomalies.push_back({&d, 0});
        for (const AnomalyDiff& d : m_result->anomalies.persisting) m_anomalies.push_back({&d, 1});
        for (const AnomalyDiff& d : m_result->anomalies.added) m_anomalies.push_back({&d, 2});
        for (const PatternDiff& d : m_result->patterns.resolved) m_patterns.push_back({&d, 0});
        for (const PatternDiff& d : m_result->patterns.persisting) m_patterns.push_back({&d, 1});
        for (const PatternDiff& d : m_result->patterns.added) m_patterns.push_back({&d, 2});
    }
    endResetModel();
}

int CompareModel::rows() const {
    if (!m_result) return 0;
    switch (m_kind) {
    case Kind::Operators: return static_cast<int>(m_result->operators.size());
    case Kind::Anomalies: return static_cast<int>(m_anomalies.size());
    case Kind::Patterns: return static_cast<int>(m_patterns.size());
    }
    return 0;
}

int CompareModel::statusOf(int row) const {
    if (row < 0 || row >= rows()) return -1;
    const auto r = static_cast<std::size_t>(row);
    return m_kind == Kind::Anomalies ? m_anomalies[r].status : m_kind == Kind::Patterns ? m_patterns[r].status : -1;
}

QString CompareModel::status(int row) const {
    static const char* names[] = {"resolved", "persisting", "new"};
    const int s = statusOf(row);
    return s < 0 ? QString() : QString::fromLatin1(names[s]);
}

namespace {

// The run of a pattern that cost the most, kNone without runs.
quint32 costliestRun(const ContentionPattern& p) {
    quint32 best = kNone;
    TimeNs most = -1;
    for (const PatternRun& r : p.runs)
        if (r.excessNs > most) most = r.excessNs, best = r.slice;
    return best;
}

}  // namespace

QVariant CompareModel::raw(int row, int column) const {
    const auto r = static_cast<std::size_t>(row);
    if (m_kind == Kind::Operators) {
        const OperatorDiff& d = m_result->operators[r];
        switch (column) {
        case OpChangeCol: return changeWords(d.change);
        case OpSignature: return QString::fromStdString(d.signature);
        case OpCountBase: return static_cast<qint64>(d.inBase ? d.base.count : 0);
        case OpCountNew: return static_cast<qint64>(d.inNew ? d.now.count : 0);
        case OpMeanBase: return d.inBase ? static_cast<qint64>(std::llround(d.base.meanNs)) : qint64(-1);
        case OpMeanNew: return d.inNew ? static_cast<qint64>(std::llround(d.now.meanNs)) : qint64(-1);
        case OpMeanChange: return d.inBase && d.inNew ? d.meanChange : kNaN;
        case OpAnomaliesBase: return static_cast<qint64>(d.inBase ? d.base.anomalies : 0);
        case OpAnomaliesNew: return static_cast<qint64>(d.inNew ? d.now.anomalies : 0);
        default: return {};
        }
    }
    if (m_kind == Kind::Patterns) {
        const PatternDiff& d = *m_patterns[r].diff;
        switch (column) {
        case PatStatus: return status(row);
        case PatOperator: return QString::fromStdString(d.victim);
        case PatPartner: return QString::fromStdString(d.partner);
        case PatCause: return static_cast<int>(d.inNew ? d.now.cause : d.base.cause);
        case PatSlowdownBase: return d.inBase ? d.base.slowdown : kNaN;
        case PatSlowdownNew: return d.inNew ? d.now.slowdown : kNaN;
        case PatCostBase: return d.inBase ? static_cast<qint64>(d.base.costNs) : qint64(-1);
        case PatCostNew: return d.inNew ? static_cast<qint64>(d.now.costNs) : qint64(-1);
        default: return {};
        }
    }
    const AnomalyRow& a = m_anomalies[r];
    const AnomalyDiff& d = *a.diff;
    switch (column) {
    case AnStatus: return status(row);
    case AnName: return QString::fromStdString(d.name);
    case AnIteration: return static_cast<qint64>(d.place.iteration);
    case AnScoreBase: return d.inBase ? d.base.score : kNaN;
    case AnScoreNew: return d.inNew ? d.now.score : kNaN;
    case AnCause: return static_cast<int>(d.inNew ? d.now.cause : d.base.cause);
    default: return {};
    }
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const int c = index.column();
    if ((m_kind == Kind::Operators && c == OpMeanChange) ||
        (m_kind == Kind::Patterns && (c == PatSlowdownBase || c == PatSlowdownNew))) {
        const double v = raw(index.row(), c).toDouble();
        if (role == Qt::DisplayRole)
            return std::isfinite(v)
                       ? QStringLiteral("%1%2%").arg(v > 0 ? QStringLiteral("+") : QString()).arg(v * 100, 0, 'f', 1)
                       : QStringLiteral("-");
        if (role == SortRole) return std::isfinite(v) ? v : -1e300;
    }
    if (role == Qt::ForegroundRole && c == 0) {
        const QColor col = rowColor(index.row());
        if (col.isValid()) return col;
        return {};
    }
    if (role == Qt::ToolTipRole && m_kind == Kind::Anomalies) {
        const AnomalyDiff& d = *m_anomalies[static_cast<std::size_t>(index.row())].diff;
        const Anomaly& a = d.inNew ? d.now : d.base;
        if (!a.evidence.empty()) return QString::fromStdString(a.evidence);
    }
    if (role == Qt::ToolTipRole && m_kind == Kind::Patterns) {
        const PatternDiff& d = *m_patterns[static_cast<std::size_t>(index.row())].diff;
        const ContentionPattern& p = d.inNew ? d.now : d.base;
        if (!p.evidence.empty()) return QString::fromStdString(p.evidence);
    }
    return ColumnModel::data(index, role);
}

QColor CompareModel::rowColor(int row) const {
    // Green: better in the comparison; red: worse.
    // Readable on the table's base in a dark palette too.
    const ViewColors colors = viewColors();
    const QColor good = colors.good, bad = colors.bad;
    if (m_kind != Kind::Operators) {
        const int s = statusOf(row);
        return s == 0 ? good : s == 2 ? bad : QColor();
    }
    switch (m_result->operators[static_cast<std::size_t>(row)].change) {
    case OpChange::Faster:
    case OpChange::Gone: return good;
    case OpChange::Slower:
    case OpChange::New: return bad;
    default: return {};
    }
}

quint32 CompareModel::baseSlice(int row) const {
    if (m_kind == Kind::Patterns && row >= 0 && row < rows()) {
        const PatternDiff& d = *m_patterns[static_cast<std::size_t>(row)].diff;
        return d.inBase ? costliestRun(d.base) : kNone;
    }
    if (m_kind != Kind::Anomalies || row < 0 || row >= rows()) return kNone;
    const AnomalyDiff& d = *m_anomalies[static_cast<std::size_t>(row)].diff;
    return d.inBase ? d.base.slice : kNone;
}

quint32 CompareModel::newSlice(int row) const {
    if (m_kind == Kind::Patterns && row >= 0 && row < rows()) {
        const PatternDiff& d = *m_patterns[static_cast<std::size_t>(row)].diff;
        return d.inNew ? costliestRun(d.now) : kNone;
    }
    if (m_kind != Kind::Anomalies || row < 0 || row >= rows()) return kNone;
    const AnomalyDiff& d = *m_anomalies[static_cast<std::size_t>(row)].diff;
    return d.inNew ? d.now.slice : kNone;
}

quint32 CompareModel::rowSlice(int row) const {
    const quint32 s = newSlice(row);
    return s != kNone ? s : baseSlice(row);
}

std::string CompareModel::signature(int row) const {
    if (row < 0 || row >= rows()) return {};
    if (m_kind == Kind::Operators) return m_result->operators[static_cast<std::size_t>(row)].signature;
    if (m_kind == Kind::Patterns) return m_patterns[static_cast<std::size_t>(row)].diff->victim;
    return m_anomalies[static_cast<std::size_t>(row)].diff->signature;
}

}  // namespace contend::widgets
