#include "widgets/tables/table_proxy.h"

#include <algorithm>
#include <numeric>

#include <QItemSelection>

#include "widgets/tables/column_model.h"
#include "widgets/tables/row_sort.h"
#include "widgets/tables/table_roles.h"

namespace contend::widgets {

TableProxy::TableProxy(QObject* parent) : QAbstractProxyModel(parent) {}

void TableProxy::clearMapping() {
    m_order.clear();
    m_accepted.clear();
    m_rows.clear();
    m_proxyOf.clear();
    m_columns = 0;
}

void TableProxy::setSourceModel(QAbstractItemModel* model) {
    beginResetModel();
    if (sourceModel()) disconnect(sourceModel(), nullptr, this, nullptr);
    QAbstractProxyModel::setSourceModel(model);
    if (model) {
        // Anything that moves, adds or removes rows or columns: start over (no model here does it).
        auto begin = [this] {
            if (m_resetting) return;
            m_resetting = true;
            beginResetModel();
            clearMapping();
        };
        auto end = [this] {
            if (!m_resetting) return;
            rebuild();
            m_resetting = false;
            endResetModel();
        };
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this, begin);
        connect(model, &QAbstractItemModel::modelReset, this, end);
        connect(model, &QAbstractItemModel::rowsAboutToBeInserted, this, begin);
        connect(model, &QAbstractItemModel::rowsInserted, this, end);
        connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, this, begin);
        connect(model, &QAbstractItemModel::rowsRemoved, this, end);
        connect(model, &QAbstractItemModel::rowsAboutToBeMoved, this, begin);
        connect(model, &QAbstractItemModel::rowsMoved, this, end);
        connect(model, &QAbstractItemModel::columnsAboutToBeInserted, this, begin);
        connect(model, &QAbstractItemModel::columnsInserted, this, end);
        connect(model, &QAbstractItemModel::columnsAboutToBeRemoved, this, begin);
        connect(model, &QAbstractItemModel::columnsRemoved, this, end);
        connect(model, &QAbstractItemModel::columnsAboutToBeMoved, this, begin);
        connect(model, &QAbstractItemModel::columnsMoved, this, end);
        // As QSortFilterProxyModel: the mapping dropped without a signal (the panel that shows it
        // may be going too).
        connect(model, &QObject::destroyed, this, [this] { clearMapping(); });
        connect(model, &QAbstractItemModel::layoutAboutToBeChanged, this, &TableProxy::onSourceLayoutAboutToBeChanged);
        connect(model, &QAbstractItemModel::layoutChanged, this, &TableProxy::onSourceLayoutChanged);
        connect(model, &QAbstractItemModel::dataChanged, this, &TableProxy::onSourceDataChanged);
        connect(model, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
    }
    rebuild();
    endResetModel();
}

void TableProxy::setFilterWords(const QString& text) {
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words) return;
    m_words = words;
    relayout([this] {
        refilter();
        remap();
    });
}

void TableProxy::setGroup(const QString& group) {
    if (group == m_group) return;
    m_group = group;
    relayout([this] {
        refilter();
        remap();
    });
}

void TableProxy::sort(int column, Qt::SortOrder order) {
    if (column < 0) column = -1;
    if (column == m_sortColumn && (column < 0 || order == m_sortOrder)) return;
    m_sortColumn = column;
    m_sortOrder = order;
    relayout([this] {
        if (m_sortColumn < 0)
            std::sort(m_order.begin(), m_order.end());  // the source's order back
        else
            applySort(m_order);
        remap();
    });
}

void TableProxy::applySort(std::vector<int>& order) const {
    const QAbstractItemModel* m = sourceModel();
    if (!m || m_sortColumn < 0 || m_sortColumn >= m_columns || order.size() < 2) return;
    SortKeys keys;
    if (const auto* columns = qobject_cast<const ColumnModel*>(m)) {
        keys = columns->sortKeys(m_sortColumn);
    } else {
        const int rows = m->rowCount();
        std::vector<QVariant> values;
        values.reserve(static_cast<std::size_t>(rows));
        for (int r = 0; r < rows; ++r) values.push_back(m->index(r, m_sortColumn).data(SortRole));
        keys = SortKeys::fromValues(values);
    }
    sortRows(keys, m_sortOrder, order);
}

