// Text where there is room (issue 29, items 3 and 4): table columns sized to their content
// with the room left going to the cut text and the last free column, text cut between items and
// never inside a number, heatmap rows a label line high that scroll when the pane is short, the
// heatmap's bar saying what the overlap ratio changes, and the breakdown inside its pane.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include <QAbstractItemDelegate>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <qcustomplot.h>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "core/analysis/model/anomaly.h"
#include "gui_support.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/common/text.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/cluster_model.h"
#include "widgets/tables/column_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/table_proxy.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::pump;
using contend::test::SampleWindow;

namespace {

// A table like the cluster window's: numbers, then a sentence and a path, the last columns.
class SentenceModel : public ColumnModel {
  public:
    explicit SentenceModel(std::vector<QString> why, bool endWithNumber = false)
        : ColumnModel(endWithNumber ? std::vector<Column>{{QStringLiteral("Step"), ColumnKind::Count, {}},
                                                          {QStringLiteral("Why"), ColumnKind::Text, {}},
                                                          {QStringLiteral("Wait"), ColumnKind::Duration, {}}}
                                    : std::vector<Column>{{QStringLiteral("Step"), ColumnKind::Count, {}},
                                                          {QStringLiteral("Wait"), ColumnKind::Duration, {}},
                                                          {QStringLiteral("Why"), ColumnKind::Text, {}},
                                                          {QStringLiteral("Trace"), ColumnKind::Text, {}}},
                      nullptr),
          m_why(std::move(why)),
          m_endWithNumber(endWithNumber) {}

  protected:
    int rows() const override { return static_cast<int>(m_why.size()); }
    QVariant raw(int row, int column) const override {
        const QString why = m_why[static_cast<std::size_t>(row)];
        if (m_endWithNumber)
            return column == 0 ? QVariant(qint64{row}) : column == 1 ? QVariant(why) : QVariant(qint64{1500});
        switch (column) {
        case 0: return qint64{row};
        case 1: return qint64{1'250'000};
        case 2: return why;
        default: return QStringLiteral("/data/run-42/rank%1/trace.json").arg(row);
        }
    }

  private:
    std::vector<QString> m_why;
    bool m_endWithNumber;
};

// A table like the Network tab's: a long signature, then eight numbers.
class SignatureLikeModel : public ColumnModel {
  public:
    SignatureLikeModel()
        : ColumnModel(
              [] {
                  std::vector<Column> columns{{QStringLiteral("Signature"), ColumnKind::Name, {}}};
                  for (int i = 0; i < 8; ++i)
                      columns.push_back({QStringLiteral("Figure %1").arg(i), ColumnKind::Duration, {}});
                  return columns;
              }(),
              nullptr) {}

  protected:
    int rows() const override { return 3; }
    QVariant raw(int row, int column) const override {
        if (column == 0) return QStringLiteral("Memcpy HtoD (Pinned -> Device) [bytes=%1]").arg(42005954 + row);
        return qint64{123'456'789};
    }
};

// 2000 rows whose widest name and widest number sit far down (rows 1500 and 1700).
class FarWidestModel : public ColumnModel {
  public:
    FarWidestModel()
        : ColumnModel({{QStringLiteral("Operator"), ColumnKind::Name, {}},
                       {QStringLiteral("Wait"), ColumnKind::Duration, {}},
                       {QStringLiteral("Cause"), ColumnKind::Resource, {}}},
                      nullptr) {}

