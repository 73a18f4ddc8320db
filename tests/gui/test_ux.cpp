// What a new user meets in the main window (issue 17): tables that show their numbers whole,
// short kernel names, views that agree on what is selected, keys that work from anywhere,
// the loading panel, and Ctrl+F.
#include <catch2/catch.hpp>

#include <QAbstractItemDelegate>
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QHeaderView>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTableView>
#include <QTest>
#include <QUrl>

#include "app/gui/analysis_session.h"
#include "app/gui/loading_panel.h"
#include "app/gui/main_window.h"
#include "app/gui/search_bar.h"
#include "app/gui/settings_panel.h"
#include "gui_support.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/common/text.h"
#include "widgets/details/operator_details.h"
#include "widgets/tables/anomaly_model.h"
#include "widgets/tables/column_model.h"
#include "widgets/tables/operator_browser.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/slice_flows.h"
#include "widgets/timeline/slice_search.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::FreshSettings;
using contend::test::openSample;
using contend::test::pump;
using contend::test::SampleWindow;
using contend::test::waitFor;

namespace {

// The width a cell's text needs in its column, as the view's delegate measures it.
int cellWidth(QTableView* v, const QModelIndex& idx) {
    QStyleOptionViewItem opt;
    opt.initFrom(v);
    opt.widget = v;
    const int icon = v->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, v);
    opt.decorationSize = QSize(icon, icon);
    QAbstractItemDelegate* d = v->itemDelegateForColumn(idx.column());
    if (!d) d = v->itemDelegate();
    return d->sizeHint(opt, idx).width();
}

}  // namespace

TEST_CASE("long C++ kernel names get a short form that keeps the shape", "[ux][text]") {
    const QString cpp = QStringLiteral(
        "void at::native::(anonymous namespace)::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)");
    CHECK(shortOperatorName(cpp) == QStringLiteral("vectorized_elementwise_kernel<…>"));
    // Short template arguments tell kernels apart and stay.
    CHECK(shortOperatorName(QStringLiteral("void cutlass::device_kernel::Kernel<sm80_s1688gemm>(cutlass::Params)")) ==
          QStringLiteral("Kernel<sm80_s1688gemm>"));
    // The grid of a signature label is kept whole.
    CHECK(shortOperatorName(cpp + QStringLiteral(" [grid=[64, 1, 1] block=[256, 1, 1]]")) ==
          QStringLiteral("vectorized_elementwise_kernel<…> [grid=[64, 1, 1] block=[256, 1, 1]]"));
    // Plain names are left alone, even long ones.
    CHECK(shortOperatorName(QStringLiteral("conv2d_3x3_fwd [grid=[64, 1, 1] block=[256, 1, 1]]")) ==
          QStringLiteral("conv2d_3x3_fwd [grid=[64, 1, 1] block=[256, 1, 1]]"));
    CHECK(shortOperatorName(QStringLiteral("aten::addmm")) == QStringLiteral("aten::addmm"));

    // Elided to a width, three conv signatures that differ only in their grid stay different.
    const QFont font;
    const QFontMetrics fm(font);
    const QStringList sigs = {QStringLiteral("conv2d_3x3_fwd [grid=[64, 1, 1] block=[256, 1, 1]]"),
                              QStringLiteral("conv2d_3x3_fwd [grid=[128, 1, 1] block=[256, 1, 1]]"),
                              QStringLiteral("conv2d_3x3_fwd [grid=[32, 2, 1] block=[256, 1, 1]]")};
    const int width = fm.horizontalAdvance(QStringLiteral("conv2d_3x3_fwd [grid=[128, 1"));
    QStringList shown;
    for (const QString& s : sigs) {
        const QString e = elideKeepingTail(s, fm, width);
        CHECK(fm.horizontalAdvance(e) <= width);
        CHECK(e.contains(QStringLiteral("grid=[")));
        shown << e;
    }
    CHECK(shown[0] != shown[1]);
    CHECK(shown[1] != shown[2]);
    CHECK(shown[0] != shown[2]);
    // A plain name is elided at the right.
    const QString plain = elideKeepingTail(QStringLiteral("index_put_accumulate_something_long"), fm,
                                           fm.horizontalAdvance(QStringLiteral("index_put")));
    CHECK(plain.startsWith(QStringLiteral("index")));
    CHECK(plain.endsWith(QStringLiteral("…")));
}

