// The timeline widget driven by input events: wheel zoom keeps the time under the cursor, drag
// pans, box zoom, W/S/A/D, F and R, click and double-click, the gutter folds host threads, the
// tooltip names the operator and its args; and the heatmap grid and duration histogram behind
// the other plots.
#include <catch2/catch.hpp>

#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <qcustomplot.h>

#include "gui_support.h"
#include "widgets/breakdown/duration_histogram.h"
#include "widgets/heatmap/heatmap_grid.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/timeline/range_measure.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::widgets;
using contend::test::pump;
using contend::test::TinyTrace;

namespace {

TracePtr twoStreams() {
    TinyTrace b;
    auto s0 = b.stream(7);
    auto s1 = b.stream(8);
    for (int i = 0; i < 100; ++i) b.op(s0, "gemm", i * 1000LL, 800);
    for (int i = 0; i < 50; ++i) b.op(s1, "copy", i * 2000LL, 1500);
    auto h = b.thread(1);
    b.op(h, "step", 0, 100000, false);
    b.op(h, "launch", 10, 50, false);
    return b.finish();
}

struct Fixture {
    TimelineView view;
    TracePtr trace = twoStreams();
    Fixture() {
        view.resize(1210, 500);
        view.setData(makeTimelineData(trace));
        view.show();
        pump(20);
        view.repaint();
    }
    double px(TimeNs t) const { return view.timeArea().left() + view.axis().toPx(t); }
};

void wheel(QWidget* w, QPointF pos, int delta, Qt::KeyboardModifiers mods = Qt::NoModifier) {
    QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, mods, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &e);
}

}  // namespace

TEST_CASE("a new trace is shown whole", "[timeline][view]") {
    Fixture f;
    CHECK(f.view.axis().t0 <= f.trace->begin());
    CHECK(f.view.axis().t1 >= f.trace->end());
    CHECK(f.view.axis().widthPx == f.view.timeArea().width());
    CHECK_FALSE(f.view.drawList().items.empty());
}

TEST_CASE("the wheel zooms around the cursor", "[timeline][view]") {
    Fixture f;
    const QPointF at(f.view.timeArea().left() + 300.0, 60);
    const TimeNs under = f.view.axis().toTime(300);
    const TimeNs span = f.view.axis().span();
    wheel(&f.view, at, 120);
    CHECK(f.view.axis().span() < span);
    CHECK(std::llabs(f.view.axis().toTime(300) - under) <= 2);
    wheel(&f.view, at, -240);
    CHECK(f.view.axis().span() > span * 0.9);
    // Shift+wheel scrolls the tracks instead.
    const TimeNs before = f.view.axis().span();
    wheel(&f.view, at, 120, Qt::ShiftModifier);
    CHECK(f.view.axis().span() == before);
}

TEST_CASE("keys zoom, pan, reset and zoom to the selection", "[timeline][view]") {
    Fixture f;
    f.view.zoomTo(20000, 40000, 0);
    const TimeAxis a = f.view.axis();
    QTest::keyClick(&f.view, Qt::Key_W);
    CHECK(f.view.axis().span() < a.span());
    QTest::keyClick(&f.view, Qt::Key_S);
    CHECK(std::llabs(f.view.axis().span() - a.span()) <= 2);
    const TimeAxis b = f.view.axis();
    QTest::keyClick(&f.view, Qt::Key_D);
    CHECK(f.view.axis().t0 > b.t0);
    CHECK(f.view.axis().span() == b.span());
    QTest::keyClick(&f.view, Qt::Key_A);
    CHECK(std::llabs(f.view.axis().t0 - b.t0) <= 2);
    const std::uint32_t s = contend::test::findSlice(*f.trace, "gemm", 50000);
    f.view.selectSlice(s);
    QTest::keyClick(&f.view, Qt::Key_F);
    CHECK(f.view.axis().t0 <= 50000);
    CHECK(f.view.axis().t1 >= 50800);
    CHECK(f.view.axis().span() <= 3 * 800 + 2);
    QTest::keyClick(&f.view, Qt::Key_R);
    CHECK(f.view.axis().t0 <= f.trace->begin());
    QTest::keyClick(&f.view, Qt::Key_Escape);
    CHECK(f.view.selectedSlice() == kNone);
}

