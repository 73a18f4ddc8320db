#include "widgets/tables/table_proxy.h"

#include "widgets/tables/table_roles.h"

namespace contend::widgets {

TableProxy::TableProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SortRole);
    setDynamicSortFilter(true);
}

void TableProxy::setFilterWords(const QString& text) {
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words) return;
    m_words = words;
    invalidateRowsFilter();
}

void TableProxy::setGroup(const QString& group) {
    if (group == m_group) return;
    m_group = group;
    invalidateRowsFilter();
}

bool TableProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    const QAbstractItemModel* m = sourceModel();
    if (!m) return true;
    if (!m_group.isEmpty() && m->index(row, 0, parent).data(GroupRole).toString() != m_group) return false;
    if (m_words.isEmpty()) return true;
    QString text;
    for (int c = 0; c < m->columnCount(parent); ++c) {
        text += m->index(row, c, parent).data(FilterRole).toString();
        text += QLatin1Char('\n');
    }
    for (const QString& w : m_words)
        if (!text.contains(w, Qt::CaseInsensitive)) return false;
    return true;
}

}  // namespace contend::widgets
