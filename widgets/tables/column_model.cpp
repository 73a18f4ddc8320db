#include "widgets/tables/column_model.h"

#include <cmath>

#include <QColor>
#include <QHash>

#include "core/analysis/model/report.h"
#include "widgets/common/palette.h"
#include "widgets/common/text.h"

namespace contend::widgets {

ColumnModel::ColumnModel(std::vector<Column> columns, QObject* parent)
    : QAbstractTableModel(parent), m_columns(std::move(columns)) {}

QModelIndex ColumnModel::index(int row, int column, const QModelIndex& parent) const {
    if (parent.isValid() || row < 0 || column < 0 || column >= static_cast<int>(m_columns.size()) || row >= rows())
        return {};
    return createIndex(row, column);
}

int ColumnModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows(); }

int ColumnModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

quint32 ColumnModel::rowSlice(int) const { return kNone; }

std::pair<qint64, qint64> ColumnModel::rowSpan(int) const { return {-1, -1}; }

QVariant ColumnModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const int r = index.row(), c = index.column();
    const Column& col = m_columns[static_cast<std::size_t>(c)];
    switch (role) {
    case Qt::DisplayRole: {
        if (cellPending(r, c)) return tr("computing…");
        const QVariant v = raw(r, c);
        if (!v.isValid()) return QString();
        switch (col.kind) {
        case ColumnKind::Text: return v.toString();
        case ColumnKind::Name: return shortOperatorName(v.toString());
        case ColumnKind::Count: return QString::number(v.toLongLong());
        case ColumnKind::Gain:
            if (v.toLongLong() < 0 && m_gainsPending) return tr("computing…");
            [[fallthrough]];
        case ColumnKind::Duration: return v.toLongLong() < 0 ? QStringLiteral("-") : durationText(v.toLongLong());
        case ColumnKind::Time: return timeText(v.toLongLong() - m_origin);
        case ColumnKind::Score: {
            const double d = v.toDouble();
            return std::isfinite(d) ? QString::number(d, 'f', 2) : QStringLiteral("-");
        }
        case ColumnKind::Percent: return QStringLiteral("%1%").arg(v.toDouble() * 100, 0, 'f', 0);
        case ColumnKind::Resource: return resourceLabel(static_cast<Resource>(v.toInt()));
        }
        return {};
    }
    case SortRole: return sortValue(r, c);
    case Qt::TextAlignmentRole:
        if (col.kind == ColumnKind::Text || col.kind == ColumnKind::Name || col.kind == ColumnKind::Resource)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DecorationRole:
        if (col.kind == ColumnKind::Resource) {
            const auto res = static_cast<Resource>(raw(r, c).toInt());
            if (res != Resource::None) return QColor::fromRgba(resourceColor(res));
        }
        return {};
    case Qt::ToolTipRole:
        if (QString own = cellTip(r, c); !own.isEmpty()) return own;
        if (cellPending(r, c) && col.kind != ColumnKind::Gain)
            return tr(
                "worked out with the predicted gains (they fill in when the what-if ends; the rows keep "
                "their order meanwhile)");
        if (col.kind == ColumnKind::Text || col.kind == ColumnKind::Name) return raw(r, c).toString();
        if (col.kind == ColumnKind::Gain) {
            const qint64 ns = raw(r, c).toLongLong();
            if (ns < 0 && m_gainsPending)
                return tr(
                    "the what-if is computing the predicted gains of these findings (they fill in when it "
                    "ends; the rows are ranked by score meanwhile)");
            if (ns < 0)
                return tr(
                    "not computed (the what-if did not re-schedule it: its budget ran out, or no dependency graph)");
            if (ns == 0) return tr("no predicted gain: its operators had slack (they are off the critical path)");
            return tr("the run would end %1 sooner over all iterations (predicted)").arg(durationText(ns));
        }
        return {};
    case FilterRole: {
        // What the filter box matches: the words shown, and the full name behind a short one.
        const QString shown = data(index, Qt::DisplayRole).toString();
        return col.kind == ColumnKind::Name ? shown + QLatin1Char('\n') + raw(r, c).toString() : shown;
    }
    case SliceRole: return rowSlice(r);
    case IdRole: return rowId(r);
    case StartRole: return rowSpan(r).first;
    case EndRole: return rowSpan(r).second;
    case GroupRole: return rowGroup(r);
    default: return {};
    }
}

QVariant ColumnModel::sortValue(int row, int column) const {
    const QVariant v = raw(row, column);
    const ColumnKind kind = m_columns[static_cast<std::size_t>(column)].kind;
    if (kind == ColumnKind::Resource) return resourceLabel(static_cast<Resource>(v.toInt()));
    if (kind == ColumnKind::Score && !std::isfinite(v.toDouble())) return -1e300;
    return v;
}

SortKeys ColumnModel::sortKeys(int column) const {
    // Through data(), which a model may override for SortRole (the compare diffs' percentages).
    if (column < 0 || column >= columnCount()) return {};
    const int n = rows();
    std::vector<QVariant> values;
    values.reserve(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) values.push_back(data(createIndex(r, column), SortRole));
    return SortKeys::fromValues(values);
}

SortKeys ColumnModel::resourceKeys(int column) const {
    // A label per resource, made once (the causes repeat down the column).
    SortKeys keys;
    keys.text = true;
    const int n = rows();
    keys.texts.reserve(static_cast<std::size_t>(n));
    QHash<int, QString> labels;
    for (int r = 0; r < n; ++r) {
        const int res = raw(r, column).toInt();
        auto it = labels.constFind(res);
        if (it == labels.constEnd()) it = labels.insert(res, resourceLabel(static_cast<Resource>(res)));
        keys.texts.push_back(*it);
    }
    return keys;
}

QVariant ColumnModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= static_cast<int>(m_columns.size())) return {};
    if (role == Qt::DisplayRole) return m_columns[static_cast<std::size_t>(section)].title;
    if (role == Qt::ToolTipRole) return m_columns[static_cast<std::size_t>(section)].tip;
    // The first click on a score, count or cost sorts the biggest first.
    if (role == Qt::InitialSortOrderRole) {
        const ColumnKind k = m_columns[static_cast<std::size_t>(section)].kind;
        const bool biggestFirst = k == ColumnKind::Score || k == ColumnKind::Duration || k == ColumnKind::Gain ||
                                  k == ColumnKind::Count || k == ColumnKind::Percent;
        return static_cast<int>(biggestFirst ? Qt::DescendingOrder : Qt::AscendingOrder);
    }
    return {};
}

}  // namespace contend::widgets
