// The cluster view: a simulated 8-rank cluster with a slow rank opens (folder and report), its
// heatmap has a row per rank with the slow rank marked by the report's test and no other; the
// drill-down opens the right rank's trace and selects the late collective there; a cluster with
// no slow rank marks none; comparing slow vs null says the slow rank is gone; an older report
// without trace paths says the trace is not reachable; the real multi-rank samples open.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDropEvent>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <qcustomplot.h>

#include "app/gui/analysis_session.h"
#include "app/gui/cluster_compare_window.h"
#include "app/gui/cluster_load_thread.h"
#include "app/gui/cluster_window.h"
#include "app/gui/loading_panel.h"
#include "app/gui/main_window.h"
#include "app/gui/message_bar.h"
#include "core/report/ranks/cluster_report.h"
#include "core/report/single/report_json.h"
#include "core/sim/cluster_simulation.h"
#include "gui_support.h"
#include "test_paths.h"
#include "widgets/cluster/cluster_models.h"
#include "widgets/cluster/step_heatmap.h"
#include "widgets/common/text.h"
#include "widgets/common/view_state.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::pump;
using contend::test::waitFor;
using Fresh = contend::test::FreshSettings;

namespace {

constexpr int kSlowRank = 5;

// An 8-rank simulated cluster in `dir`: bandwidth contention on `slowRank`, or none (-1).
QString simulate(const QString& dir, int slowRank, int iterations = 12) {
    sim::ClusterRequest r;
    r.scenario = slowRank >= 0 ? sim::Scenario::Bandwidth : sim::Scenario::Null;
    r.ranks = 8;
    r.slowRank = slowRank;
    r.seed = 3;
    r.iterations = iterations;
    r.outDir = dir.toStdString();
    const Result<sim::ClusterSummary> s = sim::runClusterSimulation(r);
    REQUIRE(s.ok());
    return dir;
}

// Opens `path` in the window and waits for the result; true when it opened.
bool openCluster(ClusterWindow& w, const QString& path) {
    bool done = false, ok = false;
    auto a = QObject::connect(&w, &ClusterWindow::opened, [&] { done = ok = true; });
    auto b = QObject::connect(&w, &ClusterWindow::failed, [&](const QString& m) {
        UNSCOPED_INFO(m.toStdString());
        done = true;
    });
    w.open(path);
    waitFor([&] { return done; }, 120000);
    QObject::disconnect(a);
    QObject::disconnect(b);
    return ok;
}

void writeText(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

}  // namespace

TEST_CASE("a simulated 8-rank cluster with a slow rank opens with that rank marked and no other", "[cluster]") {
    Fresh fresh;
    QTemporaryDir tmp;
    const QString dir = simulate(tmp.filePath(QStringLiteral("slow")), kSlowRank);
    CHECK(isClusterPath(dir));
    ClusterWindow w;
    w.show();
    REQUIRE(openCluster(w, dir));
    REQUIRE(w.cluster());
    CHECK(w.cluster()->fromFolder);
    const StepGrid& g = w.heatmap()->grid();
    REQUIRE(g.rowCount() == 8);
    CHECK(g.columnCount() == 12);
    const int slowRow = g.rowOfRank(kSlowRank);
    REQUIRE(slowRow >= 0);
    // The row of the slow rank is marked, by name and by cells; no other row is.
    CHECK(g.slowRowCount() == 1);
    CHECK(g.slowRow[static_cast<std::size_t>(slowRow)] == 1);
    CHECK(w.heatmap()->rowLabel(slowRow).contains(QStringLiteral("slow")));
    CHECK_FALSE(w.heatmap()->rowLabel(g.rowOfRank(0)).contains(QStringLiteral("slow")));
    int slowCells = 0, elsewhere = 0, slowColumn = -1;
    for (int r = 0; r < g.rowCount(); ++r)
        for (int c = 0; c < g.columnCount(); ++c)
            if (g.isSlow(r, c)) {
                (r == slowRow ? slowCells : elsewhere) += 1;
                if (r == slowRow && slowColumn < 0) slowColumn = c;
            }
    CHECK(slowCells >= 2);
    CHECK(elsewhere == 0);
    CHECK(w.heatmap()->slowMarks() == slowCells);
    // The colour bar is the deviation from each step's median in percent, symmetric around 0,
    // one scale for the whole grid; the slow rank's slow cells are above their step's median.
    const auto [lo, hi] = w.heatmap()->colourRange();
    CHECK(lo == Approx(-hi));
    CHECK(hi >= 100.0 * g.maxDeviation - 1e-9);
    CHECK(g.deviation(slowRow, slowColumn) > 0);
    // The tooltip tells the value, the rank and step, and why the cell is slow.
    const QString tip = w.heatmap()->cellTooltip(slowRow, slowColumn);
    CHECK(tip.contains(
        QStringLiteral("rank %1, step %2").arg(kSlowRank).arg(g.iterations[static_cast<std::size_t>(slowColumn)])));
    CHECK(tip.contains(QStringLiteral("<b>slow</b>")));
    CHECK(tip.contains(durationText(g.value(slowRow, slowColumn))));
    CHECK_FALSE(w.heatmap()->cellTooltip(g.rowOfRank(0), slowColumn).contains(QStringLiteral("<b>slow</b>")));
    // A double-click on a cell asks to open that rank at that step.
    int askedRank = -1;
    quint32 askedStep = 0;
    QObject::connect(w.heatmap(), &StepHeatmap::cellActivated, [&](int rank, quint32 step) {
        askedRank = rank;
        askedStep = step;
    });
    w.resize(1400, 900);
    pump(200);
    w.heatmap()->refresh();
    const QPoint centre = w.heatmap()->cellCentre(slowRow, slowColumn);
    REQUIRE(w.heatmap()->cellAt(centre) == std::make_pair(slowRow, slowColumn));
    QTest::mouseDClick(w.heatmap()->plot(), Qt::LeftButton, {}, centre);
    CHECK(askedRank == kSlowRank);
    CHECK(askedStep == g.iterations[static_cast<std::size_t>(slowColumn)]);
    for (QWidget* top : QApplication::topLevelWidgets())
        if (auto* m = qobject_cast<MainWindow*>(top)) m->close();
    pump();
    // The metric box recolours: compute time, where the straggler shows in a synchronised step.
    w.heatmap()->setMetric(StepMetric::Compute);
    CHECK(w.heatmap()->grid().metric == StepMetric::Compute);
    CHECK(w.heatmap()->grid().value(slowRow, slowColumn) > w.heatmap()->grid().value(g.rowOfRank(0), slowColumn));
    // Late collectives: every one held up by the slow rank, with the chain sentence.
    LateCollectiveModel* late = w.collectiveModel();
    QAbstractItemModelTester tester(late, QAbstractItemModelTester::FailureReportingMode::Warning);
    REQUIRE(late->rowCount() >= 3);
    for (int r = 0; r < late->rowCount(); ++r) {
        CHECK(late->index(r, LateCollectiveModel::LateRank).data().toInt() == kSlowRank);
        CHECK(late->index(r, LateCollectiveModel::Chain)
                  .data()
                  .toString()
                  .startsWith(QStringLiteral("rank %1 arrived").arg(kSlowRank)));
    }
    CHECK(w.summary()->text().contains(QStringLiteral("rank %1 in").arg(kSlowRank)));
    CHECK(w.rankModel()->rowCount() == 8);
    CHECK(w.rankModel()->index(w.rankModel()->rowOfRank(kSlowRank), RankModel::SlowSteps).data().toInt() == slowCells);
}

TEST_CASE("drilling into a cluster opens the right rank and selects the late collective", "[cluster]") {
    Fresh fresh;
    QTemporaryDir tmp;
    const QString dir = simulate(tmp.filePath(QStringLiteral("slow")), kSlowRank);
    ClusterWindow w;
    w.show();
    REQUIRE(openCluster(w, dir));
    const int k = w.collectiveModel()->collectiveOf(0);
    REQUIRE(k >= 0);
    const ClusterCollective c = w.cluster()->report->collectives[static_cast<std::size_t>(k)];
    REQUIRE(c.lateRank == kSlowRank);

    MainWindow* shown = nullptr;
    quint32 selected = kNone;
    QObject::connect(&w, &ClusterWindow::collectiveShown, [&](MainWindow* m, quint32 s) {
        shown = m;
        selected = s;
    });
    // A double-click on the table's row is the user's way in (a click first: the view opens only
    // the row the press was on).
    QTableView* view = w.collectivePanel()->view();
    const QModelIndex row = w.collectivePanel()->proxy()->mapFromSource(w.collectiveModel()->index(0, 0));
    w.resize(1400, 900);
    pump(200);
    view->scrollTo(row);
    const QRect cell = view->visualRect(row);
    REQUIRE(cell.isValid());
    int openedRows = 0;
    QObject::connect(w.collectivePanel(), &TablePanel::rowOpened, [&] { ++openedRows; });
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    CHECK(openedRows == 1);
    REQUIRE(waitFor([&] { return shown != nullptr; }, 30000));
    const OpenedTrace* cur = shown->session()->current();
    REQUIRE(cur);
    CHECK(QFileInfo(cur->path).fileName() == QString::fromStdString(sim::rankFileName(kSlowRank, 8, false)));
    REQUIRE(selected != kNone);
    const Slice& s = cur->trace->slices()[selected];
    CHECK(cur->trace->str(s.name) == c.name);
    CHECK(s.start == c.lateStartNs);
    CHECK(shown->timeline()->selectedSlice() == selected);
    CHECK(shown->windowTitle().contains(QStringLiteral("rank %1").arg(kSlowRank)));
    // Zoomed to it: the view holds the collective and is far narrower than the trace.
    const auto axis = shown->timeline()->axis();
    CHECK(axis.t0 <= s.start);
    CHECK(axis.t1 >= s.end());
    CHECK(axis.span() < (cur->trace->end() - cur->trace->begin()) / 10);
    shown->close();

    // A rank (the Ranks table's row, or a heatmap cell) opens that rank's trace.
    MainWindow* rank3 = w.openRank(3, static_cast<qint64>(w.heatmap()->grid().iterations[2]));
    REQUIRE(rank3);
    int opened = -1;
    QObject::connect(&w, &ClusterWindow::rankOpened, [&](MainWindow*, int r) { opened = r; });
    REQUIRE(waitFor([&] { return opened == 3; }, 120000));
    CHECK(QFileInfo(rank3->session()->current()->path).fileName() ==
          QString::fromStdString(sim::rankFileName(3, 8, false)));
    // Zoomed to the step the cell was in.
    const std::uint32_t step = w.heatmap()->grid().iterations[2];
    const IterationStats* it = nullptr;
    for (const IterationStats& x : rank3->session()->report()->iterations)
        if (x.index == step) it = &x;
    REQUIRE(it);
    const auto stepAxis = rank3->timeline()->axis();
    CHECK(stepAxis.t0 <= it->start);
    CHECK(stepAxis.t1 >= it->end);
    CHECK(stepAxis.span() < (it->end - it->start) * 12 / 10);
    // The step's culprit (its finding with the most extra wait) is selected, and in view.
    const quint32 culprit = gui::stepCulprit(*rank3->session()->report(), it->start, it->end);
    if (culprit != kNone) {
        CHECK(rank3->selectionControl()->selected() == culprit);
        const Slice& cs = rank3->session()->current()->trace->slices()[culprit];
        CHECK(cs.start >= stepAxis.t0);
        CHECK(cs.start <= stepAxis.t1);
    }
    rank3->close();
    pump();

    // The slow rank's row: its worst step, and that step's culprit selected.
    opened = -1;
    MainWindow* slow = w.openRank(kSlowRank);
    REQUIRE(slow);
    REQUIRE(waitFor([&] { return opened == kSlowRank; }, 120000));
    const ReportPtr sr = slow->session()->report();
    REQUIRE(sr);
    const auto slowAxis = slow->timeline()->axis();
    const IterationStats* shownStep = nullptr;
    for (const IterationStats& x : sr->iterations)
        if (x.start >= slowAxis.t0 && x.end <= slowAxis.t1) shownStep = &x;
    REQUIRE(shownStep);  // zoomed to one step, not the whole trace
    CHECK(slowAxis.span() < (shownStep->end - shownStep->start) * 12 / 10);
    const quint32 slowCulprit = gui::stepCulprit(*sr, shownStep->start, shownStep->end);
    REQUIRE(slowCulprit != kNone);  // the slow rank was slowed by something in its worst step
    CHECK(slow->selectionControl()->selected() == slowCulprit);
    slow->close();
    pump();
}

TEST_CASE("a cluster with no slow rank marks no rank", "[cluster]") {
    Fresh fresh;
    QTemporaryDir tmp;
    const QString dir = simulate(tmp.filePath(QStringLiteral("null")), -1);
    ClusterWindow w;
    w.show();
    REQUIRE(openCluster(w, dir));
    const StepGrid& g = w.heatmap()->grid();
    REQUIRE(g.rowCount() == 8);
    CHECK(g.slowRowCount() == 0);
    CHECK(w.heatmap()->slowMarks() == 0);
    for (int r = 0; r < g.rowCount(); ++r) CHECK_FALSE(w.heatmap()->rowLabel(r).contains(QStringLiteral("slow")));
    CHECK(w.collectiveModel()->rowCount() == 0);
    CHECK(w.summary()->text().contains(QStringLiteral("No slow rank")));
}

TEST_CASE("comparing a slow cluster with a null one says the slow rank is gone", "[cluster]") {
    Fresh fresh;
    QTemporaryDir tmp;
    // Both as cluster reports written by the cluster window (what contend-cli cluster writes).
    QString paths[2];
    for (int side = 0; side < 2; ++side) {
        ClusterWindow w;
        REQUIRE(openCluster(
            w, simulate(tmp.filePath(side ? QStringLiteral("null") : QStringLiteral("slow")), side ? -1 : kSlowRank)));
        paths[side] = tmp.filePath(side ? QStringLiteral("null.json") : QStringLiteral("slow.json"));
        REQUIRE_FALSE(w.saveReport(paths[side], QStringLiteral("json")));  // nullopt: saved
        CHECK(isClusterPath(paths[side]));
    }
    ClusterCompareWindow cw;
    cw.show();
    bool done = false;
    QObject::connect(&cw, &ClusterCompareWindow::compared, [&] { done = true; });
    cw.open(paths[0], paths[1]);
    REQUIRE(waitFor([&] { return done; }, 120000));
    const ClusterComparison* cmp = cw.comparison();
    REQUIRE(cmp);
    CHECK(cmp->gone == std::vector<int>{kSlowRank});
    CHECK(cmp->still.empty());
    CHECK(cmp->added.empty());
    CHECK(cw.verdict()->text().contains(QStringLiteral("Slow rank %1 is gone").arg(kSlowRank)));
    RankCompareModel* m = cw.rankModel();
    QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::Warning);
    REQUIRE(m->rowCount() == 8);
    for (int r = 0; r < m->rowCount(); ++r)
        CHECK(m->index(r, RankCompareModel::Status).data().toString() ==
              (m->rankOf(r) == kSlowRank ? QStringLiteral("gone") : QStringLiteral("-")));
    // One colour scale for both heatmaps; the slow rank marked only before.
    CHECK(cw.baseHeatmap()->colourRange() == cw.newHeatmap()->colourRange());
    CHECK(cw.baseHeatmap()->grid().slowRowCount() == 1);
    CHECK(cw.newHeatmap()->grid().slowRowCount() == 0);
    // And the other way round: the slow rank is new.
    done = false;
    cw.open(paths[1], paths[0]);
    REQUIRE(waitFor([&] { return done; }, 120000));
    CHECK(cw.comparison()->added == std::vector<int>{kSlowRank});
    CHECK(cw.comparison()->gone.empty());
}