TEST_CASE("dragging pans, right-dragging box-zooms and shift-dragging measures a range", "[timeline][view]") {
    Fixture f;
    f.view.zoomTo(20000, 40000, 0);
    const TimeAxis a = f.view.axis();
    const int y = f.view.timeArea().top() + 5;
    const QPoint from(f.view.timeArea().left() + 600, y);
    QTest::mousePress(&f.view, Qt::LeftButton, {}, from);
    QTest::mouseMove(&f.view, from + QPoint(-100, 0));
    QTest::mouseRelease(&f.view, Qt::LeftButton, {}, from + QPoint(-100, 0));
    CHECK(f.view.axis().span() == a.span());
    CHECK(f.view.axis().t0 == Approx(static_cast<double>(a.t0) + 100 * a.nsPerPx()).margin(2));
    CHECK(f.view.selectedSlice() == kNone);  // a drag is not a click
    const TimeAxis b = f.view.axis();
    const QPoint p0(f.view.timeArea().left() + 100, y), p1(f.view.timeArea().left() + 300, y);
    // Shift+drag measures: the view stays, the range is told.
    qint64 m0 = -1, m1 = -1;
    QObject::connect(&f.view, &TimelineView::rangeMeasured, [&](qint64 a0, qint64 a1) { m0 = a0, m1 = a1; });
    QTest::mousePress(&f.view, Qt::LeftButton, Qt::ShiftModifier, p0);
    QTest::mouseMove(&f.view, p1);
    QTest::mouseRelease(&f.view, Qt::LeftButton, Qt::ShiftModifier, p1);
    CHECK(f.view.axis().t0 == b.t0);
    CHECK(f.view.axis().t1 == b.t1);
    CHECK(m0 == b.toTime(100));
    CHECK(m1 == b.toTime(300));
    CHECK(f.view.measuredRange().first == m0);
    // Esc clears the range.
    QTest::keyClick(&f.view, Qt::Key_Escape);
    CHECK(f.view.measuredRange().second <= f.view.measuredRange().first);
    CHECK(m1 <= m0);
    // Right-drag box-zooms.
    QTest::mousePress(&f.view, Qt::RightButton, {}, p0);
    QTest::mouseMove(&f.view, p1);
    QTest::mouseRelease(&f.view, Qt::RightButton, {}, p1);
    CHECK(f.view.axis().t0 == Approx(static_cast<double>(b.toTime(100))).margin(2));
    CHECK(f.view.axis().t1 == Approx(static_cast<double>(b.toTime(300))).margin(2));
}

TEST_CASE("a measured range gives its busy time per track and the findings inside", "[timeline][measure]") {
    contend::test::TinyTrace tb;
    const auto s0 = tb.stream(1);
    const auto s1 = tb.stream(2);
    tb.op(s0, "a", 0, 100);
    tb.op(s0, "b", 150, 100);  // 150..250
    tb.op(s1, "c", 500, 100);  // outside
    const TracePtr t = tb.finish();
    Report r;
    Anomaly an;
    an.slice = contend::test::findSlice(*t, "b", 150);
    r.anomalies.push_back(an);
    ContentionWindow w;
    w.start = 180;
    w.end = 260;
    r.windows.push_back(w);
    ContentionWindow late;
    late.start = 400;
    late.end = 450;
    r.windows.push_back(late);
    const RangeMeasure m = measureRange(*t, &r, 200, 50);  // backwards on purpose
    CHECK(m.t0 == 50);
    CHECK(m.t1 == 200);
    REQUIRE(m.tracks.size() == 1);
    CHECK(m.tracks[0].track == s0);
    CHECK(m.tracks[0].busyNs == 50 + 50);  // 50..100 and 150..200
    CHECK(m.tracks[0].slices == 2);
    CHECK(m.anomalies == std::vector<std::uint32_t>{0});
    CHECK(m.windows == std::vector<std::uint32_t>{0});
    CHECK(measureRange(*t, &r, 300, 400).tracks.empty());
}

TEST_CASE("click selects, double-click zooms to the operator", "[timeline][view]") {
    Fixture f;
    f.view.zoomTo(0, 10000, 0);
    f.view.repaint();
    const std::uint32_t s = contend::test::findSlice(*f.trace, "gemm", 3000);
    quint32 selected = kNone;
    QObject::connect(&f.view, &TimelineView::sliceSelected, [&](quint32 x) { selected = x; });
    const auto& items = f.view.drawList().items;
    const DrawItem* it = nullptr;
    for (const auto& i : items)
        if (i.slice == s) it = &i;
    REQUIRE(it);
    const QPoint at(f.view.timeArea().left() + static_cast<int>(it->x + it->w / 2),
                    f.view.timeArea().top() + static_cast<int>(it->y + it->h / 2));
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, at);
    CHECK(selected == s);
    CHECK(f.view.selectedSlice() == s);
    QTest::mouseDClick(&f.view, Qt::LeftButton, {}, at);
    CHECK(f.view.axis().t0 <= 3000);
    CHECK(f.view.axis().t1 >= 3800);
    CHECK(f.view.axis().span() <= 3 * 800 + 2);
    // Clicking empty space clears the selection.
    QTest::mouseClick(&f.view, Qt::LeftButton, {},
                      QPoint(f.view.timeArea().left() + 5, f.view.timeArea().bottom() - 5));
    CHECK(f.view.selectedSlice() == kNone);
}