  protected:
    int rows() const override { return 2000; }
    QVariant raw(int row, int column) const override {
        if (column == 0)
            return row == 1500 ? QStringLiteral("a_much_longer_operator_name_than_any_other_row")
                               : QStringLiteral("op");
        if (column == 1) return qint64{row == 1700 ? 987'654'321'000 : 1500};
        return static_cast<int>(row == 1800 ? Resource::Bandwidth : Resource::None);
    }
};

int sumOfWidths(QTableView* v) {
    int sum = 0;
    for (int c = 0; c < v->model()->columnCount(); ++c) sum += v->columnWidth(c);
    return sum;
}

}  // namespace

TEST_CASE("a text column gets its whole content when the table has room, and the last fills it", "[room][tables]") {
    const QString longWhy = QStringLiteral(
        "rank 5 arrived 1.2 ms late at ncclDevKernel_AllReduce_Sum_f32 #3: its conv2d_3x3 waited 0.9 ms for "
        "bandwidth before it");
    SentenceModel model({longWhy, QStringLiteral("rank 2 arrived late")});
    TablePanel panel(&model, QStringLiteral("Filter…"));
    QTableView* v = panel.view();
    const QFontMetrics fm(v->font());
    const int whyWidth = fm.horizontalAdvance(longWhy);
    REQUIRE(whyWidth > 240);  // wider than a text column starts

    panel.resize(whyWidth + 700, 300);
    panel.show();
    pump(50);
    panel.fitColumns();
    // Room enough: the sentence is whole (not cut at 240 px with half the table empty), and the
    // last column (the trace, a text) takes what is left: no empty strip at the right.
    CHECK(v->columnWidth(2) >= whyWidth);
    CHECK(sumOfWidths(v) >= v->viewport()->width() - 1);
    CHECK(v->columnWidth(3) >= fm.horizontalAdvance(QStringLiteral("/data/run-42/rank0/trace.json")));

    // Narrow: the numbers stay whole, the sentence is cut, whole in its tooltip.
    panel.resize(520, 300);
    pump(50);
    CHECK(v->columnWidth(1) >= fm.horizontalAdvance(durationText(1'250'000)));
    CHECK(v->columnWidth(2) < whyWidth);
    CHECK(v->model()->index(0, 2).data(Qt::ToolTipRole).toString() == longWhy);
}

TEST_CASE("a name keeps two fifths of a narrow table, the numbers scroll sideways", "[room][tables]") {
    SignatureLikeModel model;
    TablePanel panel(&model, QStringLiteral("Filter…"));
    QTableView* v = panel.view();
    const QFontMetrics fm(v->font());
    const int nameWidth = fm.horizontalAdvance(QStringLiteral("Memcpy HtoD (Pinned -> Device) [bytes=42005954]"));
    panel.show();
    // The Network tab at 1280x800 is about 540 px wide: the numbers alone overflow it.
    for (int width : {400, 540, 700}) {
        panel.resize(width, 300);
        pump(50);
        panel.fitColumns();
        const int view = v->viewport()->width();
        INFO("width " << width << ", view " << view << ", name " << v->columnWidth(0));
        CHECK(v->columnWidth(0) >= std::min(nameWidth, view * 2 / 5));
        for (int c = 1; c < model.columnCount(); ++c)  // numbers stay whole
            CHECK(v->columnWidth(c) >= fm.horizontalAdvance(durationText(123'456'789)));
    }
    // Wide: the whole name, not more than it needs.
    panel.resize(nameWidth + 1200, 300);
    pump(50);
    panel.fitColumns();
    CHECK(v->columnWidth(0) >= nameWidth);
}

TEST_CASE("a table's fit sees the widest cell of its first 2000 rows, not only the first ones", "[room][tables]") {
    FarWidestModel model;
    TablePanel panel(&model, QStringLiteral("Filter…"));
    panel.resize(1600, 300);
    panel.show();
    pump(50);
    panel.fitColumns();
    QTableView* v = panel.view();
    QStyleOptionViewItem opt;
    opt.initFrom(v);
    opt.font = v->font();
    opt.fontMetrics = QFontMetrics(opt.font);
    opt.widget = v;
    const int icon = v->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, v);
    opt.decorationSize = QSize(icon, icon);
    auto hint = [&](int row, int column) {
        QAbstractItemDelegate* d =
            v->itemDelegateForColumn(column) ? v->itemDelegateForColumn(column) : v->itemDelegate();
        return d->sizeHint(opt, panel.proxy()->index(row, column)).width();
    };
    CHECK(v->columnWidth(0) >= hint(1500, 0));
    CHECK(v->columnWidth(1) >= hint(1700, 1));  // the number is never cut
    CHECK(v->columnWidth(2) >= hint(1800, 2));  // its swatch and name
}

TEST_CASE("a table that ends in a number is not stretched past its content", "[room][tables]") {
    SentenceModel model({QStringLiteral("short")}, true);
    TablePanel panel(&model, QStringLiteral("Filter…"));
    panel.resize(1200, 300);
    panel.show();
    pump(50);
    panel.fitColumns();
    QTableView* v = panel.view();
    // The text is whole and the number column as wide as its content: the rest stays empty
    // rather than a right-aligned number far from its neighbours.
    CHECK(v->columnWidth(2) < 200);
    CHECK(sumOfWidths(v) < v->viewport()->width());
}

