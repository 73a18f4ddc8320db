// The tables' sort as a permutation from plain keys (row_sort.h, TableProxy): the order is the
// one the old QSortFilterProxyModel-based proxy gave, row for row, ties included: random columns
// full of ties (counts, scores with -0, texts differing in case, gains all "computing"), both
// directions, after a chain of header clicks and after resets; a filter shows the same rows in
// the same order; the selection and the current row follow their source row across sorts, and
// proxy and source rows map onto each other both ways.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "widgets/tables/column_model.h"
#include "widgets/tables/row_sort.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/table_proxy.h"
#include "widgets/tables/table_roles.h"

using namespace contend;
using namespace contend::widgets;

namespace {

constexpr qint64 kBase = 1'683'564'902'136'198'000;  // absolute ns: 1 ns apart is below a double's step

struct Row {
    qint64 count;
    double score;
    QString text;
    qint64 gain;
    int cause;
    qint64 time;
};

class RandomModel : public ColumnModel {
  public:
    enum Col { Count, Score, Text, Gain, Cause, Time };
    RandomModel()
        : ColumnModel({{QStringLiteral("N"), ColumnKind::Count, {}},
                       {QStringLiteral("Score"), ColumnKind::Score, {}},
                       {QStringLiteral("Text"), ColumnKind::Text, {}},
                       {QStringLiteral("Gain"), ColumnKind::Gain, {}},
                       {QStringLiteral("Cause"), ColumnKind::Resource, {}},
                       {QStringLiteral("Time"), ColumnKind::Time, {}}},
                      nullptr) {}
    void set(std::vector<Row> rows) {
        beginResetModel();
        m_data = std::move(rows);
        endResetModel();
    }

  protected:
    int rows() const override { return static_cast<int>(m_data.size()); }
    QVariant raw(int row, int column) const override {
        const Row& r = m_data[static_cast<std::size_t>(row)];
        switch (column) {
        case Count: return r.count;
        case Score: return r.score;
        case Text: return r.text;
        case Gain: return r.gain;
        case Cause: return r.cause;
        default: return r.time;
        }
    }

  private:
    std::vector<Row> m_data;
};

std::vector<Row> randomRows(int n, unsigned seed) {
    std::mt19937 rng(seed);
    const std::vector<double> scores = {-0.0, 0.0, 1.5, 2.25, -3.0, INFINITY, 7.0};
    const std::vector<QString> texts = {QStringLiteral("a"), QStringLiteral("A"),    QStringLiteral("b"),
                                        QStringLiteral("B"), QStringLiteral("op_1"), QString()};
    std::vector<Row> out;
    for (int i = 0; i < n; ++i) {
        Row r;
        r.count = static_cast<qint64>(rng() % 5) - 1;
        r.score = scores[rng() % scores.size()];
        r.text = texts[rng() % texts.size()];
        r.gain = rng() % 4 == 0 ? static_cast<qint64>(rng() % 1000) * 1000 : -1;  // mostly "computing"
        r.cause = static_cast<int>(rng() % 9);
        r.time = kBase + static_cast<qint64>(rng() % 50);
        out.push_back(r);
    }
    return out;
}

// The proxy as it was before the sort moved to plain keys: QSortFilterProxyModel comparing the
// SortRole values (numbers exact as long doubles, an invalid one as 0, else texts), filtering by
// words in any column's FilterRole.
class OldProxy : public QSortFilterProxyModel {
  public:
    OldProxy() {
        setSortRole(SortRole);
        setDynamicSortFilter(true);
    }
    void setFilterWords(const QString& text) {
        m_words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        invalidateRowsFilter();
    }

  protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override {
        // A column's values are all numbers or all texts here.
        const QVariant l = left.data(SortRole), r = right.data(SortRole);
        if (isNumber(l) && isNumber(r)) return number(l) < number(r);
        return QString::compare(l.toString(), r.toString(), Qt::CaseSensitive) < 0;
    }
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        if (m_words.isEmpty()) return true;
        QString text;
        for (int c = 0; c < sourceModel()->columnCount(); ++c)
            text += sourceModel()->index(row, c, parent).data(FilterRole).toString() + QLatin1Char('\n');
        for (const QString& w : m_words)
            if (!text.contains(w, Qt::CaseInsensitive)) return false;
        return true;
    }