TEST_CASE("no number is elided in the main window's tables at the default size", "[ux][tables]") {
    SampleWindow sample({1600, 1000});
    MainWindow& w = sample.window;
    for (TablePanel* p : {w.anomalyPanel(), w.windowPanel(), w.clusterPanel()}) {
        QTableView* v = p->view();
        REQUIRE(p->proxy()->rowCount() > 0);
        // The last column is as wide as its content, not the rest of the table.
        CHECK_FALSE(v->horizontalHeader()->stretchLastSection());
        for (int c = 0; c < p->model()->columnCount(); ++c) {
            const ColumnKind kind = p->model()->column(c).kind;
            if (kind == ColumnKind::Text || kind == ColumnKind::Name) continue;
            int widest = 0;
            for (int r = 0; r < p->proxy()->rowCount(); ++r)
                widest = std::max(widest, cellWidth(v, p->proxy()->index(r, c)));
            INFO(p->model()->headerData(c, Qt::Horizontal).toString().toStdString());
            CHECK(v->columnWidth(c) >= widest);
        }
    }
    // The operator column is not the narrow default: it shows whole names where there is room.
    const int name = AnomalyModel::Name;
    QTableView* v = w.anomalyPanel()->view();
    CHECK(v->columnWidth(name) >= 120);
}

TEST_CASE("the first click on a score or cost header sorts the biggest first", "[ux][tables]") {
    SampleWindow sample({1600, 1000});
    MainWindow& w = sample.window;
    TablePanel* p = w.anomalyPanel();
    QHeaderView* h = p->view()->horizontalHeader();
    auto click = [&](int section) {
        const int x = h->sectionViewportPosition(section) + h->sectionSize(section) / 2;
        QTest::mouseClick(h->viewport(), Qt::LeftButton, {}, QPoint(x, h->height() / 2));
        pump(20);
    };
    click(AnomalyModel::Excess);
    CHECK(h->sortIndicatorSection() == AnomalyModel::Excess);
    CHECK(h->sortIndicatorOrder() == Qt::DescendingOrder);
    const qint64 first = p->proxy()->index(0, AnomalyModel::Excess).data(SortRole).toLongLong();
    const qint64 last = p->proxy()->index(p->proxy()->rowCount() - 1, AnomalyModel::Excess).data(SortRole).toLongLong();
    CHECK(first >= last);
    // A second click flips it; names sort A to Z first.
    click(AnomalyModel::Excess);
    CHECK(h->sortIndicatorOrder() == Qt::AscendingOrder);
    click(AnomalyModel::Name);
    CHECK(h->sortIndicatorOrder() == Qt::AscendingOrder);
}

TEST_CASE("clicking a half-visible bottom row selects that row everywhere", "[ux][selection]") {
    SampleWindow sample({1600, 1000});
    MainWindow& w = sample.window;
    QTableView* v = w.anomalyPanel()->view();
    // The last row that is only partly inside the viewport.
    const int vh = v->viewport()->height();
    int row = -1;
    for (int r = 0; r < v->model()->rowCount(); ++r) {
        const int y = v->rowViewportPosition(r);
        if (y < vh && y + v->rowHeight(r) > vh) row = r;
    }
    REQUIRE(row > 0);
    const QPoint at(v->columnViewportPosition(AnomalyModel::Track) + 5, v->rowViewportPosition(row) + 3);
    QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, at);
    pump(QApplication::doubleClickInterval() + 300);  // Qt's delayed auto-scroll
    const quint32 clicked = v->model()->index(row, 0).data(SliceRole).toUInt();
    const QModelIndexList sel = v->selectionModel()->selectedRows();
    REQUIRE(sel.size() == 1);
    CHECK(sel.front().row() == row);
    CHECK(w.timeline()->selectedSlice() == clicked);
    CHECK(w.details()->slice() == clicked);
}