TEST_CASE("an older cluster report without trace paths opens and says when a trace is not reachable", "[cluster]") {
    Fresh fresh;
    QTemporaryDir tmp;
    const QString dir = simulate(tmp.filePath(QStringLiteral("slow")), kSlowRank, 8);
    QString current;
    {
        ClusterWindow w;
        REQUIRE(openCluster(w, dir));
        current = tmp.filePath(QStringLiteral("cluster.json"));
        REQUIRE_FALSE(w.saveReport(current, QStringLiteral("json")));  // nullopt: saved
    }
    std::ifstream in(current.toStdString());
    nlohmann::json j = nlohmann::json::parse(in);
    // Written before ranks[].trace and late_start_ns: every rank came from a report that is gone.
    for (auto& r : j["ranks"]) {
        r.erase("trace");
        r["report"] = (std::filesystem::path(tmp.path().toStdString()) / "gone" /
                       ("rank-" + std::to_string(r["rank"].get<int>()) + ".report.json"))
                          .string();
    }
    for (auto& c : j["collectives"]) c.erase("late_start_ns");
    const QString old = tmp.filePath(QStringLiteral("old.json"));
    writeText(old, jsonText(j));
    ClusterWindow w;
    w.show();
    REQUIRE(openCluster(w, old));
    CHECK(w.heatmap()->grid().rowCount() == 8);
    CHECK(w.heatmap()->grid().slowRowCount() == 1);
    CHECK(w.messageBar()->isVisible());
    CHECK(w.rankModel()->index(0, RankModel::Trace).data().toString() == QStringLiteral("not reachable"));
    CHECK(w.openRank(kSlowRank) == nullptr);
    CHECK(w.messageBar()->text().contains(QStringLiteral("not reachable")));
    INFO(w.messageBar()->text().toStdString());
    CHECK(w.messageBar()->text().contains(QStringLiteral("rank-5.report.json")));

    // With the per-rank reports where the old report says they are, the trace is found through
    // each report's trace.path, and the collective by its order in the step.
    const std::filesystem::path gone = std::filesystem::path(tmp.path().toStdString()) / "gone";
    std::filesystem::create_directories(gone);
    for (int rank = 0; rank < 8; ++rank) {
        nlohmann::json report = {
            {"schema", "contend.report/2"},
            {"trace",
             {{"path", (dir + "/" + QString::fromStdString(sim::rankFileName(rank, 8, false))).toStdString()}}}};
        writeText(QString::fromStdString((gone / ("rank-" + std::to_string(rank) + ".report.json")).string()),
                  report.dump());
    }
    ClusterWindow again;
    again.show();
    REQUIRE(openCluster(again, old));
    CHECK(again.rankModel()->index(0, RankModel::Trace).data().toString().endsWith(QStringLiteral("rank-00.json")));
    MainWindow* shown = nullptr;
    quint32 selected = kNone;
    QObject::connect(&again, &ClusterWindow::collectiveShown, [&](MainWindow* m, quint32 s) {
        shown = m;
        selected = s;
    });
    const int k = again.collectiveModel()->collectiveOf(0);
    REQUIRE(again.openCollective(k));
    REQUIRE(waitFor([&] { return shown != nullptr; }, 120000));
    REQUIRE(selected != kNone);
    const ClusterCollective& c = again.cluster()->report->collectives[static_cast<std::size_t>(k)];
    const Trace& t = *shown->session()->current()->trace;
    CHECK(t.str(t.slices()[selected].name) == c.name);
    shown->close();
    pump();
}

