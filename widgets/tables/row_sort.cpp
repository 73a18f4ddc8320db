#include "widgets/tables/row_sort.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include <QHash>

namespace contend::widgets {

quint64 orderedReal(double v) {
    if (std::isnan(v)) return std::numeric_limits<quint64>::max();
    if (v == 0) v = 0.0;  // -0 == 0
    quint64 bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    constexpr quint64 sign = quint64{1} << 63;
    return (bits & sign) ? ~bits : bits | sign;
}

SortKeys SortKeys::fromValues(const std::vector<QVariant>& values) {
    SortKeys k;
    bool real = false;
    for (const QVariant& v : values) {
        switch (v.metaType().id()) {
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::LongLong:
        case QMetaType::UnknownType: break;
        case QMetaType::ULongLong:
            if (v.toULongLong() > static_cast<qulonglong>(std::numeric_limits<qint64>::max())) real = true;
            break;
        case QMetaType::Double:
        case QMetaType::Float: real = true; break;
        default: k.text = true; break;
        }
        if (k.text) break;
    }
    if (k.text) {
        k.texts.reserve(values.size());
        for (const QVariant& v : values) k.texts.push_back(v.toString());
        return k;
    }
    k.codes.reserve(values.size());
    for (const QVariant& v : values)
        k.codes.push_back(real ? orderedReal(v.isValid() ? v.toDouble() : 0.0) : orderedInt(v.toLongLong()));
    return k;
}

namespace {

// Each text's rank among the distinct texts (equal under `cs` share one): repeated texts (names,
// tracks, causes) are compared once, not once per comparison of rows.
std::vector<quint64> textRanks(const std::vector<QString>& texts, Qt::CaseSensitivity cs) {
    QHash<QString, int> idOf;
    std::vector<QString> distinct;
    std::vector<int> ids;
    ids.reserve(texts.size());
    for (const QString& t : texts) {
        auto it = idOf.constFind(t);
        if (it == idOf.constEnd()) {
            it = idOf.insert(t, static_cast<int>(distinct.size()));
            distinct.push_back(t);
        }
        ids.push_back(*it);
    }
    std::vector<int> byText(distinct.size());
    std::iota(byText.begin(), byText.end(), 0);
    std::sort(byText.begin(), byText.end(), [&](int a, int b) {
        return QString::compare(distinct[static_cast<std::size_t>(a)], distinct[static_cast<std::size_t>(b)], cs) < 0;
    });
    std::vector<quint64> rank(distinct.size());
    quint64 r = 0;
    for (std::size_t i = 0; i < byText.size(); ++i) {
        if (i > 0 && QString::compare(distinct[static_cast<std::size_t>(byText[i - 1])],
                                      distinct[static_cast<std::size_t>(byText[i])], cs) != 0)
            ++r;
        rank[static_cast<std::size_t>(byText[i])] = r;
    }
    std::vector<quint64> codes;
    codes.reserve(texts.size());
    for (int id : ids) codes.push_back(rank[static_cast<std::size_t>(id)]);
    return codes;
}

struct Item {
    quint64 code;
    int row;
};

// Least significant digit first, a byte at a time: each pass is stable, so equal codes keep
// their order; a byte that is the same in every code (the high bytes of times, a column of
// equal gains) costs no pass.
void radixSort(std::vector<Item>& items) {
    const std::size_t n = items.size();
    std::vector<std::array<quint32, 256>> hist(8, std::array<quint32, 256>{});
    for (const Item& it : items)
        for (int d = 0; d < 8; ++d) ++hist[static_cast<std::size_t>(d)][(it.code >> (8 * d)) & 0xff];
    std::vector<Item> other(n);
    for (int d = 0; d < 8; ++d) {
        std::array<quint32, 256>& h = hist[static_cast<std::size_t>(d)];
        if (h[(items.front().code >> (8 * d)) & 0xff] == n) continue;
        quint32 at = 0;
        for (quint32& c : h) {
            const quint32 count = c;
            c = at;
            at += count;
        }
        for (const Item& it : items) other[h[(it.code >> (8 * d)) & 0xff]++] = it;
        items.swap(other);
    }
}

}  // namespace

void sortRows(const SortKeys& keys, Qt::SortOrder order, std::vector<int>& rows, Qt::CaseSensitivity cs) {
    if (rows.size() < 2) return;
    std::vector<quint64> ranks;
    if (keys.text) ranks = textRanks(keys.texts, cs);
    const std::vector<quint64>& codes = keys.text ? ranks : keys.codes;
    // Descending is ascending on the complement: equal codes stay equal, so ties keep their order.
    const quint64 flip = order == Qt::DescendingOrder ? ~quint64{0} : 0;
    auto code = [&](int row) { return codes[static_cast<std::size_t>(row)] ^ flip; };
    bool sorted = true;
    for (std::size_t i = 1; i < rows.size() && sorted; ++i) sorted = code(rows[i - 1]) <= code(rows[i]);
    if (sorted) return;
    std::vector<Item> items;
    items.reserve(rows.size());
    for (int row : rows) items.push_back({code(row), row});
    if (items.size() < 1024)
        std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.code < b.code; });
    else
        radixSort(items);
    for (std::size_t i = 0; i < items.size(); ++i) rows[i] = items[i].row;
}

}  // namespace contend::widgets