TEST_CASE("a selected window or cluster fills Details and Breakdown with its operators", "[ux][selection]") {
    SampleWindow sample({1600, 1000});
    MainWindow& w = sample.window;
    const ReportPtr r = w.session()->report();
    REQUIRE(r);
    REQUIRE(!r->windows.empty());
    REQUIRE(!r->clusters.empty());
    // An operator first, then a window: the operator must not linger anywhere.
    w.selectSlice(r->anomalies.front().slice, true);
    pump(20);
    REQUIRE(w.details()->shown() == OperatorDetails::Shown::Operator);
    // The window with the most operators.
    std::size_t wi = 0;
    for (std::size_t i = 0; i < r->windows.size(); ++i)
        if (r->windows[i].ops.size() > r->windows[wi].ops.size()) wi = i;
    w.windowPanel()->view()->setCurrentIndex(
        w.windowPanel()->proxy()->mapFromSource(w.windowPanel()->model()->index(static_cast<int>(wi), 0)));
    pump(20);
    CHECK(w.details()->shown() == OperatorDetails::Shown::Window);
    CHECK(w.timeline()->selectedSlice() == kNone);
    const QString text = w.details()->toPlainText();
    CHECK(text.contains(QStringLiteral("Contention window #%1").arg(r->windows[wi].id)));
    // Every operator of the window (up to the 40 listed) is named, with its extra wait.
    const Trace& t = *w.session()->current()->trace;
    for (std::size_t k = 0; k < std::min<std::size_t>(r->windows[wi].ops.size(), 40); ++k)
        CHECK(text.contains(shortOperatorName(sliceName(t, r->windows[wi].ops[k].slice))));
    CHECK_FALSE(w.breakdown()->isEmptyState());
    CHECK(w.breakdown()->bars().size() == std::min(r->windows[wi].ops.size(), BreakdownView::kMaxGroupBars));
    // The costliest operator of the window is the one the histogram is about.
    TimeNs most = -1;
    std::uint32_t costliest = kNone;
    for (const WindowOp& op : r->windows[wi].ops)
        if (op.extraWaitNs > most) most = op.extraWaitNs, costliest = op.slice;
    CHECK(w.breakdown()->slice() == costliest);

    // A cluster.
    w.clusterPanel()->view()->setCurrentIndex(w.clusterPanel()->proxy()->index(0, 0));
    pump(20);
    const int ci = w.clusterPanel()->currentSourceRow();
    REQUIRE(ci >= 0);
    CHECK(w.details()->shown() == OperatorDetails::Shown::Cluster);
    CHECK(w.details()->toPlainText().contains(
        QStringLiteral("Sync cluster #%1").arg(r->clusters[static_cast<std::size_t>(ci)].id)));
    CHECK_FALSE(w.breakdown()->bars().empty());
    CHECK(t.slices()[w.breakdown()->slice()].track == r->clusters[static_cast<std::size_t>(ci)].track);

    // Nothing selected: an empty state, not stale axes.
    w.selectSlice(r->anomalies.front().slice, false);
    w.selectSlice(kNone, false);
    pump(20);
    CHECK(w.breakdown()->isEmptyState());
    CHECK(w.details()->shown() == OperatorDetails::Shown::Nothing);
}

TEST_CASE("the two granularity controls stay in step", "[ux][granularity]") {
    SampleWindow sample({1600, 1000});
    MainWindow& w = sample.window;
    auto* settingsBox = w.settingsPanel()->findChild<QComboBox*>();
    auto* networkBox = w.browser()->findChild<QComboBox*>();
    REQUIRE(settingsBox);
    REQUIRE(networkBox);
    // Network dock -> settings.
    networkBox->setCurrentIndex(static_cast<int>(OperatorBrowser::Grouping::Type));
    CHECK(w.settingsPanel()->granularity() == SettingsPanel::PerOperatorType);
    networkBox->setCurrentIndex(static_cast<int>(OperatorBrowser::Grouping::Iteration));
    CHECK(w.settingsPanel()->granularity() == SettingsPanel::PerIteration);
    // Settings -> network dock.
    settingsBox->setCurrentIndex(SettingsPanel::WholeNetwork);
    CHECK(w.browser()->grouping() == OperatorBrowser::Grouping::Signature);
    CHECK(networkBox->currentIndex() == static_cast<int>(OperatorBrowser::Grouping::Signature));
    settingsBox->setCurrentIndex(SettingsPanel::PerOccurrence);
    CHECK(w.browser()->level() == OperatorBrowser::LevelKind::Occurrences);
    // Walking back up in the dock moves the setting too.
    w.browser()->back();
    CHECK(w.settingsPanel()->granularity() == SettingsPanel::WholeNetwork);
    // Drilling into a signature's occurrences is "per occurrence".
    w.browser()->openSignature(w.session()->report()->anomalies.front().signature);
    CHECK(w.settingsPanel()->granularity() == SettingsPanel::PerOccurrence);
}