TEST_CASE("what opens as a cluster: cluster folders and reports, not one rank's trace or folder", "[cluster]") {
    QTemporaryDir tmp;
    const QString dir = simulate(tmp.filePath(QStringLiteral("slow")), kSlowRank, 4);
    CHECK(isClusterPath(dir));
    CHECK_FALSE(isClusterPath(dir + QStringLiteral("/rank-00.json")));
    CHECK_FALSE(isClusterPath(contend::test::samplePath()));
    CHECK_FALSE(isClusterPath(tmp.filePath(QStringLiteral("missing"))));
}

TEST_CASE("what opens as a cluster: a real Ascend rank folder is one trace, its parent a cluster", "[cluster][real]") {
    contend::test::skipWithoutSharedTraces();
    const std::filesystem::path root(contend::test::sharedTracesDir());
    const std::filesystem::path rank0 = root / "ascend-msinsight/test/data/pytorch/text/level2/rank0_ascend_pt";
    REQUIRE(std::filesystem::exists(rank0));
    CHECK_FALSE(isClusterPath(QString::fromStdString(rank0.string())));
    CHECK_FALSE(isClusterPath(QString::fromStdString((rank0 / "ASCEND_PROFILER_OUTPUT").string())));
    CHECK(isClusterPath(QString::fromStdString(rank0.parent_path().string())));
}