bool TableProxy::acceptsRow(int row) const {
    const QAbstractItemModel* m = sourceModel();
    if (!m_group.isEmpty() && m->index(row, 0).data(GroupRole).toString() != m_group) return false;
    if (m_words.isEmpty()) return true;
    QString text;
    for (int c = 0; c < m_columns; ++c) {
        text += m->index(row, c).data(FilterRole).toString();
        text += QLatin1Char('\n');
    }
    for (const QString& w : m_words)
        if (!text.contains(w, Qt::CaseInsensitive)) return false;
    return true;
}

void TableProxy::rebuild() {
    const QAbstractItemModel* m = sourceModel();
    m_columns = m ? m->columnCount() : 0;
    m_order.resize(m ? static_cast<std::size_t>(std::max(0, m->rowCount())) : 0);
    std::iota(m_order.begin(), m_order.end(), 0);
    applySort(m_order);
    refilter();
    remap();
}

void TableProxy::refilter() {
    const bool all = m_words.isEmpty() && m_group.isEmpty();
    m_accepted.assign(m_order.size(), 1);
    if (all) return;
    for (std::size_t r = 0; r < m_accepted.size(); ++r) m_accepted[r] = acceptsRow(static_cast<int>(r)) ? 1 : 0;
}

void TableProxy::remap() {
    m_rows.clear();
    m_rows.reserve(m_order.size());
    m_proxyOf.assign(m_order.size(), -1);
    for (int r : m_order) {
        if (!m_accepted[static_cast<std::size_t>(r)]) continue;
        m_proxyOf[static_cast<std::size_t>(r)] = static_cast<int>(m_rows.size());
        m_rows.push_back(r);
    }
}

template <typename Change>
void TableProxy::relayout(Change change) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList from = persistentIndexList();
    std::vector<int> sources;
    sources.reserve(static_cast<std::size_t>(from.size()));
    for (const QModelIndex& i : from)
        sources.push_back(
            i.row() >= 0 && i.row() < static_cast<int>(m_rows.size()) ? m_rows[static_cast<std::size_t>(i.row())] : -1);
    change();
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype k = 0; k < from.size(); ++k) {
        const int s = sources[static_cast<std::size_t>(k)];
        const int p = s >= 0 && s < static_cast<int>(m_proxyOf.size()) ? m_proxyOf[static_cast<std::size_t>(s)] : -1;
        to << (p >= 0 ? index(p, from[k].column()) : QModelIndex());
    }
    changePersistentIndexList(from, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void TableProxy::onSourceLayoutAboutToBeChanged() {
    emit layoutAboutToBeChanged();
    m_layoutFrom = persistentIndexList();
    m_layoutSource.clear();
    for (const QModelIndex& i : m_layoutFrom) m_layoutSource << QPersistentModelIndex(mapToSource(i));
}

void TableProxy::onSourceLayoutChanged() {
    rebuild();
    QModelIndexList to;
    for (const QPersistentModelIndex& s : m_layoutSource) to << mapFromSource(s);
    changePersistentIndexList(m_layoutFrom, to);
    m_layoutFrom.clear();
    m_layoutSource.clear();
    emit layoutChanged();
}

void TableProxy::onSourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                                     const QList<int>& roles) {
    if (!topLeft.isValid() || !bottomRight.isValid() || m_resetting) return;
    const bool sortHit = m_sortColumn >= topLeft.column() && m_sortColumn <= bottomRight.column() &&
                         (roles.isEmpty() || roles.contains(SortRole));
    const bool filtering = !m_words.isEmpty() || !m_group.isEmpty();
    const bool filterHit = filtering && (roles.isEmpty() || roles.contains(FilterRole) || roles.contains(GroupRole) ||
                                         roles.contains(Qt::DisplayRole));
    if (sortHit || filterHit)
        relayout([&] {
            if (sortHit) applySort(m_order);
            if (filterHit) refilter();
            remap();
        });
    // The changed rows where they are shown now.
    int first = -1, last = -1;
    for (int r = topLeft.row(); r <= bottomRight.row() && r < static_cast<int>(m_proxyOf.size()); ++r) {
        const int p = m_proxyOf[static_cast<std::size_t>(r)];
        if (p < 0) continue;
        first = first < 0 ? p : std::min(first, p);
        last = std::max(last, p);
    }
    if (first >= 0) emit dataChanged(index(first, topLeft.column()), index(last, bottomRight.column()), roles);
}