TEST_CASE("clicking a host thread's name expands and collapses it", "[timeline][view]") {
    Fixture f;
    const auto& rows = f.view.layout().rows();
    int hostRow = -1;
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (rows[r].kind == RowKind::Lane && rows[r].group == TrackGroup::Host) hostRow = static_cast<int>(r);
    REQUIRE(hostRow >= 0);
    const std::size_t before = rows.size();
    const QPoint at(20, f.view.timeArea().top() + rows[static_cast<std::size_t>(hostRow)].y + 5);
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, at);
    CHECK(f.view.layout().rows().size() == before + 1);
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, at);
    CHECK(f.view.layout().rows().size() == before);
}

TEST_CASE("the tooltip names the operator, its times and a few of its args", "[timeline][view]") {
    const std::string longValue(300, 'x');
    const std::string json = R"J({"traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "conv_fwd", "pid": 0, "tid": 7, "ts": 10, "dur": 40, "args": {"stream": 7, "grid": [64, 1, 1],
       "z_long": ")J" + longValue +
                             R"J(", "b1": 1, "b2": 2, "b3": 3, "b4": 4, "b5": 5, "b6": 6, "b7": 7}}
    ]})J";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("t.json"));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(json.data(), static_cast<qint64>(json.size()));
    file.close();
    auto trace = loadTrace(path.toStdString()).value();
    REQUIRE(trace);
    TimelineView view;
    view.resize(800, 300);
    view.setData(makeTimelineData(trace));
    view.show();
    pump(20);
    view.repaint();
    REQUIRE(view.drawList().items.size() == 1);
    const DrawItem& it = view.drawList().items[0];
    const QPoint at(view.timeArea().left() + static_cast<int>(it.x + it.w / 2),
                    view.timeArea().top() + static_cast<int>(it.y + 3));
    QString text = view.tooltipAt(at);
    CHECK(text.contains(QStringLiteral("conv_fwd")));
    CHECK(text.contains(QStringLiteral("duration 40 us")));
    // The args are read on another thread; the next tooltip has them.
    REQUIRE(contend::test::waitFor([&] { return view.tooltipAt(at).contains(QStringLiteral("grid")); }, 10000));
    text = view.tooltipAt(at);
    // The first six args in the file's order, each cut to one short line; the rest are counted.
    CHECK(text.contains(QStringLiteral("stream")));
    CHECK(text.contains(QStringLiteral("[64,1,1]")));
    CHECK(text.contains(QStringLiteral("z_long")));
    CHECK_FALSE(text.contains(QString::fromStdString(longValue)));
    CHECK(text.contains(QStringLiteral("b3")));
    CHECK_FALSE(text.contains(QStringLiteral("b4")));
    CHECK(text.contains(QStringLiteral("4 more arg(s) in Details")));
    CHECK(view.tooltipAt(QPoint(view.timeArea().right() - 2, view.timeArea().bottom() - 2)).isEmpty());
}

