// The heatmap's refresh per slider step (issue 27, item 4): a re-threshold that changes only the
// contention windows (the overlap ratio) keeps the grid it has and moves only the outlines, which
// are then the ones a fresh view draws; a hidden heatmap does nothing until it is shown.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <vector>

#include <QDoubleSpinBox>
#include <QLabel>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/settings_panel.h"
#include "gui_support.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::pump;
using contend::test::SampleWindow;
using contend::test::waitFor;

namespace {

// The report of the step to `value`, its gains computed (the spin's own report, not a late
// one of the step before).
ReportPtr rethreshold(MainWindow& w, QDoubleSpinBox* spin, double value, bool overlap) {
    REQUIRE(waitFor([&] { return w.session()->reportCurrent() && !w.session()->rethresholding(); }));
    spin->setValue(value);
    REQUIRE(waitFor([&] {
        const ReportPtr r = w.session()->report();
        const double got = overlap ? r->settings.overlapRatio : r->settings.coefficient;
        return std::abs(got - value) < 1e-9 && w.session()->reportCurrent() && !w.session()->rethresholding();
    }));
    return w.session()->report();
}

// A standalone view (no timeline to line up with), so two of them have the same bins and pixels
// once laid out.
void setUp(HeatmapView& v, const MainWindow& w, const ReportPtr& report) {
    v.resize(900, 300);
    v.setTrace(w.timeline()->data()->trace);
    v.setReport(report);
    v.show();
    // The first refresh lays the row labels out, which narrows the plot: the second one has the
    // bins the view keeps.
    v.refreshNow();
    pump(20);
    v.refreshNow();
}

}  // namespace

TEST_CASE("an overlap-ratio step keeps the heatmap's grid and outlines what a fresh view does",
          "[app][heatmap][slider]") {
    SampleWindow sample({1400, 900});
    MainWindow& w = sample.window;
    const ReportPtr first = w.session()->report();
    REQUIRE(first);
    HeatmapView stepped;
    setUp(stepped, w, first);
    REQUIRE(stepped.grid().rowCount() > 0);
    REQUIRE(stepped.windowOutlines() > 0);
    const int builds = stepped.gridBuilds();
    const std::vector<double> values = stepped.grid().values;
    HeatmapView* shown = w.heatmap();
    shown->refreshNow();
    const int shownBuilds = shown->gridBuilds();

    // A lower overlap ratio: more (or other) windows, the same flagged operators.
    // The sample's windows do not move with the ratio: a report with half of them stands in
    // for a higher one (the same anomalies and clusters, other windows).
    auto fewer = std::make_shared<Report>(*first);
    fewer->windows.resize(fewer->windows.size() / 2);
    const ReportPtr wider = fewer;
    stepped.setReport(wider);
    stepped.refreshNow();
    CHECK(stepped.gridBuilds() == builds);
    CHECK(stepped.grid().values == values);
    pump(50);
    shown->refreshNow();
    CHECK(shown->gridBuilds() == shownBuilds);
    HeatmapView fresh;
    setUp(fresh, w, wider);
    CHECK(fresh.grid().values == stepped.grid().values);
    CHECK(stepped.windowOutlines() == fresh.windowOutlines());
    CHECK(stepped.outlines() == fresh.outlines());
    CHECK(stepped.note()->text() == fresh.note()->text());

    // Back to the first ratio: fewer outlines, the spare boxes hidden.
    stepped.setReport(first);
    stepped.refreshNow();
    HeatmapView again;
    setUp(again, w, first);
    CHECK(stepped.outlines() == again.outlines());
    CHECK(stepped.gridBuilds() == builds);

    // A coefficient step flags other operators: the grid is built again, as a fresh view's.
    const ReportPtr lower = rethreshold(w, w.settingsPanel()->coefficientSpin(), 1.5, false);
    REQUIRE(lower->anomalies.size() != wider->anomalies.size());
    stepped.setReport(lower);
    stepped.refreshNow();
    CHECK(stepped.gridBuilds() == builds + 1);
    HeatmapView third;
    setUp(third, w, lower);
    CHECK(third.grid().values == stepped.grid().values);
    CHECK(third.outlines() == stepped.outlines());
}

TEST_CASE("a hidden heatmap refreshes when it is shown, not per report", "[app][heatmap][slider]") {
    SampleWindow sample({1400, 900});
    MainWindow& w = sample.window;
    HeatmapView v;
    v.resize(900, 300);
    v.setTrace(w.timeline()->data()->trace);
    v.setReport(w.session()->report());
    pump(100);
    CHECK(v.gridBuilds() == 0);
    v.show();
    REQUIRE(waitFor([&] { return v.gridBuilds() == 1; }));
    CHECK(v.grid().rowCount() > 0);
    v.hide();
    v.setViewRange(v.viewRange().first, v.viewRange().second - 1000);
    pump(100);
    CHECK(v.gridBuilds() == 1);
    v.show();
    REQUIRE(waitFor([&] { return v.gridBuilds() == 2; }));
}