QModelIndex TableProxy::index(int row, int column, const QModelIndex& parent) const {
    if (parent.isValid() || row < 0 || column < 0 || row >= static_cast<int>(m_rows.size()) || column >= m_columns)
        return {};
    return createIndex(row, column);
}

QModelIndex TableProxy::parent(const QModelIndex&) const { return {}; }

QModelIndex TableProxy::sibling(int row, int column, const QModelIndex&) const { return index(row, column); }

int TableProxy::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int TableProxy::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_columns; }

bool TableProxy::hasChildren(const QModelIndex& parent) const {
    return !parent.isValid() && !m_rows.empty() && m_columns > 0;
}

QVariant TableProxy::headerData(int section, Qt::Orientation orientation, int role) const {
    const QAbstractItemModel* m = sourceModel();
    if (!m) return {};
    if (orientation == Qt::Horizontal) return m->headerData(section, orientation, role);
    if (section < 0 || section >= static_cast<int>(m_rows.size())) return {};
    return m->headerData(m_rows[static_cast<std::size_t>(section)], orientation, role);
}

QModelIndex TableProxy::mapToSource(const QModelIndex& proxyIndex) const {
    const QAbstractItemModel* m = sourceModel();
    if (!m || !proxyIndex.isValid() || proxyIndex.model() != this ||
        proxyIndex.row() >= static_cast<int>(m_rows.size()))
        return {};
    return m->index(m_rows[static_cast<std::size_t>(proxyIndex.row())], proxyIndex.column());
}

QModelIndex TableProxy::mapFromSource(const QModelIndex& sourceIndex) const {
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel() ||
        sourceIndex.row() >= static_cast<int>(m_proxyOf.size()))
        return {};
    const int p = m_proxyOf[static_cast<std::size_t>(sourceIndex.row())];
    return p < 0 ? QModelIndex() : index(p, sourceIndex.column());
}

QItemSelection TableProxy::mapSelectionToSource(const QItemSelection& selection) const {
    QItemSelection out;
    const QAbstractItemModel* m = sourceModel();
    if (!m) return out;
    for (const QItemSelectionRange& range : selection) {
        if (range.model() != this) continue;
        for (int r = range.top(); r <= range.bottom() && r < static_cast<int>(m_rows.size()); ++r) {
            const int s = m_rows[static_cast<std::size_t>(r)];
            out.append(QItemSelectionRange(m->index(s, range.left()), m->index(s, range.right())));
        }
    }
    return out;
}

QItemSelection TableProxy::mapSelectionFromSource(const QItemSelection& selection) const {
    QItemSelection out;
    for (const QItemSelectionRange& range : selection) {
        if (range.model() != sourceModel()) continue;
        for (int r = range.top(); r <= range.bottom() && r < static_cast<int>(m_proxyOf.size()); ++r) {
            const int p = m_proxyOf[static_cast<std::size_t>(r)];
            if (p >= 0) out.append(QItemSelectionRange(index(p, range.left()), index(p, range.right())));
        }
    }
    return out;
}

}  // namespace contend::widgets