  private:
    static bool isNumber(const QVariant& v) {
        const int t = v.metaType().id();
        return t == QMetaType::Int || t == QMetaType::UInt || t == QMetaType::LongLong || t == QMetaType::ULongLong ||
               t == QMetaType::Double || t == QMetaType::Float || !v.isValid();
    }
    static long double number(const QVariant& v) {
        const int t = v.metaType().id();
        if (t == QMetaType::Double || t == QMetaType::Float) return static_cast<long double>(v.toDouble());
        if (t == QMetaType::ULongLong) return static_cast<long double>(v.toULongLong());
        return v.isValid() ? static_cast<long double>(v.toLongLong()) : 0;
    }
    QStringList m_words;
};

template <typename Proxy>
std::vector<int> shown(const Proxy& p) {
    std::vector<int> out;
    for (int r = 0; r < p.rowCount(); ++r) out.push_back(p.mapToSource(p.index(r, 0)).row());
    return out;
}

}  // namespace

TEST_CASE("sortRows is a stable sort on the keys, both ways, from the order given", "[tables][sort]") {
    for (int n : {0, 1, 2, 200, 5000}) {
        std::mt19937 rng(static_cast<unsigned>(n) + 7);
        std::vector<qint64> ints(static_cast<std::size_t>(n));
        std::vector<double> reals(static_cast<std::size_t>(n));
        std::vector<QString> texts(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            ints[static_cast<std::size_t>(i)] =
                i % 3 == 0 ? kBase + static_cast<qint64>(rng() % 9) : -static_cast<qint64>(rng() % 4);
            reals[static_cast<std::size_t>(i)] = std::vector<double>{-0.0, 0.0, -1e300, 1.5, -2.5, 1e-300}[rng() % 6];
            texts[static_cast<std::size_t>(i)] = QStringList{"x", "X", "y", "", "x1"}[static_cast<int>(rng() % 5)];
        }
        SortKeys intKeys, realKeys, textKeys;
        for (qint64 v : ints) intKeys.codes.push_back(orderedInt(v));
        for (double v : reals) realKeys.codes.push_back(orderedReal(v));
        textKeys.text = true;
        textKeys.texts = texts;
        std::vector<int> start(static_cast<std::size_t>(n));
        std::iota(start.begin(), start.end(), 0);
        std::shuffle(start.begin(), start.end(), rng);
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder})
            for (Qt::CaseSensitivity cs : {Qt::CaseSensitive, Qt::CaseInsensitive}) {
                INFO("n " << n << ", order " << order << ", case " << cs);
                auto check = [&](const SortKeys& keys, auto less) {
                    std::vector<int> want = start, got = start;
                    if (order == Qt::AscendingOrder)
                        std::stable_sort(want.begin(), want.end(), less);
                    else
                        std::stable_sort(want.begin(), want.end(), [&](int a, int b) { return less(b, a); });
                    sortRows(keys, order, got, cs);
                    CHECK(got == want);
                };
                check(intKeys, [&](int a, int b) {
                    return ints[static_cast<std::size_t>(a)] < ints[static_cast<std::size_t>(b)];
                });
                check(realKeys, [&](int a, int b) {
                    return reals[static_cast<std::size_t>(a)] < reals[static_cast<std::size_t>(b)];
                });
                check(textKeys, [&](int a, int b) {
                    return QString::compare(texts[static_cast<std::size_t>(a)], texts[static_cast<std::size_t>(b)],
                                            cs) < 0;
                });
            }
    }
}