TEST_CASE("timeline keys work from anywhere in the window but not in text fields", "[ux][keys]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    FreshSettings fresh;
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(&w));
    REQUIRE(openSample(w));
    QTableView* table = w.anomalyPanel()->view();
    table->setFocus();
    pump(20);
    REQUIRE(table->hasFocus());
    auto span = [&] { return w.timeline()->axis().t1 - w.timeline()->axis().t0; };
    // With the table focused: 0 shows the whole trace, W zooms in, D pans, 0 again resets.
    QTest::keyClick(table, Qt::Key_0);
    pump(20);
    const qint64 whole = span();
    QTest::keyClick(table, Qt::Key_W);
    pump(20);
    CHECK(span() < whole);
    const qint64 t0 = w.timeline()->axis().t0;
    QTest::keyClick(table, Qt::Key_D);
    pump(20);
    CHECK(w.timeline()->axis().t0 > t0);
    QTest::keyClick(table, Qt::Key_0);
    pump(20);
    CHECK(span() == whole);
    // In a text field "w" and "0" are letters.
    w.searchBar()->activate();
    pump(20);
    QLineEdit* edit = w.searchBar()->edit();
    REQUIRE(edit->hasFocus());
    QTest::keyClicks(edit, QStringLiteral("w0"));
    pump(20);
    CHECK(edit->text() == QStringLiteral("w0"));
    CHECK(span() == whole);
}

TEST_CASE("the summary explains the bottleneck against the table and says what to try first", "[ux][summary]") {
    // Top rows wait for a lock; the time is in sync clusters.
    Report r;
    for (int i = 0; i < 5; ++i) {
        Anomaly a;
        a.cause = Resource::Lock;
        a.excessNs = 1000;
        r.anomalies.push_back(a);
    }
    r.summary.bottleneck = Resource::Sync;
    r.summary.clusterWaitNs = 2'000'000;
    const QString why = bottleneckVersusTable(r);
    CHECK(why.contains(QStringLiteral("0 of its top 5 rows wait for sync")));
    CHECK(why.contains(QStringLiteral("the first for lock")));
    CHECK(why.contains(durationText(2'000'000) + QStringLiteral(" in the gaps of sync clusters")));
    // When they agree there is nothing to explain.
    r.summary.bottleneck = Resource::Lock;
    CHECK(bottleneckVersusTable(r).isEmpty());

    SampleWindow sample({1600, 1000});
    MainWindow& w = sample.window;
    CHECK(w.settingsPanel()->summary().contains(QStringLiteral("What to try first")));
}

TEST_CASE("a saved layout that does not restore is refused for the default", "[ux][layout]") {
    FreshSettings fresh;
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    pump(50);
    CHECK(w.layoutUsable());
    CHECK_FALSE(w.restoreLayout(QByteArray(), QByteArray("not a state")));
    pump(20);
    CHECK(w.layoutUsable());
    // The breakdown cannot be squeezed below its readable size.
    CHECK(w.breakdown()->minimumWidth() >= 380);
    CHECK(w.breakdown()->minimumHeight() >= 250);
    // A good state restores.
    const QByteArray good = w.saveState(3);
    CHECK(w.restoreLayout(w.saveGeometry(), good));
}

