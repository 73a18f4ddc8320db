// The compare window's predicted vs realised: on the simulator's bandwidth scenario against its
// --fixed twin, the rows (per resource, then all resolved) carry the GainCheck that core's
// compareReports makes of the two runs analysed from scratch, as contend-cli compare prints it;
// a window resolved off the critical path reads as "did not get faster", marked.
#include <catch2/catch.hpp>
#include <fstream>

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include "analysis_test_trace.h"
#include "analyze_support.h"
#include "app/gui/compare_window.h"
#include "core/analysis/compare/compare.h"
#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "core/sim/run_simulation.h"
#include "gui_support.h"
#include "widgets/common/text.h"
#include "widgets/compare/gain_check_model.h"
#include "widgets/compare/gain_check_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::pump;
using contend::test::waitFor;
using contend::test::WarningCapture;

namespace {

QString simulate(const QTemporaryDir& dir, sim::Scenario s, bool fixed) {
    sim::SimulationRequest req;
    req.scenario = s;
    req.fixed = fixed;
    req.seed = 1;
    req.tracePath = dir.filePath(fixed ? QStringLiteral("fixed.json") : QStringLiteral("base.json")).toStdString();
    const Result<sim::SimulationSummary> sum = sim::runSimulation(req);
    if (!sum) FAIL("simulation failed: " << sum.failure().message());
    return QString::fromStdString(req.tracePath);
}

// The oracle: both traces analysed from scratch (analyze: thresholds at the defaults, then the
// what-if) and compared by core, as `contend-cli compare BASE NEW` does.
CompareResult coreCompare(const QString& base, const QString& now) {
    auto analysed = [](const QString& path) {
        LoadResult r = loadTrace(path.toStdString());
        if (!r) FAIL("did not load: " << path.toStdString());
        return contend::test::analyzeOk(r.value(), AnalysisSettings{});
    };
    return compareReports(analysed(base), analysed(now));
}

bool openPair(CompareWindow& w, const QString& base, const QString& now) {
    bool done = false, ok = false;
    auto a = QObject::connect(&w, &CompareWindow::compared, [&] { done = ok = true; });
    auto b = QObject::connect(&w, &CompareWindow::failed, [&] { done = true; });
    w.open(base, now);
    waitFor([&] { return done; }, 180000);
    QObject::disconnect(a);
    QObject::disconnect(b);
    pump(30);
    return ok;
}

QString cell(const GainCheckModel& m, int row, int col) { return m.data(m.index(row, col)).toString(); }

// The rows must be the core's GainCheck, grouped by resource.
void checkRows(const GainCheckModel& m, const GainCheck& g) {
    int expectedRows = 1;
    for (std::size_t k = 0; k < kResourceCount; ++k)
        if (g.predictedByResource[k] > 0) ++expectedRows;
    REQUIRE(m.rowCount() >= expectedRows);
    const int last = m.rowCount() - 1;
    REQUIRE(m.isTotal(last));
    for (int row = 0; row < last; ++row) {
        const Resource r = m.resource(row);
        INFO("row " << row << ": " << resourceName(r));
        CHECK_FALSE(m.isTotal(row));
        CHECK(m.predictedNs(row) == g.predictedByResource[static_cast<std::size_t>(r)]);
        CHECK(cell(m, row, GainCheckModel::What) == resourceLabel(r));
        CHECK(cell(m, row, GainCheckModel::Predicted) == durationText(m.predictedNs(row)));
        CHECK(cell(m, row, GainCheckModel::Realised).isEmpty());  // measured for the run only
        if (row > 0) CHECK(m.predictedNs(row) <= m.predictedNs(row - 1));
    }
    CHECK(m.predictedNs(last) == g.predictedNs);
    CHECK(cell(m, last, GainCheckModel::Predicted) == durationText(g.predictedNs));
    CHECK(cell(m, last, GainCheckModel::PredictedPerIteration) == durationText(g.predictedPerIterationNs));
    CHECK(cell(m, last, GainCheckModel::Realised) == realisedText(g.realisedNs));
    CHECK(cell(m, last, GainCheckModel::RealisedPerIteration) == realisedText(g.realisedPerIterationNs));
}

}  // namespace