TEST_CASE("the table proxy shows the rows in the old proxy's order, ties included", "[tables][sort]") {
    for (int n : {200, 3000}) {
        INFO("rows " << n);
        RandomModel model;
        model.set(randomRows(n, 1));
        TableProxy proxy;
        proxy.setSourceModel(&model);
        OldProxy old;
        old.setSourceModel(&model);
        CHECK(shown(proxy) == shown(old));  // unsorted: the source's order
        // A chain of header clicks: each sort is stable from the one before.
        const std::vector<std::pair<int, Qt::SortOrder>> clicks = {
            {RandomModel::Gain, Qt::DescendingOrder}, {RandomModel::Score, Qt::DescendingOrder},
            {RandomModel::Text, Qt::AscendingOrder},  {RandomModel::Count, Qt::AscendingOrder},
            {RandomModel::Cause, Qt::AscendingOrder}, {RandomModel::Text, Qt::DescendingOrder},
            {RandomModel::Time, Qt::AscendingOrder},  {RandomModel::Count, Qt::DescendingOrder},
            {RandomModel::Gain, Qt::AscendingOrder},  {RandomModel::Score, Qt::AscendingOrder}};
        for (const auto& [column, order] : clicks) {
            INFO("column " << column << ", order " << order);
            proxy.sort(column, order);
            old.sort(column, order);
            CHECK(shown(proxy) == shown(old));
        }
        // A reset (a re-threshold): from the source's order again, sorted by the new values.
        for (unsigned seed : {2u, 3u}) {
            model.set(randomRows(n + static_cast<int>(seed), seed));
            CHECK(shown(proxy) == shown(old));
        }
        // A filter hides rows and keeps the order of the rest; cleared, the order before it.
        proxy.sort(RandomModel::Gain, Qt::DescendingOrder);
        old.sort(RandomModel::Gain, Qt::DescendingOrder);
        const std::vector<int> before = shown(proxy);
        proxy.setFilterWords(QStringLiteral("b"));
        old.setFilterWords(QStringLiteral("b"));
        CHECK(shown(proxy) == shown(old));
        CHECK(!shown(proxy).empty());
        CHECK(shown(proxy).size() < before.size());
        proxy.setFilterWords(QString());
        CHECK(shown(proxy) == before);
        proxy.sort(-1);
        std::vector<int> source(static_cast<std::size_t>(model.rowCount()));
        std::iota(source.begin(), source.end(), 0);
        CHECK(shown(proxy) == source);
    }
}

TEST_CASE("a table's selection follows its row across sorts, and proxy and source rows map both ways",
          "[tables][sort]") {
    RandomModel model;
    model.set(randomRows(3000, 5));
    TablePanel panel(&model, QStringLiteral("filter"));
    panel.resize(600, 400);
    panel.sortBy(RandomModel::Gain, Qt::DescendingOrder);
    const int picked = 1234;
    panel.selectSourceRow(picked);
    REQUIRE(panel.currentSourceRow() == picked);
    for (int column : {RandomModel::Score, RandomModel::Text, RandomModel::Time, RandomModel::Cause})
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            INFO("column " << column << ", order " << order);
            panel.sortBy(column, order);
            CHECK(panel.view()->horizontalHeader()->sortIndicatorSection() == column);
            CHECK(panel.view()->horizontalHeader()->sortIndicatorOrder() == order);
            CHECK(panel.currentSourceRow() == picked);
            const QModelIndexList rows = panel.view()->selectionModel()->selectedRows();
            REQUIRE(rows.size() == 1);
            CHECK(panel.proxy()->mapToSource(rows.front()).row() == picked);
            for (int r = 0; r < panel.proxy()->rowCount(); r += 97) {
                const QModelIndex p = panel.proxy()->index(r, column);
                const QModelIndex s = panel.proxy()->mapToSource(p);
                CHECK(s.column() == column);
                CHECK(panel.proxy()->mapFromSource(s) == p);
                CHECK(p.data(SortRole) == s.data(SortRole));
            }
        }
    // A filter that keeps the row keeps it selected; one that hides it drops the selection.
    const QString text = model.index(picked, RandomModel::Text).data().toString();
    panel.filterEdit()->setText(text.isEmpty() ? QStringLiteral("-") : text);
    if (!text.isEmpty()) CHECK(panel.currentSourceRow() == picked);
    panel.filterEdit()->setText(QStringLiteral("no such words"));
    CHECK(panel.proxy()->rowCount() == 0);
    CHECK(panel.currentSourceRow() == -1);
    panel.filterEdit()->clear();
    CHECK(panel.proxy()->rowCount() == model.rowCount());
}
