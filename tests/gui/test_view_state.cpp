// The views subscribe instead of being fed: one ZoomControl for the visible range, one
// SelectionControl per run for the operator in focus, one ViewBinder per session for traces and
// reports. What a user would notice if it broke: views out of step, a zoom or a selection that
// bounces between views, a setting the app changed by itself when a trace opened.
#include <catch2/catch.hpp>

#include <QComboBox>

#include "app/gui/analysis_session.h"
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "app/gui/settings_panel.h"
#include "gui_support.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/common/view_state.h"
#include "widgets/details/operator_details.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/anomaly_model.h"
#include "widgets/tables/operator_browser.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::widgets;
using contend::gui::CompareWindow;
using contend::gui::MainWindow;
using contend::gui::SettingsPanel;
using contend::test::pump;
using contend::test::TinyTrace;

namespace {

TracePtr streams(int n, TimeNs step) {
    TinyTrace b;
    auto s0 = b.stream(7);
    for (int i = 0; i < n; ++i) b.op(s0, "gemm", i * step, step / 2);
    return b.finish();
}

struct Pair {
    TimelineView a, b;
    ZoomControl zoom;
    SelectionControl selection;
    int ranges = 0;
    Pair() {
        for (TimelineView* v : {&a, &b}) {
            v->resize(1000, 300);
            v->show();
        }
        a.setData(makeTimelineData(streams(200, 1000)));
        b.setData(makeTimelineData(streams(100, 3000)));
        QObject::connect(&zoom, &ZoomControl::rangeChanged, [this] { ++ranges; });
        a.bindZoom(&zoom);
        b.bindZoom(&zoom, 5000);
        pump(20);
    }
};

QString afterSample() {
    return QString::fromStdString(contend::test::sourceDir()) +
           QStringLiteral("/resources/samples/projectx-after.json.gz");
}

}  // namespace

TEST_CASE("views bound to one zoom follow each other at their offsets, and every round ends", "[view-state]") {
    Pair p;
    // Binding shows the control's range: the second view took the first's (set by its bind).
    CHECK(p.b.axis().t0 == p.a.axis().t0 + 5000);
    CHECK(p.b.axis().t1 == p.a.axis().t1 + 5000);

    p.ranges = 0;
    p.a.zoomTo(20000, 60000, 0.0);
    CHECK(p.ranges == 1);  // one change, heard once: the views that apply it publish nothing
    CHECK(p.zoom.start() == p.a.axis().t0);
    CHECK(p.b.axis().t0 == p.a.axis().t0 + 5000);
    CHECK(p.b.axis().t1 == p.a.axis().t1 + 5000);

    // The other way round, from a key on the second view.
    p.ranges = 0;
    REQUIRE(p.b.navigateKey(Qt::Key_D));  // pan right
    CHECK(p.ranges == 1);
    CHECK(p.a.axis().t0 == p.b.axis().t0 - 5000);
    CHECK(p.a.axis().t0 > 20000);

    // The same range again changes nothing and tells no one.
    p.ranges = 0;
    p.zoom.setRange(p.zoom.start(), p.zoom.end());
    CHECK(p.ranges == 0);

    // A new offset moves that view alone.
    const TimeAxis before = p.a.axis();
    p.b.setZoomOffset(-1000);
    CHECK(p.a.axis() == before);
    CHECK(p.b.axis().t0 == p.a.axis().t0 - 1000);

    // A heatmap bound to the same control shows the same range at its offset.
    HeatmapView heat;
    heat.setTrace(p.a.data()->trace);
    heat.bindZoom(&p.zoom, 250);
    p.a.zoomTo(30000, 50000, 0.0);
    pump(60);
    CHECK(heat.viewRange().first == p.a.axis().t0 + 250);
}

TEST_CASE("a pick publishes the selection, and showing it publishes nothing", "[view-state]") {
    Pair p;
    p.a.bindSelection(&p.selection);
    int changes = 0, picks = 0;
    QObject::connect(&p.selection, &SelectionControl::selectionChanged, [&] { ++changes; });
    QObject::connect(&p.a, &TimelineView::slicePicked, [&] { ++picks; });

    p.selection.select(12);
    CHECK(p.a.selectedSlice() == 12u);
    CHECK(changes == 1);
    CHECK(picks == 0);

    p.a.pickSlice(40);
    CHECK(p.selection.selected() == 40u);
    CHECK(p.a.selectedSlice() == 40u);
    CHECK(changes == 2);
    CHECK(picks == 1);

    // Esc on the view clears through the control.
    REQUIRE(p.a.navigateKey(Qt::Key_Escape));
    CHECK(p.selection.selected() == kNone);
    CHECK(p.a.selectedSlice() == kNone);
    CHECK(picks == 2);

    // Selecting the selected operator again is heard again (a pane may show something else).
    p.selection.select(40);
    p.selection.select(40);
    CHECK(changes == 5);
    // A slice the trace does not have is no selection.
    p.a.pickSlice(1u << 30);
    CHECK(p.selection.selected() == kNone);
}

