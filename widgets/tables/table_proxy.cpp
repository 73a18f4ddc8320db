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

void TableProxy::setSourceModel(QAbstractItemModel* model) {
    if (sourceModel()) disconnect(sourceModel(), nullptr, this, nullptr);
    dropKeys();
    if (model) {
        auto drop = [this] { dropKeys(); };
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this, drop);
        connect(model, &QAbstractItemModel::modelReset, this, drop);
        connect(model, &QAbstractItemModel::dataChanged, this, drop);
        connect(model, &QAbstractItemModel::rowsInserted, this, drop);
        connect(model, &QAbstractItemModel::rowsRemoved, this, drop);
        connect(model, &QAbstractItemModel::rowsMoved, this, drop);
        connect(model, &QAbstractItemModel::layoutAboutToBeChanged, this, drop);
        connect(model, &QAbstractItemModel::layoutChanged, this, drop);
    }
    QSortFilterProxyModel::setSourceModel(model);
}

namespace {

// A number key, exact for 64-bit integers (absolute times in ns do not fit a double's mantissa).
long double numberOf(const QVariant& v) {
    switch (v.metaType().id()) {
    case QMetaType::Int:
    case QMetaType::LongLong: return static_cast<long double>(v.toLongLong());
    case QMetaType::UInt:
    case QMetaType::ULongLong: return static_cast<long double>(v.toULongLong());
    case QMetaType::Double:
    case QMetaType::Float: return static_cast<long double>(v.toDouble());
    default: return 0;
    }
}

}  // namespace

void TableProxy::buildKeys(int column) const {
    const QAbstractItemModel* m = sourceModel();
    const int rows = m->rowCount();
    m_numbers.clear();
    m_strings.clear();
    m_numeric = true;
    std::vector<QVariant> values;
    values.reserve(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r) {
        values.push_back(m->index(r, column).data(sortRole()));
        const QMetaType t = values.back().metaType();
        const bool number = t.id() == QMetaType::Int || t.id() == QMetaType::UInt || t.id() == QMetaType::LongLong ||
                            t.id() == QMetaType::ULongLong || t.id() == QMetaType::Double ||
                            t.id() == QMetaType::Float || !values.back().isValid();
        m_numeric = m_numeric && number;
    }
    if (m_numeric) {
        m_numbers.reserve(values.size());
        for (const QVariant& v : values) m_numbers.push_back(numberOf(v));
    } else {
        m_strings.reserve(values.size());
        for (const QVariant& v : values) m_strings.push_back(v.toString());
    }
    m_keyColumn = column;
}

bool TableProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    // Called ~n log n times a sort: no virtual call into the model here once the keys are kept
    // (any change of the source drops them first).
    if (left.column() != right.column() || !sourceModel()) return QSortFilterProxyModel::lessThan(left, right);
    if (m_keyColumn != left.column()) buildKeys(left.column());
    const std::size_t rows = m_numeric ? m_numbers.size() : m_strings.size();
    const auto l = static_cast<std::size_t>(left.row()), r = static_cast<std::size_t>(right.row());
    if (l >= rows || r >= rows) return QSortFilterProxyModel::lessThan(left, right);
    if (m_numeric) return m_numbers[l] < m_numbers[r];
    return QString::compare(m_strings[l], m_strings[r], sortCaseSensitivity()) < 0;
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
