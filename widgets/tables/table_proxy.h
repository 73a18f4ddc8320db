#pragma once
// Sort and filter for the report tables (flat models only): sorts by the models' raw values
// (SortRole), filters rows whose text in any column contains the filter words (all of them, any
// order, case insensitive), and optionally keeps only one group (a signature's operator type).
//
// The sort is a permutation computed from one plain key per row (row_sort.h): a ColumnModel
// hands its column's keys from its compact data (ColumnModel::sortKeys), any other model's are
// read once per row through SortRole. QSortFilterProxyModel compared rows through model indexes,
// n log n times per sort, on every slider step (240k findings: ~100 ms a table); this costs a
// pass or two over the keys. The order is the one QSortFilterProxyModel gave: stable from the
// current order on a sort, from the source's order after a reset (the reports list findings by
// score, highest first), so ties come out as before.
//
// A sort or a filter change is a layout change (VerticalSortHint): the selection and the current
// row follow their rows, and a row the filter hides drops out of them. A source reset is a reset;
// rows or columns inserted, removed or moved in the source are too (no model here does that).
#include <vector>

#include <QAbstractProxyModel>
#include <QPersistentModelIndex>
#include <QStringList>

namespace contend::widgets {

class TableProxy : public QAbstractProxyModel {
    Q_OBJECT
  public:
    explicit TableProxy(QObject* parent = nullptr);
    void setFilterWords(const QString& text);
    QString filterWords() const { return m_words.join(' '); }
    // Only rows whose GroupRole equals `group`; empty for all.
    void setGroup(const QString& group);
    QString group() const { return m_group; }
    void setSourceModel(QAbstractItemModel* model) override;

    // -1: the source's order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex& idx) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
    QItemSelection mapSelectionToSource(const QItemSelection& selection) const override;
    QItemSelection mapSelectionFromSource(const QItemSelection& selection) const override;

    // The source rows in the sorted order (all of them, shown or not).
    const std::vector<int>& sortedSourceRows() const { return m_order; }

  private:
    bool acceptsRow(int sourceRow) const;
    // Sorts `order` (stable from its current order) by the sort column.
    void applySort(std::vector<int>& order) const;
    // m_order from the source's order, sorted; m_accepted, m_rows and m_proxyOf from it.
    void rebuild();
    void clearMapping();  // drops the permutation and the filter's rows (no signal)
    void refilter();
    void remap();
    // Applies `change` to the mapping as a layout change that keeps persistent indexes on their rows.
    template <typename Change>
    void relayout(Change change);

    void onSourceLayoutAboutToBeChanged();
    void onSourceLayoutChanged();
    void onSourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight, const QList<int>& roles);

    QStringList m_words;
    QString m_group;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    std::vector<int> m_order;      // every source row, in the sorted order
    std::vector<char> m_accepted;  // per source row: shown by the filter
    std::vector<int> m_rows;       // proxy row -> source row
    std::vector<int> m_proxyOf;    // source row -> proxy row, -1 when hidden
    int m_columns = 0;
    // Across a source layout change: the persistent indexes and the source indexes they stood for.
    QModelIndexList m_layoutFrom;
    QList<QPersistentModelIndex> m_layoutSource;
    bool m_resetting = false;
};

}  // namespace contend::widgets