TEST_CASE("compare window: predicted vs realised on the bandwidth scenario and its fixed twin are core's",
          "[compare][whatif]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString base = simulate(dir, sim::Scenario::Bandwidth, false);
    const QString fixed = simulate(dir, sim::Scenario::Bandwidth, true);
    const CompareResult expected = coreCompare(base, fixed);
    const GainCheck& g = expected.gain;
    REQUIRE(g.available);
    // What the test stands on: the fix resolved bandwidth findings, was predicted to pay and did.
    REQUIRE(g.predictedByResource[static_cast<std::size_t>(Resource::Bandwidth)] > 0);
    REQUIRE(g.realisedNs > 0);
    REQUIRE_FALSE(g.notFaster);
    REQUIRE(g.baseIterations > 1);

    CompareWindow w;
    w.resize(1400, 900);
    w.show();
    REQUIRE(openPair(w, base, fixed));
    GainCheckView* view = w.gainView();
    REQUIRE(view);
    CHECK(w.tabs()->indexOf(view) >= 0);
    const GainCheckModel& m = *view->model();
    checkRows(m, g);
    // The bandwidth row comes first (the largest predicted gain) and names its resolved findings.
    CHECK(m.resource(0) == Resource::Bandwidth);
    CHECK(cell(m, 0, GainCheckModel::Findings) != QStringLiteral("-"));
    const int last = m.rowCount() - 1;
    CHECK(cell(m, last, GainCheckModel::Realised).endsWith(QStringLiteral("faster")));
    // Per iteration: the totals over the runs' iteration counts.
    CHECK(m.predictedPerIterationNs(last) == g.predictedNs / static_cast<TimeNs>(g.baseIterations));
    CHECK(g.realisedPerIterationNs > 0);
    // The sentence is core's text, and the window's verdict repeats it.
    QString text = QString::fromStdString(g.text);
    CHECK(view->sentence().toLower().startsWith(text.left(20).toLower()));
    CHECK(view->sentence().contains(durationText(g.predictedNs)));
    CHECK(w.verdictLabel()->text().contains(QStringLiteral("predicted vs realised")));

    // Re-thresholding both runs compares again: the rows follow core on the new reports.
    bool again = false;
    auto c = QObject::connect(&w, &CompareWindow::compared, [&] { again = true; });
    w.setThresholds({2.0, 0.5});
    REQUIRE(waitFor([&] { return again; }, 120000));
    QObject::disconnect(c);
    REQUIRE(w.baseReport());
    REQUIRE(w.newReport());
    const CompareResult redone = compareReports(*w.baseReport(), *w.newReport());
    checkRows(*w.gainView()->model(), redone.gain);

    WarningCapture capture;
    {
        GainCheckModel tested;
        QAbstractItemModelTester tester(&tested, QAbstractItemModelTester::FailureReportingMode::Warning);
        tested.setResult(std::make_shared<CompareResult>(expected));
        tested.setResult(nullptr);
        CHECK(tested.rowCount() == 0);
    }
    CHECK(capture.warnings().isEmpty());
}

namespace {

// Six solo runs of two memory-bound copies, then one step where copy_b runs 20 us into copy_a
// and is slowed to `slowed` us (130: a bandwidth window; 100: none), while a long kernel on a
// third stream runs past both: the window is off the critical path (test_analysis_depgraph.cpp).
std::string offPathTrace(double slowed) {
    contend::test::KinetoTrace k;
    double t = 0;
    for (int i = 0; i < 6; ++i) {
        k.bandwidth(t, 70).kernel("copy_a", 7, t, 100).bandwidth(t + 100, 0);
        t += 200;
        k.bandwidth(t, 70).kernel("copy_b", 13, t, 100).bandwidth(t + 100, 0);
        t += 200;
    }
    k.kernel("copy_a", 7, t, 100).kernel("copy_b", 13, t + 20, slowed);
    k.bandwidth(t, 70).bandwidth(t + 20, 100).bandwidth(t + 100, 70).bandwidth(t + 20 + slowed, 0);
    k.kernel("tail_kernel", 20, t, 600);
    return k.json();
}

}  // namespace

TEST_CASE("compare window: a window resolved off the critical path reads as not faster, marked", "[compare][whatif]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString base = dir.filePath(QStringLiteral("contended.json"));
    const QString fixed = dir.filePath(QStringLiteral("fixed.json"));
    std::ofstream(base.toStdString()) << offPathTrace(130);
    std::ofstream(fixed.toStdString()) << offPathTrace(100);
    const CompareResult expected = coreCompare(base, fixed);
    REQUIRE(expected.gain.notFaster);
    REQUIRE(expected.gain.resolvedWindows == 1);
    REQUIRE_FALSE(expected.gain.newCriticalTrack.empty());

    CompareWindow w;
    w.resize(1200, 800);
    w.show();
    REQUIRE(openPair(w, base, fixed));
    const GainCheckModel& m = *w.gainView()->model();
    checkRows(m, expected.gain);
    const int last = m.rowCount() - 1;
    CHECK(m.predictedNs(last) == 0);
    CHECK(cell(m, last, GainCheckModel::Realised) == QStringLiteral("no change"));
    CHECK(cell(m, last, GainCheckModel::Findings).contains(QStringLiteral("1 window")));
    const QString s = w.gainView()->sentence();
    CHECK(s.contains(QStringLiteral("did not get faster")));
    CHECK(s.contains(QString::fromStdString(expected.gain.newCriticalTrack)));
    // Marked: bold, on a warning background.
    CHECK(w.gainView()->sentenceLabel()->text().startsWith(QStringLiteral("<b>")));
    CHECK_FALSE(w.gainView()->sentenceLabel()->styleSheet().isEmpty());
}