TEST_CASE("the real multi-rank samples open as clusters in the app", "[cluster][real]") {
    contend::test::skipWithoutSharedTraces();
    const std::filesystem::path root(contend::test::sharedTracesDir());
    const std::filesystem::path ascend = root / "ascend-msinsight/test/data/pytorch/text/level2";
    const std::filesystem::path hta = root / "kineto-hta/tests/data/trace_diff";
    REQUIRE(std::filesystem::exists(ascend));
    REQUIRE(std::filesystem::exists(hta));
    Fresh fresh;
    struct Case {
        std::filesystem::path dir;
        std::vector<int> ranks;
    };
    for (const Case& c : {Case{ascend, {0, 1}}, Case{hta, {1, 3}}}) {
        INFO(c.dir.string());
        const QString path = QString::fromStdString(c.dir.string());
        CHECK(isClusterPath(path));
        ClusterWindow w;
        w.show();
        REQUIRE(openCluster(w, path));
        CHECK(w.heatmap()->grid().ranks == c.ranks);
        CHECK(w.heatmap()->grid().columnCount() >= 1);
        CHECK(w.rankModel()->rowCount() == 2);
        // Each rank's trace is reachable for the drill-down.
        for (int rank : c.ranks) CHECK_FALSE(rankTracePath(*w.cluster(), rank).isEmpty());
    }
}