TEST_CASE("the main window's views take each trace and report from the session, and its settings stay",
          "[view-state][app]") {
    contend::test::SampleWindow s;
    MainWindow& w = s.window;
    const gui::OpenedTrace* cur = w.session()->current();
    REQUIRE(cur);
    REQUIRE(w.session()->report());
    // Every bound view has the trace and the report.
    CHECK(w.timeline()->data()->trace == cur->trace);
    CHECK(w.timeline()->report() == w.session()->report().get());
    CHECK(w.anomalyPanel()->model()->rowCount() == static_cast<int>(w.session()->report()->anomalies.size()));
    // The heatmap shows the timeline's range (one zoom).
    pump(60);
    CHECK(w.heatmap()->viewRange().first == w.timeline()->axis().t0);
    w.timeline()->zoomTo(cur->trace->begin() + 1000000, cur->trace->begin() + 3000000, 0.0);
    pump(60);
    CHECK(w.zoomControl()->start() == w.timeline()->axis().t0);
    CHECK(w.heatmap()->viewRange().first == w.timeline()->axis().t0);

    // A pick on the timeline reaches details, breakdown and the flagged table.
    const quint32 flagged = w.session()->report()->anomalies.front().slice;
    w.timeline()->pickSlice(flagged);
    CHECK(w.details()->shown() == OperatorDetails::Shown::Operator);
    CHECK(w.breakdown()->slice() == flagged);
    CHECK(w.selectionControl()->selected() == flagged);

    // Per occurrence: the Network view lists a signature's occurrences. A re-threshold and a
    // reopened trace start the browser over, and the setting stays what the user chose.
    QComboBox* granularity = nullptr;
    for (QComboBox* box : w.settingsPanel()->findChildren<QComboBox*>())
        if (box->count() == 4) granularity = box;
    REQUIRE(granularity);
    granularity->setCurrentIndex(SettingsPanel::PerOccurrence);
    pump(20);
    REQUIRE(w.browser()->level() == OperatorBrowser::LevelKind::Occurrences);
    const quint64 before = w.session()->thresholds().coefficient * 100;
    w.session()->setThresholds({w.session()->thresholds().coefficient + 0.5, w.session()->thresholds().overlapRatio});
    REQUIRE(contend::test::waitFor([&] { return w.session()->reportCurrent(); }, 120000));
    pump(30);
    CHECK(static_cast<quint64>(w.session()->report()->settings.coefficient * 100) == before + 50);
    CHECK(w.timeline()->report() == w.session()->report().get());
    CHECK(w.settingsPanel()->granularity() == SettingsPanel::PerOccurrence);
    REQUIRE(contend::test::openSample(w));
    CHECK(w.settingsPanel()->granularity() == SettingsPanel::PerOccurrence);
    CHECK(w.selectionControl()->selected() == kNone);
    CHECK(w.timeline()->selectedSlice() == kNone);
}

TEST_CASE("the compare window's runs share one range at the alignment's offset", "[view-state][compare]") {
    contend::test::FreshSettings fresh;
    REQUIRE(contend::test::haveSample());
    CompareWindow w;
    w.resize(1400, 900);
    w.show();
    bool done = false;
    QObject::connect(&w, &CompareWindow::compared, [&] { done = true; });
    QObject::connect(&w, &CompareWindow::failed, [&] { done = true; });
    w.open(contend::test::samplePath(), afterSample());
    REQUIRE(contend::test::waitFor([&] { return done; }, 180000));
    REQUIRE(w.result());
    pump(30);
    auto inStep = [&w] {
        return w.newTimeline()->axis().t0 == w.baseTimeline()->axis().t0 + w.offset() &&
               w.newTimeline()->axis().t1 == w.baseTimeline()->axis().t1 + w.offset();
    };
    CHECK(inStep());
    const TimeNs b0 = w.baseReport()->iterations.front().start;
    w.baseTimeline()->zoomTo(b0, b0 + 2000000, 0.0);
    CHECK(inStep());
    REQUIRE(w.newTimeline()->navigateKey(Qt::Key_S));  // zoom out from the comparison
    CHECK(inStep());
    CHECK(w.baseTimeline()->axis().span() > 2000000);

    // Another alignment moves the comparison only.
    const TimeAxis base = w.baseTimeline()->axis();
    const qint64 offset = w.offset();
    w.setAlignment(CompareWindow::Alignment::TraceStart);
    CHECK(w.baseTimeline()->axis() == base);
    CHECK(inStep());
    CHECK(w.offset() == w.newTrace()->trace->begin() - w.baseTrace()->trace->begin());
    if (w.offset() != offset) CHECK(w.newTimeline()->axis().t0 != base.t0 + offset);
}