TEST_CASE("text is cut between items, never inside a number", "[ux][text]") {
    const QFont font;
    const QFontMetrics fm(font);
    // A copy's signature: the byte count is whole or not there at all.
    const QString copy = QStringLiteral("Memcpy DtoD (Device -> Device) [bytes=42005954]");
    for (const QString& upTo : {QStringLiteral("Memcpy DtoD (Device -> Device) [bytes=4200"),
                                QStringLiteral("Memcpy DtoD (Device -> Device) [bytes=42005")}) {
        const int width = fm.horizontalAdvance(upTo + QStringLiteral("…"));
        REQUIRE(fm.horizontalAdvance(copy) > width);
        for (const QString& e : {elideAtBreak(copy, fm, width), elideKeepingTail(copy, fm, width)}) {
            INFO(e.toStdString());
            CHECK(fm.horizontalAdvance(e) <= width);
            CHECK(e != copy);
            // No digit just before the dots: "bytes=4200…" would read as 4200 bytes. The count
            // is whole (the name cut instead) or not there.
            CHECK_FALSE(e.contains(QRegularExpression(QStringLiteral("\\d…"))));
            CHECK((e.contains(QStringLiteral("42005954]")) || !e.contains(QStringLiteral("bytes=4"))));
        }
    }
    CHECK(elideAtBreak(copy, fm, fm.horizontalAdvance(QStringLiteral("Memcpy DtoD (Device -> Device) [bytes=4200…"))) ==
          QStringLiteral("Memcpy DtoD (Device -> Device) [bytes=…"));
    // In a signature column the byte count (one item: what tells two copies apart) stays whole
    // while the name keeps a few characters, also where it would take more than 2/3 of the width.
    const QString big = QStringLiteral("Memcpy HtoD (Pinned -> Device) [bytes=4200595456]");
    for (const QString& room :
         {QStringLiteral("Memcpy Ht [bytes=4200595456]"), QStringLiteral("Memc… [bytes=4200595456]")}) {
        const QString e = elideKeepingTail(big, fm, fm.horizontalAdvance(room));
        INFO(e.toStdString());
        CHECK(e.endsWith(QStringLiteral("[bytes=4200595456]")));
        CHECK(e.startsWith(QStringLiteral("Mem")));  // a few characters of the name
        CHECK(fm.horizontalAdvance(e) <= fm.horizontalAdvance(room));
    }
    // A sentence is cut after a word; one that fits is left alone.
    const QString why = QStringLiteral("rank 3 arrived 1.2 ms late at allreduce #4, after its conv2d waited");
    const QString cut = elideAtBreak(why, fm, fm.horizontalAdvance(QStringLiteral("rank 3 arrived 1.2 ms la")));
    CHECK(cut == QStringLiteral("rank 3 arrived 1.2 ms…"));
    CHECK(elideAtBreak(why, fm, fm.horizontalAdvance(why)) == why);
    // A word with no break in it is cut as Qt cuts it.
    const QString word = QStringLiteral("index_put_accumulate_something_long");
    const int w = fm.horizontalAdvance(QStringLiteral("index_put_acc"));
    CHECK(elideAtBreak(word, fm, w) == fm.elidedText(word, Qt::ElideRight, w));
}

TEST_CASE("heatmap rows are at least a label line high and scroll when the pane is short", "[room][heatmap]") {
    REQUIRE(contend::test::haveSample());
    SampleWindow sample({1280, 800});
    MainWindow& w = sample.window;
    HeatmapView heat;
    heat.setTrace(w.timeline()->data()->trace);
    heat.setReport(w.session()->report());
    heat.setRows(HeatmapRows::Streams);
    heat.resize(900, 170);
    heat.show();
    pump(50);
    heat.refreshNow();
    heat.plot()->replot(QCustomPlot::rpImmediateRefresh);
    pump(50);
    heat.refreshNow();
    heat.plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QFontMetrics fm(heat.plot()->yAxis->tickLabelFont());
    CHECK(heat.minRowHeight() >= fm.height() + 2);
    // However short the pane: rows a label line high (labels one per row cannot overlap).
    const int rows = heat.grid().rowCount();
    REQUIRE(rows >= 2);
    CHECK(heat.rowHeight() >= heat.minRowHeight() - 1);
    if (rows * heat.minRowHeight() > heat.scrollArea()->viewport()->height())
        CHECK(heat.scrollArea()->verticalScrollBar()->maximum() > 0);
    // With room, the rows share it and nothing scrolls.
    heat.resize(900, rows * heat.minRowHeight() * 2 + 200);
    pump(50);
    heat.refreshNow();
    heat.plot()->replot(QCustomPlot::rpImmediateRefresh);
    CHECK(heat.scrollArea()->verticalScrollBar()->maximum() == 0);
    CHECK(heat.rowHeight() >= heat.minRowHeight());
}