TEST_CASE("the centre shows the file, the stage and Cancel while a trace opens", "[ux][loading]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    FreshSettings fresh;
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QStringList stages;
    bool shownWhileLoading = false;
    QObject::connect(w.session(), &AnalysisSession::progress, &w, [&] {
        stages << w.loadingPanel()->stageText();
        shownWhileLoading = shownWhileLoading || (w.showsLoading() && w.loadingPanel()->isVisible());
    });
    w.openPath(contend::test::samplePath());
    CHECK(w.showsLoading());
    CHECK(w.loadingPanel()->fileText().contains(QStringLiteral("projectx-before.json.gz")));
    CHECK(w.loadingPanel()->cancelButton()->isVisible());
    // Open and analysed (the timeline comes before the analysis ends: previewing()).
    REQUIRE(
        waitFor([&] { return w.session()->current() && !w.session()->busy() && !w.session()->previewing(); }, 120000));
    pump(20);
    CHECK(shownWhileLoading);
    CHECK_FALSE(w.showsLoading());
    CHECK_FALSE(w.loadingPanel()->running());
    // Stages with their numbers.
    CHECK(stages.filter(QRegularExpression(QStringLiteral("^Reading projectx-before.json.gz: [0-9.]+ of [0-9.]+ MB$")))
              .size() > 0);
    CHECK(stages.filter(QRegularExpression(QStringLiteral("^Analysing contention: [0-9,]+ operators on [0-9]+ tracks")))
              .size() == 1);
    // Then each analysis stage once, in order, with the operator counts.
    const QRegularExpression stageLine(
        QStringLiteral("^Analysing contention, ([a-z ]+) \\(([0-9]+) of 10\\): [0-9,]+ operators on [0-9]+ tracks"));
    QStringList analysed;
    for (const QString& s : stages)
        if (const auto m = stageLine.match(s); m.hasMatch()) analysed << m.captured(2);
    CHECK(analysed.join(QLatin1Char(' ')) == QStringLiteral("1 2 3 4 5 6 7 8 9 10"));

    // Cancel from the panel: the load stops and the previous trace stays.
    bool cancelled = false;
    QObject::connect(w.session(), &AnalysisSession::cancelled, &w, [&] { cancelled = true; });
    w.openPath(contend::test::samplePath());
    REQUIRE(w.showsLoading());
    QTest::mouseClick(w.loadingPanel()->cancelButton(), Qt::LeftButton);
    CHECK(cancelled);
    CHECK_FALSE(w.showsLoading());
    CHECK(w.session()->current() != nullptr);
}

TEST_CASE("search finds operators by substring or regex, in time order", "[ux][search]") {
    contend::test::TinyTrace b;
    const auto s0 = b.stream(1);
    const auto s1 = b.stream(2);
    b.op(s0, "gemm_kernel", 300, 10);
    b.op(s1, "GEMM_small", 100, 10);
    b.op(s0, "conv_fwd", 200, 10);
    b.op(s1, "gemm_kernel", 400, 10);
    const TracePtr t = b.finish();
    const SliceSearch sub = searchSlices(*t, QStringLiteral("gemm"), false);
    REQUIRE(sub.slices.size() == 3);
    std::vector<TimeNs> starts;
    for (std::uint32_t s : sub.slices) starts.push_back(t->slices()[s].start);
    CHECK(starts == std::vector<TimeNs>{100, 300, 400});
    CHECK(searchSlices(*t, QStringLiteral("^gemm_k"), true).slices.size() == 2);
    CHECK(searchSlices(*t, QStringLiteral("^gemm_k"), false).slices.empty());  // a substring, not a pattern
    CHECK(searchSlices(*t, QString(), false).slices.empty());
    const SliceSearch bad = searchSlices(*t, QStringLiteral("gemm("), true);
    CHECK(bad.slices.empty());
    CHECK(bad.error.startsWith(QStringLiteral("not a regular expression")));
}

TEST_CASE("Ctrl+F steps through the matches on the timeline with a count", "[ux][search]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    FreshSettings fresh;
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    w.activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(&w));
    REQUIRE(openSample(w));
    QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
    pump(20);
    SearchBar* bar = w.searchBar();
    REQUIRE(bar->isVisible());
    REQUIRE(bar->edit()->hasFocus());
    QTest::keyClicks(bar->edit(), QStringLiteral("index_put"));
    const Trace& t = *w.session()->current()->trace;
    std::size_t expected = 0;
    for (std::uint32_t s = 0; s < t.slices().size(); ++s)
        expected += sliceName(t, s).contains(QStringLiteral("index_put"));
    REQUIRE(expected > 2);
    CHECK(bar->matchCount() == static_cast<int>(expected));
    CHECK(bar->countText() == QStringLiteral("%1 matches").arg(expected));
    QTest::keyClick(bar->edit(), Qt::Key_Return);
    pump(20);
    const quint32 first = bar->matches()[0];
    CHECK(w.timeline()->selectedSlice() == first);
    CHECK(bar->countText() == QStringLiteral("1 of %1 matches").arg(expected));
    // The timeline shows it.
    const Slice& s = t.slices()[first];
    CHECK(w.timeline()->axis().t0 <= s.start);
    CHECK(w.timeline()->axis().t1 >= s.end());
    QTest::keyClick(bar->edit(), Qt::Key_Return);
    CHECK(w.timeline()->selectedSlice() == bar->matches()[1]);
    QTest::keyClick(bar->edit(), Qt::Key_Return, Qt::ShiftModifier);
    QTest::keyClick(bar->edit(), Qt::Key_Return, Qt::ShiftModifier);
    // Previous from the first wraps to the last.
    CHECK(w.timeline()->selectedSlice() == bar->matches().back());
    CHECK(bar->countText() == QStringLiteral("%1 of %1 matches").arg(expected));
    // A regex.
    bar->regexBox()->setChecked(true);
    bar->edit()->setText(QStringLiteral("^index_put.*$"));
    std::size_t anchored = 0;
    for (std::uint32_t k = 0; k < t.slices().size(); ++k)
        anchored += sliceName(t, k).startsWith(QStringLiteral("index_put"));
    REQUIRE(anchored > 0);
    CHECK(bar->matchCount() == static_cast<int>(anchored));
    QTest::keyClick(bar->edit(), Qt::Key_Escape);
    CHECK_FALSE(bar->isVisible());
}

