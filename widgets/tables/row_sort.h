#pragma once
// A table's sort as a permutation of its rows, computed from one plain key per row (no model
// index, no virtual call per comparison): numbers as an order-preserving 64-bit code, texts as
// their rank among the column's distinct texts. The permutation is stable: rows with equal keys
// keep the order they had in the list given, which is what Qt's QSortFilterProxyModel did (a
// stable sort of its current order; of the source's order after a reset), so the rows come out
// in the same order as before.
//
// Order is the one QVariant's `<` gave the old proxy: integers exactly (absolute ns do not fit
// a double), reals as doubles (-0 equal to 0; NaN above every number, where `<` had no order),
// a column mixing integers and reals as doubles; texts by QString::compare with the case
// sensitivity given (the proxy's default: case sensitive, not locale aware). An invalid value
// counts as the number 0.
#include <vector>

#include <QString>
#include <QVariant>
#include <QtGlobal>

namespace contend::widgets {

struct SortKeys {
    bool text = false;
    std::vector<quint64> codes;  // numbers: one code per row (orderedInt / orderedReal)
    std::vector<QString> texts;  // texts: one per row

    // Keys from the SortRole values of a column, as the old proxy compared them.
    static SortKeys fromValues(const std::vector<QVariant>& values);
};

// Codes whose unsigned order is the numbers' order.
inline quint64 orderedInt(qint64 v) { return static_cast<quint64>(v) ^ (quint64{1} << 63); }
quint64 orderedReal(double v);

// Sorts `rows` (indexes into the keys) by their keys in `order`; rows with equal keys keep their
// order in `rows`. Already sorted rows cost one pass.
void sortRows(const SortKeys& keys, Qt::SortOrder order, std::vector<int>& rows,
              Qt::CaseSensitivity cs = Qt::CaseSensitive);

}  // namespace contend::widgets