TEST_CASE("the heatmap's bar counts the windows the overlap ratio makes", "[room][heatmap]") {
    REQUIRE(contend::test::haveSample());
    SampleWindow sample({1280, 800});
    MainWindow& w = sample.window;
    HeatmapView* h = w.heatmap();
    h->refreshNow();
    const int outlined = h->windowOutlines();
    REQUIRE(outlined > 0);
    CHECK(h->note()->text().contains(QStringLiteral("%1 contention window").arg(outlined)));
    CHECK(h->note()->toolTip().contains(QStringLiteral("overlap ratio")));
    // Fewer windows (a higher ratio): the cells are the same, the count says what changed.
    auto fewer = std::make_shared<Report>(*w.session()->report());
    fewer->windows.resize(fewer->windows.size() / 2);
    h->setReport(fewer);
    h->refreshNow();
    CHECK(h->windowOutlines() < outlined);
    CHECK(h->note()->text().contains(QStringLiteral("%1 contention window").arg(h->windowOutlines())));
}

TEST_CASE("a cluster's gain and saving are named apart and their difference explained", "[room][words]") {
    contend::test::TinyTrace tiny;
    tiny.op(tiny.stream(7), "k", 0, 1000);
    auto report = std::make_shared<Report>();
    Cluster c;
    c.waitNs = 300'000;
    c.savingNs = 276'000;
    c.gainNs = 288'000;
    report->clusters = {c};
    ClusterModel model;
    model.setReport(tiny.finish(), report);
    const QString gainHead = model.headerData(ClusterModel::Gain, Qt::Horizontal).toString();
    const QString savingHead = model.headerData(ClusterModel::Saving, Qt::Horizontal).toString();
    CHECK(gainHead.contains(QStringLiteral("end to end")));
    CHECK(savingHead.contains(QStringLiteral("stream")));
    CHECK(model.headerData(ClusterModel::Gain, Qt::Horizontal, Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("knock-on")));
    const QString tip = model.index(0, ClusterModel::Gain).data(Qt::ToolTipRole).toString();
    CHECK(tip.contains(durationText(12'000) + QStringLiteral(" more than the ") + durationText(276'000)));
    CHECK(tip.contains(QStringLiteral("one launch gap")));
    c.gainNs = 200'000;  // gaps with slack: less
    CHECK(gainVersusSaving(c).startsWith(durationText(76'000) + QStringLiteral(" less than")));
    c.gainNs = -1;
    CHECK(gainVersusSaving(c).isEmpty());
}

TEST_CASE("a narrowed breakdown keeps its histogram and legend inside the pane", "[room][breakdown]") {
    REQUIRE(contend::test::haveSample());
    SampleWindow sample({1280, 800});
    MainWindow& w = sample.window;
    const ReportPtr report = w.session()->report();
    REQUIRE(report);
    REQUIRE(!report->anomalies.empty());
    BreakdownView view;
    view.setTrace(w.timeline()->data()->trace);
    view.setReport(report, w.session()->current()->sliceView());
    view.showSlice(report->anomalies.front().slice);
    view.show();
    for (const QSize size : {QSize(400, 460), QSize(400, 300), QSize(380, 250), QSize(520, 700), QSize(1100, 300)}) {
        view.resize(size);
        pump(60);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        INFO("asked " << size.width() << "x" << size.height() << ", got " << view.width() << "x" << view.height());
        // Never shorter than the parts need: two title lines, the plot and the whole legend.
        CHECK(view.height() >= view.minimumHeight());
        CHECK(view.minimumHeight() >= view.plot()->minimumHeight() + view.legend()->heightForWidth(view.width()));
        // The legend is under the plot and inside the pane; every axis rect inside the plot.
        CHECK(view.legend()->geometry().top() >= view.plot()->geometry().bottom());
        CHECK(view.legend()->geometry().bottom() <= view.height());
        for (QCPAxisRect* r : view.plot()->axisRects()) {
            CHECK(r->outerRect().bottom() <= view.plot()->height());
            CHECK(r->rect().height() >= 40);
        }
    }
}