TEST_CASE("a selected kernel shows its launch flow as an arrow and in Details with a jump", "[ux][flows]") {
    const std::string json = R"J({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 42, "tid": 42, "ts": 100, "dur": 50},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 42, "tid": 42, "ts": 110, "dur": 5, "args": {"correlation": 9}},
      {"ph": "X", "cat": "kernel", "name": "conv_fwd", "pid": 0, "tid": 7, "ts": 120, "dur": 30, "args": {"correlation": 9, "stream": 7}},
      {"ph": "X", "cat": "kernel", "name": "other_kernel", "pid": 0, "tid": 7, "ts": 200, "dur": 30, "args": {"stream": 7}},
      {"ph": "s", "id": 9, "pid": 42, "tid": 42, "ts": 110, "cat": "ac2g", "name": "ac2g"},
      {"ph": "f", "id": 9, "pid": 0, "tid": 7, "ts": 120, "cat": "ac2g", "name": "ac2g", "bp": "e"}
    ]})J";
    const TracePtr t = contend::test::loadJson(json);
    REQUIRE(t);
    const std::uint32_t launch = contend::test::findSlice(*t, "cudaLaunchKernel", 110000);
    const std::uint32_t kernel = contend::test::findSlice(*t, "conv_fwd", 120000);
    const std::uint32_t other = contend::test::findSlice(*t, "other_kernel", 200000);
    REQUIRE(launch != kNone);
    REQUIRE(kernel != kNone);
    const SliceFlows k = flowsOf(*t, kernel);
    CHECK(k.launchedBy == std::vector<std::uint32_t>{launch});
    CHECK(k.launches.empty());
    CHECK(flowsOf(*t, launch).launches == std::vector<std::uint32_t>{kernel});
    CHECK(flowsOf(*t, other).flows.empty());

    // Details: "launched by" with a link that selects the launch.
    OperatorDetails details;
    details.setTrace(t);
    details.showSlice(kernel);
    CHECK(details.toPlainText().contains(QStringLiteral("launched by")));
    CHECK(details.toHtml().contains(QStringLiteral("slice:%1").arg(launch)));
    quint32 jumped = kNone;
    QObject::connect(&details, &OperatorDetails::sliceLinkActivated, [&](quint32 s) { jumped = s; });
    emit details.anchorClicked(QUrl(QStringLiteral("slice:%1").arg(launch)));
    CHECK(jumped == launch);

    // The timeline draws the arrow for the selection, and nothing for an operator without flows.
    TimelineView view;
    view.resize(900, 400);
    view.setData(makeTimelineData(t));
    view.show();
    view.setHostExpanded(t->slices()[launch].track, true);
    view.selectSlice(kernel);
    pump(20);
    // Purple arrow pixels between the two slices (the launch at 110 us, the kernel at 120 us).
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&image);
        view.paintTimeline(p);
    }
    CHECK(view.selectedFlows().flows.size() == 1);
    auto purple = [&](const QImage& img) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                n += c.red() > 0x50 && c.red() < 0x80 && c.green() < 0x30 && c.blue() > 0x80 && c.blue() < 0xb0;
            }
        return n;
    };
    CHECK(purple(image) > 10);
    view.selectSlice(other);
    QImage none(view.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&none);
        view.paintTimeline(p);
    }
    CHECK(purple(none) == 0);
}
