#include "widgets/compare/gain_check_model.h"

#include <algorithm>
#include <array>

#include <QColor>
#include <QFont>
#include <QStringList>

#include "widgets/common/palette.h"
#include "widgets/common/text.h"

namespace contend::widgets {

namespace {

QString counted(std::size_t n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

QString findingsText(std::size_t windows, std::size_t clusters, std::size_t anomalies) {
    QStringList parts;
    if (windows) parts << counted(windows, "window", "windows");
    if (clusters) parts << counted(clusters, "cluster", "clusters");
    if (anomalies) parts << counted(anomalies, "anomaly", "anomalies");
    return parts.isEmpty() ? QStringLiteral("-") : parts.join(QStringLiteral(", "));
}

std::vector<Column> columns() {
    return {
        {GainCheckModel::tr("Resolved"), ColumnKind::Text,
         GainCheckModel::tr("The resource whose findings the new run resolved; the last row is all of them")},
        {GainCheckModel::tr("Findings"), ColumnKind::Text,
         GainCheckModel::tr("The base's windows, clusters and anomalies the new run no longer has")},
        {GainCheckModel::tr("Predicted"), ColumnKind::Gain,
         GainCheckModel::tr("The end-to-end gain the base's what-if predicted for them, over the run: the "
                            "resource's whole gain times the share of its extra wait that was resolved")},
        {GainCheckModel::tr("Predicted / iteration"), ColumnKind::Duration,
         GainCheckModel::tr("The predicted gain over the base's iteration count")},
        {GainCheckModel::tr("Realised"), ColumnKind::Text,
         GainCheckModel::tr("What happened end to end: the base's total (the sum of its iteration times) less "
                            "the new run's. Measured for the run as a whole, not per resource")},
        {GainCheckModel::tr("Realised / iteration"), ColumnKind::Text,
         GainCheckModel::tr("The fall of the mean iteration time")},
    };
}

}  // namespace

QString realisedText(TimeNs realisedNs) {
    if (realisedNs > 0) return GainCheckModel::tr("%1 faster").arg(durationText(realisedNs));
    if (realisedNs < 0) return GainCheckModel::tr("%1 slower").arg(durationText(-realisedNs));
    return GainCheckModel::tr("no change");
}

GainCheckModel::GainCheckModel(QObject* parent) : ColumnModel(columns(), parent) {}

void GainCheckModel::setResult(std::shared_ptr<const CompareResult> result) {
    beginResetModel();
    m_result = std::move(result);
    m_rows.clear();
    if (m_result && m_result->gain.available) {
        std::array<Row, kResourceCount> by{};
        for (const WindowDiff& d : m_result->windows.resolved) ++by[static_cast<std::size_t>(d.resource)].windows;
        by[static_cast<std::size_t>(Resource::Sync)].clusters += m_result->clusters.resolved.size();
        for (const AnomalyDiff& d : m_result->anomalies.resolved)
            ++by[static_cast<std::size_t>(d.base.cause)].anomalies;
        const GainCheck& g = m_result->gain;
        for (std::size_t k = 0; k < kResourceCount; ++k) {
            Row& row = by[k];
            row.resource = static_cast<Resource>(k);
            if (row.resource == Resource::None) continue;
            if (g.predictedByResource[k] > 0 || row.windows + row.clusters + row.anomalies > 0) m_rows.push_back(row);
        }
        // Largest predicted gain first, as the what-if ranks.
        std::stable_sort(m_rows.begin(), m_rows.end(), [&g](const Row& a, const Row& b) {
            return g.predictedByResource[static_cast<std::size_t>(a.resource)] >
                   g.predictedByResource[static_cast<std::size_t>(b.resource)];
        });
        m_rows.push_back({Resource::None, g.resolvedWindows, g.resolvedClusters, g.resolvedAnomalies});
    }
    endResetModel();
}

Resource GainCheckModel::resource(int row) const {
    return row >= 0 && row < rows() ? m_rows[static_cast<std::size_t>(row)].resource : Resource::None;
}

TimeNs GainCheckModel::predictedNs(int row) const {
    if (!m_result || row < 0 || row >= rows()) return 0;
    const Resource r = resource(row);
    return r == Resource::None ? m_result->gain.predictedNs
                               : m_result->gain.predictedByResource[static_cast<std::size_t>(r)];
}

TimeNs GainCheckModel::predictedPerIterationNs(int row) const {
    if (!m_result || row < 0 || row >= rows()) return 0;
    // The total row is the core's; a resource's part is divided the same way.
    if (isTotal(row)) return m_result->gain.predictedPerIterationNs;
    return predictedNs(row) / static_cast<TimeNs>(std::max<std::size_t>(1, m_result->gain.baseIterations));
}

QVariant GainCheckModel::raw(int row, int column) const {
    if (!m_result || row < 0 || row >= rows()) return {};
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    const GainCheck& g = m_result->gain;
    switch (column) {
    case What: return r.resource == Resource::None ? tr("all resolved") : resourceLabel(r.resource);
    case Findings: return findingsText(r.windows, r.clusters, r.anomalies);
    case Predicted: return static_cast<qint64>(predictedNs(row));
    case PredictedPerIteration: return static_cast<qint64>(predictedPerIterationNs(row));
    case Realised: return hasRealised(row) ? QVariant(static_cast<qint64>(g.realisedNs)) : QVariant();
    case RealisedPerIteration:
        return hasRealised(row) ? QVariant(static_cast<qint64>(g.realisedPerIterationNs)) : QVariant();
    default: return {};
    }
}

QVariant GainCheckModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const int row = index.row(), c = index.column();
    const bool realisedCol = c == Realised || c == RealisedPerIteration;
    if (realisedCol && (role == Qt::DisplayRole || role == FilterRole)) {
        const QVariant v = raw(row, c);
        return v.isValid() ? realisedText(v.toLongLong()) : QString();
    }
    if (realisedCol && role == Qt::ToolTipRole)
        return hasRealised(row) ? QVariant(column(c).tip)
                                : QVariant(tr("A run's change is measured end to end, not per resource: see the last "
                                              "row"));
    if (realisedCol && role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (c == What && role == Qt::DecorationRole && !isTotal(row)) return QColor::fromRgba(resourceColor(resource(row)));
    if (role == Qt::FontRole && isTotal(row)) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (realisedCol && role == Qt::ForegroundRole && hasRealised(row) && m_result && m_result->gain.notFaster)
        return QColor(0xB7, 0x1C, 0x1C);
    return ColumnModel::data(index, role);
}

}  // namespace contend::widgets