TEST_CASE("heatmap cells hold extra wait per unit of time by cause or stream", "[heatmap]") {
    TinyTrace b;
    auto s0 = b.stream(1);
    auto s1 = b.stream(2);
    b.op(s0, "a", 0, 1000);
    b.op(s1, "b", 500, 1000);
    auto t = b.finish();
    Report r;
    Anomaly a;
    a.slice = contend::test::findSlice(*t, "a", 0);
    a.excessNs = 500;
    a.cause = Resource::Bandwidth;
    r.anomalies.push_back(a);
    a.slice = contend::test::findSlice(*t, "b", 500);
    a.excessNs = 1000;
    a.cause = Resource::Sync;
    r.anomalies.push_back(a);
    ContentionWindow w;
    w.resource = Resource::Bandwidth;
    w.start = 500;
    w.end = 1000;
    WindowOp op;
    op.slice = r.anomalies[0].slice;
    w.ops.push_back(op);
    r.windows.push_back(w);
    Cluster cl;
    cl.track = s0;
    cl.start = 1000;
    cl.end = 2000;
    cl.waitNs = 250;
    r.clusters.push_back(cl);
    SECTION("by resource") {
        HeatmapGrid g = buildHeatmap(*t, r, 0, 2000, 4, HeatmapRows::Resources);
        REQUIRE(g.rowCount() == 5);  // bandwidth, compute, cache, issue, sync
        CHECK(g.labels[0] == "bandwidth");
        CHECK(g.at(0, 0) == Approx(0.5));  // 500 ns over a 1000 ns run: 0.5 ops waiting
        CHECK(g.at(0, 1) == Approx(0.5));
        CHECK(g.at(0, 2) == Approx(0.0));
        CHECK(g.at(4, 1) == Approx(1.0));   // sync: 1000 ns of excess over its 1000 ns run
        CHECK(g.at(4, 3) == Approx(0.25));  // sync: the cluster's 250 ns of gaps spread over 1000 ns
        CHECK(g.at(4, 2) == Approx(1.0 + 0.25));
        CHECK(g.maxValue == Approx(1.25));
        CHECK(windowAt(*t, r, g, 0, 1) == 0);
        CHECK(windowAt(*t, r, g, 0, 3) == kNone);
        CHECK(windowAt(*t, r, g, 1, 1) == kNone);  // compute row: no compute window there
        // The operators a cell counts.
        CHECK(anomaliesAt(*t, r, g, 0, 0) == std::vector<std::uint32_t>{0});
        CHECK(anomaliesAt(*t, r, g, 4, 1) == std::vector<std::uint32_t>{1});
        CHECK(anomaliesAt(*t, r, g, 1, 1).empty());
        CHECK(anomaliesAt(*t, r, g, 0, 3).empty());
    }
    SECTION("the view tells a cell's value, time and operators, and a click selects what is under it") {
        auto report = std::make_shared<Report>(r);
        HeatmapView view;
        view.resize(800, 300);
        view.setTrace(t);
        view.setReport(report);
        view.show();
        view.setViewRange(0, 2000);
        view.refreshNow();
        REQUIRE(view.grid().bins > 0);
        // Every row is a whole cell: the map is given cell centres, not a clipped boundary.
        auto* map = qobject_cast<QCPColorMap*>(view.plot()->plottable(0));
        REQUIRE(map);
        CHECK_FALSE(map->tightBoundary());
        // The one window (bandwidth, 500..1000) is outlined; a report without it (a higher
        // overlap ratio) has no outline.
        CHECK(view.windowOutlines() == 1);
        auto fewer = std::make_shared<Report>(r);
        fewer->windows.clear();
        view.setReport(fewer);
        view.refreshNow();
        CHECK(view.windowOutlines() == 0);
        view.setReport(report);
        view.refreshNow();
        CHECK(view.windowOutlines() == 1);
        CHECK(map->data()->valueRange().lower == Approx(0.0));
        CHECK(view.plot()->yAxis->range().lower == Approx(-0.5));
        // The bandwidth row at the start: operator "a".
        const int bin = view.grid().binOf(100);
        const QString tip = view.cellTooltip(0, bin);
        CHECK(tip.contains(QStringLiteral("bandwidth")));
        CHECK(tip.contains(QStringLiteral("1 flagged operator")));
        CHECK(tip.contains(QStringLiteral("a <span")));
        CHECK(view.cellTooltip(-1, 0).isEmpty());
        quint32 selected = kNone, window = kNone;
        QObject::connect(&view, &HeatmapView::sliceActivated, [&](quint32 s) { selected = s; });
        QObject::connect(&view, &HeatmapView::windowActivated, [&](quint32 w) { window = w; });
        view.activateCell(4, view.grid().binOf(700));  // sync row: no window, operator "b"
        CHECK(selected == r.anomalies[1].slice);
        CHECK(window == kNone);
        view.activateCell(0, view.grid().binOf(700));  // bandwidth row inside the window
        CHECK(window == 0);
        // The mouse finds the same cell the tooltip describes.
        const QRect ar = view.plot()->axisRect()->rect();
        const auto [row, b] =
            view.cellAt(QPoint(static_cast<int>(view.plot()->xAxis->coordToPixel(0.0001)), ar.top() + 2));
        CHECK(row == 0);
        CHECK(std::abs(b - view.grid().binOf(100)) <= 1);  // a pixel is a third of a bin

        // With stream rows the (disabled) colour box names what is shown: extra wait.
        view.setPressureSource([](Resource, TimeNs, TimeNs) { return 0.5; });
        view.setMetric(HeatmapMetric::Pressure);
        view.refreshNow();
        const auto boxes = view.findChildren<QComboBox*>();
        REQUIRE(boxes.size() == 2);
        QComboBox* colour =
            boxes[0]->count() == 2 && boxes[0]->itemText(0).contains(QStringLiteral("Resources")) ? boxes[1] : boxes[0];
        CHECK(colour->currentIndex() == static_cast<int>(HeatmapMetric::Pressure));
        view.setRows(HeatmapRows::Streams);
        view.refreshNow();
        CHECK_FALSE(colour->isEnabled());
        CHECK(colour->currentIndex() == static_cast<int>(HeatmapMetric::ExtraWait));
        view.setRows(HeatmapRows::Resources);
        view.refreshNow();
        CHECK(colour->currentIndex() == static_cast<int>(HeatmapMetric::Pressure));
    }
    SECTION("side-by-side heatmaps share their rows and one colour scale") {
        // The other run has a lock anomaly (an extra row) and a higher peak.
        auto mine = std::make_shared<Report>(r);
        auto other = std::make_shared<Report>(r);
        other->anomalies.edit(1).cause = Resource::Lock;
        other->anomalies.edit(1).excessNs = 3000;  // 3 ops waiting through b's run
        HeatmapView a, b2;
        for (HeatmapView* v : {&a, &b2}) {
            v->resize(800, 300);
            v->setTrace(t);
            v->show();
            v->setViewRange(0, 2000);
        }
        a.setReport(mine);
        b2.setReport(other);
        a.refreshNow();
        b2.refreshNow();
        CHECK(a.grid().rowCount() == 5);  // alone: no lock row
        CHECK(a.colourTop() < b2.colourTop());
        a.setPeer(&b2);
        b2.setPeer(&a);
        a.refreshNow();
        b2.refreshNow();
        a.refreshNow();
        CHECK(a.grid().labels == b2.grid().labels);
        CHECK(a.grid().rowCount() == 6);
        CHECK(a.colourTop() == Approx(b2.colourTop()));
        CHECK(a.colourTop() == Approx(std::max(a.grid().maxValue, b2.grid().maxValue)));
    }
    SECTION("by stream") {
        HeatmapGrid g = buildHeatmap(*t, r, 0, 2000, 2, HeatmapRows::Streams);
        REQUIRE(g.rowCount() == 2);
        CHECK(g.at(0, 0) == Approx(0.5));
        CHECK(g.at(1, 0) == Approx(0.5));
        CHECK(g.at(1, 1) == Approx(0.5));
        CHECK(windowAt(*t, r, g, 0, 0) == 0);
    }
    SECTION("pressure from a source") {
        HeatmapGrid g = buildHeatmap(
            *t, r, 0, 2000, 2, HeatmapRows::Resources, HeatmapMetric::Pressure,
            [](Resource res, TimeNs a0, TimeNs) { return res == Resource::Compute && a0 == 0 ? 0.75 : 0.0; });
        CHECK(g.at(1, 0) == Approx(0.75));
        CHECK(g.at(1, 1) == Approx(0.0));
    }
    SECTION("degenerate ranges") {
        HeatmapGrid g = buildHeatmap(*t, r, 100, 100, 0, HeatmapRows::Resources);
        CHECK(g.bins == 1);
        CHECK(g.binOf(99) == -1);
        CHECK(g.binOf(100) == 0);
    }
}

TEST_CASE("duration histograms keep outliers in the last bin", "[breakdown]") {
    std::vector<TimeNs> d;
    for (int i = 0; i < 99; ++i) d.push_back(1000 + i * 10);
    d.push_back(1'000'000);  // one outlier
    DurationHistogram h = makeHistogram(d, 10);
    CHECK(h.lo == 1000);
    CHECK(h.max == 1'000'000);
    std::uint32_t total = 0;
    for (auto c : h.counts) total += c;
    CHECK(total == 100);
    CHECK(h.overflow == 1);
    CHECK(h.binStart(h.counts.size()) < 10000);  // the outlier did not stretch the bins
    CHECK(makeHistogram({}).counts.empty());
    DurationHistogram two = makeHistogram({2760, 8260}, 40);  // few samples: both inside the bins
    CHECK(two.overflow == 0);
    CHECK(two.binOf(8260) == two.counts.size() - 1);
    CHECK(two.counts.front() == 1);
    CHECK(two.counts.back() == 1);
    DurationHistogram same = makeHistogram({5, 5, 5});
    REQUIRE(same.counts.size() >= 1);
    CHECK(same.counts[0] == 3);
}
