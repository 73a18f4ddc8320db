// TableProxy's sort keys (read once per row, kept until the source changes): the order is the
// one the values give, exact on absolute nanoseconds a double cannot tell apart, ties in the
// source's order, and never stale after the source changes (reset with as many rows, one cell
// changed, rows added).
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <vector>

#include <QStandardItemModel>

#include "widgets/tables/table_proxy.h"
#include "widgets/tables/table_roles.h"

using namespace contend::widgets;

namespace {

constexpr qint64 kBase = 1'683'564'902'136'198'000;  // absolute ns: 1 ns apart is below a double's step

struct Row {
    qint64 time;
    QString name;
    double score;
};

std::vector<Row> rows(int n, int seed) {
    std::vector<Row> out;
    for (int i = 0; i < n; ++i) {
        const int k = (i * 7919 + seed * 104729) % n;
        out.push_back({kBase + k, QStringLiteral("op_%1").arg((k * 31) % 97), static_cast<double>((k * 13) % 11)});
    }
    return out;
}

void fill(QStandardItemModel& m, const std::vector<Row>& data) {
    m.clear();
    m.setColumnCount(3);
    for (const Row& r : data) {
        QList<QStandardItem*> items;
        for (int c = 0; c < 3; ++c) items << new QStandardItem;
        items[0]->setData(QVariant::fromValue(r.time), SortRole);
        items[1]->setData(r.name, SortRole);
        items[2]->setData(r.score, SortRole);
        m.appendRow(items);
    }
}

// Whether `order` lists every row once, sorted by the column's values (ties in any order: a
// re-sort keeps the previous sort's order among them, as Qt's stable sort does).
bool sortedBy(const std::vector<Row>& data, const std::vector<int>& order, int column, Qt::SortOrder dir) {
    if (order.size() != data.size()) return false;
    std::vector<int> seen(order);
    std::sort(seen.begin(), seen.end());
    for (std::size_t i = 0; i < seen.size(); ++i)
        if (seen[i] != static_cast<int>(i)) return false;
    for (std::size_t i = 1; i < order.size(); ++i) {
        const Row &a = data[static_cast<std::size_t>(order[i - 1])], &b = data[static_cast<std::size_t>(order[i])];
        int cmp = 0;
        if (column == 0) cmp = a.time < b.time ? -1 : a.time > b.time ? 1 : 0;
        if (column == 1) cmp = QString::compare(a.name, b.name, Qt::CaseSensitive);
        if (column == 2) cmp = a.score < b.score ? -1 : a.score > b.score ? 1 : 0;
        if (dir == Qt::AscendingOrder ? cmp > 0 : cmp < 0) return false;
    }
    return true;
}

// The source rows top to bottom.
std::vector<int> shown(const TableProxy& p) {
    std::vector<int> out;
    for (int r = 0; r < p.rowCount(); ++r) out.push_back(p.mapToSource(p.index(r, 0)).row());
    return out;
}

// What the values give: a stable sort of the source rows (ties in the source's order).
std::vector<int> expected(const std::vector<Row>& data, int column, Qt::SortOrder order) {
    std::vector<int> idx(data.size());
    std::iota(idx.begin(), idx.end(), 0);
    auto less = [&](int a, int b) {
        const Row &x = data[static_cast<std::size_t>(a)], &y = data[static_cast<std::size_t>(b)];
        if (column == 0) return x.time < y.time;
        if (column == 1) return QString::compare(x.name, y.name, Qt::CaseSensitive) < 0;
        return x.score < y.score;
    };
    if (order == Qt::AscendingOrder)
        std::stable_sort(idx.begin(), idx.end(), less);
    else
        std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return less(b, a); });
    return idx;
}

}  // namespace

TEST_CASE("the table proxy sorts by keys read once, exact and never stale", "[tables][sort]") {
    QStandardItemModel model;
    std::vector<Row> data = rows(500, 1);
    fill(model, data);
    TableProxy proxy;
    proxy.setSourceModel(&model);
    for (int column : {0, 1, 2})
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            INFO("column " << column << ", order " << order);
            proxy.sort(column, order);
            CHECK(sortedBy(data, shown(proxy), column, order));
        }
    // The times 1 ns apart are told apart (a double key would tie them).
    proxy.sort(0, Qt::AscendingOrder);
    const std::vector<int> byTime = shown(proxy);
    for (std::size_t i = 1; i < byTime.size(); ++i)
        CHECK(data[static_cast<std::size_t>(byTime[i - 1])].time < data[static_cast<std::size_t>(byTime[i])].time);

    // A reset with as many rows and other values: sorted by the new ones, ties in the source's
    // order (the mapping starts over on a reset).
    proxy.sort(2, Qt::DescendingOrder);
    data = rows(500, 2);
    fill(model, data);
    CHECK(shown(proxy) == expected(data, 2, Qt::DescendingOrder));

    // One cell changed: the order follows it.
    data[3].score = 100;
    model.item(3, 2)->setData(100.0, SortRole);
    CHECK(shown(proxy).front() == 3);
    CHECK(sortedBy(data, shown(proxy), 2, Qt::DescendingOrder));

    // Rows added: sorted in.
    std::vector<Row> more = rows(50, 3);
    for (Row& r : more) r.score = -5;
    for (const Row& r : more) {
        data.push_back(r);
        QList<QStandardItem*> items;
        for (int c = 0; c < 3; ++c) items << new QStandardItem;
        items[0]->setData(QVariant::fromValue(r.time), SortRole);
        items[1]->setData(r.name, SortRole);
        items[2]->setData(r.score, SortRole);
        model.appendRow(items);
    }
    CHECK(sortedBy(data, shown(proxy), 2, Qt::DescendingOrder));
    proxy.sort(1, Qt::AscendingOrder);
    CHECK(sortedBy(data, shown(proxy), 1, Qt::AscendingOrder));
}