TEST_CASE("a folder of ranks dropped on the main window opens in a cluster window", "[cluster]") {
    Fresh fresh;
    QTemporaryDir tmp;
    const QString dir = simulate(tmp.filePath(QStringLiteral("slow")), kSlowRank, 6);
    MainWindow main;
    main.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(dir)});
    // As a drag does it: enter (the window accepts local files), then the drop.
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&main, &enter);
    CHECK(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&main, &drop);
    ClusterWindow* cluster = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* c = qobject_cast<ClusterWindow*>(w)) cluster = c;
    REQUIRE(cluster);
    CHECK_FALSE(main.session()->busy());  // the main window did not try to open it as one trace
    REQUIRE(waitFor([&] { return cluster->cluster() != nullptr; }, 60000));
    CHECK(cluster->heatmap()->grid().rowCount() == 8);
    CHECK(cluster->cluster()->path == QFileInfo(dir).absoluteFilePath());
    cluster->close();
    pump();
}

TEST_CASE("opening a folder of ranks can be cancelled and keeps the cluster on screen", "[cluster]") {
    Fresh fresh;
    QTemporaryDir tmp;
    const QString first = simulate(tmp.filePath(QStringLiteral("first")), kSlowRank, 4);
    const QString second = simulate(tmp.filePath(QStringLiteral("second")), -1, 4);
    ClusterWindow w;
    w.show();
    REQUIRE(openCluster(w, first));
    const auto report = w.cluster()->report;
    bool cancelled = false, opened = false;
    QObject::connect(&w, &ClusterWindow::cancelled, [&] { cancelled = true; });
    QObject::connect(&w, &ClusterWindow::opened, [&] { opened = true; });
    w.open(second);
    CHECK(w.loadingPanel()->isVisible());
    w.loadingPanel()->cancelButton()->click();
    REQUIRE(waitFor([&] { return cancelled || opened; }, 60000));
    CHECK(cancelled);
    CHECK_FALSE(opened);
    CHECK(waitFor([&] { return !w.busy(); }, 10000));
    // The cluster opened before stays.
    REQUIRE(w.cluster());
    CHECK(w.cluster()->path == QFileInfo(first).absoluteFilePath());
    CHECK(w.cluster()->report == report);
    CHECK(w.heatmap()->grid().rowCount() == 8);
}

