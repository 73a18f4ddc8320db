// A slider step never waits on the what-if (issue 27, item 4): the findings of the new
// thresholds are shown at once, ranked by score, their gains "computing…", and the gains fill in
// when the what-if ends; a what-if a newer step made stale stops and is never shown.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include <QDoubleSpinBox>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/settings_panel.h"
#include "gui_support.h"
#include "widgets/details/operator_details.h"
#include "widgets/tables/anomaly_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/table_proxy.h"
#include "widgets/tables/table_roles.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::pump;
using contend::test::SampleWindow;
using contend::test::waitFor;

namespace {

// What one reportChanged showed, read inside the signal (the views have it by then: the binder
// was connected first).
struct Shown {
    bool gainsPending = false;
    bool computed = false;
    int rows = 0;
    QString firstGain;           // the anomaly table's first row's Gain cell, as shown
    std::vector<double> scores;  // the Score column, top to bottom
};

}  // namespace

TEST_CASE("a slider step shows its findings at once, ranked by score, and fills in the gains",
          "[app][whatif][slider]") {
    SampleWindow sample({1400, 900});
    MainWindow& w = sample.window;
    TablePanel* panel = w.anomalyPanel();
    std::vector<Shown> seen;
    QObject::connect(w.session(), &AnalysisSession::reportChanged, &w, [&](const ReportPtr& r) {
        Shown s;
        s.gainsPending = w.session()->gainsPending();
        s.computed = r->whatIf.computed;
        s.rows = panel->proxy()->rowCount();
        if (s.rows > 0) s.firstGain = panel->proxy()->index(0, AnomalyModel::Gain).data().toString();
        for (int row = 0; row < s.rows; ++row)
            s.scores.push_back(panel->proxy()->index(row, AnomalyModel::Score).data(SortRole).toDouble());
        seen.push_back(std::move(s));
    });
    w.settingsPanel()->coefficientSpin()->setValue(2.0);
    REQUIRE(waitFor([&] { return w.session()->reportCurrent() && !w.session()->rethresholding(); }));
    pump(50);
    REQUIRE(seen.size() == 2);
    // First the findings: not blank, gains "computing…", best score first.
    const Shown& findings = seen[0];
    CHECK(findings.gainsPending);
    CHECK_FALSE(findings.computed);
    REQUIRE(findings.rows > 0);
    CHECK(findings.firstGain == QStringLiteral("computing…"));
    CHECK(std::is_sorted(findings.scores.rbegin(), findings.scores.rend()));
    // Then the same findings with their gains, as many rows.
    const Shown& gains = seen[1];
    CHECK_FALSE(gains.gainsPending);
    CHECK(gains.computed);
    CHECK(gains.rows == findings.rows);
    CHECK(gains.firstGain != QStringLiteral("computing…"));
    CHECK_FALSE(gains.firstGain.isEmpty());
    CHECK(w.session()->report()->settings.thresholds() == Thresholds{2.0, Thresholds{}.overlapRatio});
}

TEST_CASE("the report worker drops a step a newer one made stale", "[app][whatif][slider]") {
    SampleWindow sample;
    const OpenedTracePtr trace = sample.window.session()->currentPtr();
    REQUIRE(trace);
    REQUIRE(trace->prepared);
    auto live = std::make_shared<std::atomic<quint64>>(7);
    auto latest = std::make_shared<std::atomic<quint64>>(3);
    ReportWorker worker(live, latest);
    struct Built {
        ReportPtr report;
        OverlayPtr overlay;
        bool pending;
    };
    std::vector<Built> out;
    QObject::connect(&worker, &ReportWorker::built,
                     [&](quint64, quint64, ReportPtr r, OverlayPtr overlay, double, double, bool pending) {
                         out.push_back({r, overlay, pending});
                     });
    SECTION("the latest request: its findings, then its gains") {
        worker.build(7, 3, trace, {2.5, 0.6}, nullptr);
        REQUIRE(out.size() == 2);
        REQUIRE(out[0].report);
        CHECK(out[0].pending);
        CHECK_FALSE(out[0].report->whatIf.computed);
        REQUIRE(out[1].report);
        CHECK_FALSE(out[1].pending);
        CHECK(out[1].report->whatIf.computed);
        CHECK(out[1].report->anomalies.size() == out[0].report->anomalies.size());
        // Each with its timeline overlay, built here: every flagged slice marked, the critical
        // path only once the what-if ran.
        REQUIRE(out[0].overlay);
        REQUIRE(out[1].overlay);
        for (std::size_t k = 0; k < out[0].report->anomalies.size(); ++k)
            CHECK(out[0].overlay->anomalyOf(out[0].report->anomalies.slice(k)) == k);
        CHECK(out[0].overlay->criticalSlices() == 0);
        CHECK(out[1].overlay->criticalSlices() > 0);
    }
    SECTION("a newer request came while its what-if ran: the what-if stops, its gains are not shown") {
        QObject::connect(&worker, &ReportWorker::built,
                         [&](quint64, quint64, ReportPtr, OverlayPtr, double, double, bool pending) {
                             if (pending) latest->store(4);  // the user moved the slider again
                         });
        worker.build(7, 3, trace, {2.5, 0.6}, nullptr);
        REQUIRE(out.size() == 2);
        CHECK(out[0].pending);
        CHECK_FALSE(out[1].report);
        CHECK_FALSE(out[1].pending);
    }
    SECTION("a newer request came before it began: nothing shown") {
        worker.build(7, 2, trace, {2.5, 0.6}, nullptr);
        REQUIRE(out.size() == 1);
        CHECK_FALSE(out[0].report);
        CHECK_FALSE(out[0].pending);
    }
    SECTION("another trace came: nothing shown") {
        worker.build(6, 3, trace, {2.5, 0.6}, nullptr);
        REQUIRE(out.size() == 1);
        CHECK_FALSE(out[0].report);
    }
}