TEST_CASE("the cluster heatmap draws a 2-rank, 1-step cluster and colours the slow rank by its deviation",
          "[cluster][heatmap]") {
    // One step, two ranks: rank 1 is 30% slower. By step time alone the column would be one
    // scale's two ends at best, and a single column used to be a zero-width map.
    auto report = std::make_shared<ClusterReport>();
    report->ranks = {0, 1};
    ClusterIteration it;
    it.index = 7;
    it.ranks = {{0, 10'000'000, 3'000'000, 7'000'000, false, false}, {1, 13'000'000, 0, 13'000'000, false, false}};
    report->iterations = {it};
    StepHeatmap map;
    map.resize(600, 300);
    map.show();
    map.setReport(report);
    // Compute is the first measure shown (rank 1: 13 ms against rank 0's 7 ms); then step time.
    CHECK(map.grid().metric == StepMetric::Compute);
    CHECK(map.grid().deviation(1, 0) == Approx(0.3));
    map.setMetric(StepMetric::Step);
    pump(50);
    INFO("box " << map.metricBox()->currentIndex() << ", metric " << static_cast<int>(map.grid().metric));
    REQUIRE(map.grid().metric == StepMetric::Step);
    map.refresh();
    const StepGrid& g = map.grid();
    REQUIRE(g.rowCount() == 2);
    REQUIRE(g.columnCount() == 1);
    CHECK(g.medians[0] == 11'500'000);
    CHECK(g.deviation(0, 0) == Approx(10.0 / 11.5 - 1.0));
    CHECK(g.deviation(1, 0) == Approx(13.0 / 11.5 - 1.0));
    CHECK(map.colourRange().second == Approx(100.0 * (13.0 / 11.5 - 1.0)));
    CHECK(map.cellTooltip(1, 0).contains(QStringLiteral("above the step's median")));
    CHECK(map.cellTooltip(0, 0).contains(QStringLiteral("below the step's median")));
    // The legend says what the colour is.
    auto* scale = qobject_cast<QCPColorScale*>(map.plot()->plotLayout()->element(0, 1));
    REQUIRE(scale);
    CHECK(scale->label().contains(QStringLiteral("the step's median")));
    // Both cells are drawn (not the background): the slower rank red, the faster one blue.
    map.plot()->replot();
    const QImage img = map.plot()->grab().toImage();
    const QColor slow = img.pixelColor(map.cellCentre(1, 0) + QPoint(12, 0));
    const QColor fast = img.pixelColor(map.cellCentre(0, 0) + QPoint(12, 0));
    INFO("slow " << slow.name().toStdString() << ", fast " << fast.name().toStdString());
    CHECK(slow.red() > slow.blue() + 60);
    CHECK(fast.blue() > fast.red() + 60);
    // The same step time on every rank is the median: white, not a colour extreme.
    report->iterations[0].ranks[1].stepNs = 10'000'000;
    map.setReport(report);
    CHECK(map.grid().maxDeviation == Approx(0.0));
    CHECK(map.colourRange().second == Approx(1.0));
}
