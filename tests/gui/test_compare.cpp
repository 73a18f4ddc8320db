// Compare mode: the diff models pass QAbstractItemModelTester; the compare window on the two
// bundled samples finds what compareReports finds on the engine's own reports; a diff row moves
// both timelines; zooming one timeline moves the other by the alignment offset.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>

#include "analyze_support.h"
#include "app/gui/analysis_session.h"
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "app/gui/save_file.h"
#include "core/analysis/compare/compare.h"
#include "core/analysis/engine.h"
#include "core/io/load.h"
#include "gui_support.h"
#include "test_paths.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/compare/shift_chart.h"
#include "widgets/tables/compare_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/table_proxy.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::openSample;
using contend::test::pump;
using contend::test::waitFor;
using contend::test::WarningCapture;

namespace {

QString afterSample() {
    return (QString::fromStdString(contend::test::sourceDir()) +
            QStringLiteral("/resources/samples/projectx-after.json.gz"));
}
bool haveSamples() { return contend::test::haveSample() && std::filesystem::exists(afterSample().toStdString()); }

Anomaly anomaly(std::uint32_t slice, double score, Resource cause) {
    Anomaly a;
    a.slice = slice;
    a.score = score;
    a.cause = cause;
    return a;
}

// One of everything: a resolved, a persisting and a new anomaly; an operator of each change.
std::shared_ptr<const CompareResult> handMadeResult() {
    auto r = std::make_shared<CompareResult>();
    AnomalyDiff gone{"gemm[128]", "gemm", {0, 100}, true, false, anomaly(3, 5.5, Resource::Bandwidth), {}, 0};
    AnomalyDiff stays{
        "conv", "conv", {1, 200}, true, true, anomaly(4, 4.0, Resource::Compute), anomaly(7, 3.5, Resource::Compute),
        -0.5};
    AnomalyDiff fresh{"allreduce", "allreduce", {-1, 0}, false, true, {}, anomaly(9, 8.0, Resource::Sync), 0};
    r->anomalies.resolved.push_back(gone);
    r->anomalies.persisting.push_back(stays);
    r->anomalies.added.push_back(fresh);
    const OpChange changes[] = {OpChange::Faster, OpChange::Slower, OpChange::Same, OpChange::New, OpChange::Gone};
    for (int i = 0; i < 5; ++i) {
        OperatorDiff d;
        d.signature = "op" + std::to_string(i);
        d.name = d.signature;
        d.change = changes[i];
        d.inBase = changes[i] != OpChange::New;
        d.inNew = changes[i] != OpChange::Gone;
        d.base.count = 10;
        d.base.meanNs = 1000;
        d.now.count = 12;
        d.now.meanNs = 1000 + 100 * i;
        d.meanChange = d.inBase && d.inNew ? d.now.meanNs / d.base.meanNs - 1 : 0;
        r->operators.push_back(d);
    }
    // Patterns: one resolved (two runs, the second costlier), one persisting, one new.
    auto pattern = [](const char* victim, double slowdown, TimeNs cost,
                      std::vector<std::pair<std::uint32_t, TimeNs>> runs) {
        ContentionPattern p;
        p.victim = victim;
        p.partner = "copy";
        p.cause = Resource::Bandwidth;
        p.slowdown = slowdown;
        p.costNs = cost;
        for (const auto& [slice, excess] : runs) {
            PatternRun run;
            run.slice = slice;
            run.excessNs = excess;
            p.runs.push_back(run);
        }
        return p;
    };
    r->patterns.resolved.push_back(
        {"triad", "copy", true, false, pattern("triad", 0.28, 9000, {{11, 2000}, {12, 7000}}), {}});
    r->patterns.persisting.push_back({"scale", "copy", true, true, pattern("scale", 0.30, 5000, {{13, 5000}}),
                                      pattern("scale", 0.10, 1000, {{14, 1000}})});
    r->patterns.added.push_back({"gather", "copy", false, true, {}, pattern("gather", 0.17, 3000, {{15, 3000}})});
    r->baseByResource[static_cast<std::size_t>(Resource::Bandwidth)] = 5000000;
    r->newByResource[static_cast<std::size_t>(Resource::Compute)] = 3000000;
    r->bottleneck.baseResource = Resource::Bandwidth;
    r->bottleneck.baseShare = 1.0;
    r->bottleneck.baseWaitNs = 5000000;
    r->bottleneck.newResource = Resource::Compute;
    r->bottleneck.newShare = 1.0;
    r->bottleneck.newWaitNs = 3000000;
    r->bottleneck.shifted = true;
    r->bottleneck.text = "bandwidth 5 ms (100%) -> compute 3 ms (100%)";
    return r;
}

bool openPairAndWait(CompareWindow& w, const QString& base, const QString& now) {
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

}  // namespace

TEST_CASE("compare models pass the model tester through resets, sorts and filters", "[compare][model]") {
    for (CompareModel::Kind kind :
         {CompareModel::Kind::Operators, CompareModel::Kind::Anomalies, CompareModel::Kind::Patterns}) {
        CompareModel model(kind);
        WarningCapture capture;
        {
            QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
            TableProxy proxy;
            proxy.setSourceModel(&model);
            QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Warning);
            model.setResult(handMadeResult());
            for (int c = 0; c < model.columnCount(); ++c) {
                proxy.sort(c, Qt::AscendingOrder);
                proxy.sort(c, Qt::DescendingOrder);
            }
            proxy.setFilterWords(QStringLiteral("new"));
            CHECK(proxy.rowCount() >= 1);
            proxy.setFilterWords(QString());
            model.setResult(nullptr);
            CHECK(model.rowCount() == 0);
            model.setResult(handMadeResult());
        }
        CHECK(capture.warnings().isEmpty());
        if (kind == CompareModel::Kind::Anomalies) {
            REQUIRE(model.rowCount() == 3);
            CHECK(model.status(0) == QStringLiteral("resolved"));
            CHECK(model.status(2) == QStringLiteral("new"));
            CHECK(model.baseSlice(0) == 3);
            CHECK(model.newSlice(0) == kNone);
            CHECK(model.newSlice(2) == 9);
            CHECK(model.data(model.index(0, CompareModel::AnScoreNew)).toString() == QStringLiteral("-"));
            CHECK(model.data(model.index(1, CompareModel::AnScoreBase)).toString() == QStringLiteral("4.00"));
        } else if (kind == CompareModel::Kind::Patterns) {
            REQUIRE(model.rowCount() == 3);
            CHECK(model.status(0) == QStringLiteral("resolved"));
            CHECK(model.status(1) == QStringLiteral("persisting"));
            CHECK(model.status(2) == QStringLiteral("new"));
            // A row stands for the pattern's costliest run in each run that has it.
            CHECK(model.baseSlice(0) == 12);
            CHECK(model.newSlice(0) == kNone);
            CHECK(model.baseSlice(1) == 13);
            CHECK(model.newSlice(1) == 14);
            CHECK(model.baseSlice(2) == kNone);
            CHECK(model.newSlice(2) == 15);
            CHECK(model.signature(2) == "gather");
            CHECK(model.data(model.index(1, CompareModel::PatSlowdownNew)).toString() == QStringLiteral("+10.0%"));
            CHECK(model.data(model.index(0, CompareModel::PatSlowdownNew)).toString() == QStringLiteral("-"));
            CHECK(model.data(model.index(0, CompareModel::PatCostNew)).toString() == QStringLiteral("-"));
            CHECK(model.data(model.index(0, CompareModel::PatCostBase)).toString() == QStringLiteral("9 us"));
        } else {
            REQUIRE(model.rowCount() == 5);
            // Words with an arrow: "-" is the empty cell, never a change.
            CHECK(model.data(model.index(0, CompareModel::OpChangeCol)).toString() == QStringLiteral("▼ faster"));
            CHECK(model.data(model.index(3, CompareModel::OpChangeCol)).toString() == QStringLiteral("+ new"));
            for (int r = 0; r < model.rowCount(); ++r)
                CHECK(model.data(model.index(r, CompareModel::OpChangeCol)).toString() != QStringLiteral("-"));
            CHECK(model.headerData(CompareModel::OpChangeCol, Qt::Horizontal, Qt::ToolTipRole)
                      .toString()
                      .contains(QStringLiteral("▼ faster")));
            CHECK(model.data(model.index(1, CompareModel::OpMeanChange)).toString() == QStringLiteral("+10.0%"));
            CHECK(model.data(model.index(3, CompareModel::OpMeanBase)).toString() == QStringLiteral("-"));
            CHECK(model.signature(4) == "op4");
        }
    }
}

TEST_CASE("runs from folders of the same name get labels that tell them apart", "[compare][labels]") {
    auto l = distinctLabels(QStringLiteral("/data/run1/rank0_ascend_pt"), QStringLiteral("/data/run2/rank0_ascend_pt"));
    CHECK(l.first == QStringLiteral("run1/rank0_ascend_pt"));
    CHECK(l.second == QStringLiteral("run2/rank0_ascend_pt"));
    l = distinctLabels(QStringLiteral("/a/before.json"), QStringLiteral("/a/after.json"));
    CHECK(l.first == QStringLiteral("before.json"));
    CHECK(l.second == QStringLiteral("after.json"));
    l = distinctLabels(QStringLiteral("/x/p/q/t.json"), QStringLiteral("/y/p/q/t.json"));
    CHECK(l.first == QStringLiteral("x/p/q/t.json"));
    CHECK(l.second == QStringLiteral("y/p/q/t.json"));
}

TEST_CASE("the shift chart shows a bar pair per resource with extra wait", "[compare][chart]") {
    ShiftChart chart;
    chart.setResult(*handMadeResult());
    REQUIRE(chart.resources().size() == 2);
    CHECK(chart.resources()[0] == Resource::Bandwidth);
    CHECK(chart.resources()[1] == Resource::Compute);
}

TEST_CASE("compare window on the samples agrees with compareReports", "[compare][app]") {
    REQUIRE(haveSamples());  // bundled with the project: missing is a failure, not a skip
    CompareWindow w;
    w.resize(1400, 900);
    w.show();
    REQUIRE(openPairAndWait(w, contend::test::samplePath(), afterSample()));
    REQUIRE(w.result());

    // The engine's own reports, same default thresholds.
    AnalysisSettings s;
    const LoadResult base = loadTrace(contend::test::samplePath().toStdString());
    const LoadResult now = loadTrace(afterSample().toStdString());
    REQUIRE(base.ok());
    REQUIRE(now.ok());
    const CompareResult expected =
        compareReports(contend::test::analyzeOk(base.value(), s), contend::test::analyzeOk(now.value(), s));
    const CompareResult& got = *w.result();
    CHECK(got.anomalies.resolved.size() == expected.anomalies.resolved.size());
    CHECK(got.anomalies.persisting.size() == expected.anomalies.persisting.size());
    CHECK(got.anomalies.added.size() == expected.anomalies.added.size());
    CHECK(got.windows.resolved.size() == expected.windows.resolved.size());
    CHECK(got.windows.added.size() == expected.windows.added.size());
    CHECK(got.operators.size() == expected.operators.size());
    CHECK(got.verdict == expected.verdict);
    CHECK(
        w.anomalyModel()->rowCount() ==
        static_cast<int>(got.anomalies.resolved.size() + got.anomalies.persisting.size() + got.anomalies.added.size()));
    CHECK(w.operatorModel()->rowCount() == static_cast<int>(got.operators.size()));
    // The fix on the sample resolves every contention pattern; picking one shows its costliest
    // run in the baseline.
    CHECK(got.patterns.resolved.size() == expected.patterns.resolved.size());
    CHECK_FALSE(got.patterns.resolved.empty());
    REQUIRE(
        w.patternModel()->rowCount() ==
        static_cast<int>(got.patterns.resolved.size() + got.patterns.persisting.size() + got.patterns.added.size()));
    w.showRow(CompareModel::Kind::Patterns, 0);
    CHECK(w.baseTimeline()->selectedSlice() == w.patternModel()->baseSlice(0));
    CHECK(w.baseTimeline()->selectedSlice() != kNone);

    SECTION("zooming one timeline moves the other by the alignment offset") {
        TimelineView* b = w.baseTimeline();
        TimelineView* n = w.newTimeline();
        const TimeNs t0 = w.baseTrace()->trace->begin() + w.baseTrace()->trace->span() / 4;
        const TimeNs t1 = t0 + w.baseTrace()->trace->span() / 10;
        b->zoomTo(t0, t1, 0.0);
        pump(20);
        CHECK(std::llabs(n->axis().t0 - (b->axis().t0 + w.offset())) <= 2);
        CHECK(std::llabs(n->axis().span() - b->axis().span()) <= 2);

        // And back: the comparison drives the baseline.
        const TimeNs u0 = w.newTrace()->trace->begin() + w.newTrace()->trace->span() / 3;
        n->zoomTo(u0, u0 + w.newTrace()->trace->span() / 20, 0.0);
        pump(20);
        CHECK(std::llabs(b->axis().t0 - (n->axis().t0 - w.offset())) <= 2);

        // Switching the alignment changes the offset and re-aligns the comparison.
        w.alignBox()->setCurrentIndex(1);
        CHECK(w.alignment() == CompareWindow::Alignment::TraceStart);
        CHECK(w.offset() == w.newTrace()->trace->begin() - w.baseTrace()->trace->begin());
        CHECK(std::llabs(n->axis().t0 - (b->axis().t0 + w.offset())) <= 2);
    }

    SECTION("picking a diff row shows the operator in both timelines") {
        TablePanel* panel = w.anomalyPanel();
        REQUIRE(panel->proxy()->rowCount() > 0);
        // A persisting anomaly when there is one: both runs have it.
        int row = 0;
        for (int i = 0; i < w.anomalyModel()->rowCount(); ++i)
            if (w.anomalyModel()->status(i) == QStringLiteral("persisting")) row = i;
        const TimeAxis before0 = w.baseTimeline()->axis(), before1 = w.newTimeline()->axis();
        const QModelIndex proxyIndex = panel->proxy()->mapFromSource(w.anomalyModel()->index(row, 0));
        panel->view()->setCurrentIndex(proxyIndex);  // as the user's click does
        pump(30);
        const quint32 bs = w.baseTimeline()->selectedSlice(), ns = w.newTimeline()->selectedSlice();
        CHECK((bs != kNone || ns != kNone));
        if (w.anomalyModel()->baseSlice(row) != kNone) CHECK(bs == w.anomalyModel()->baseSlice(row));
        if (w.anomalyModel()->newSlice(row) != kNone) CHECK(ns == w.anomalyModel()->newSlice(row));
        CHECK(!(w.baseTimeline()->axis() == before0));
        CHECK(!(w.newTimeline()->axis() == before1));
        // Both views now hold their operator.
        if (bs != kNone) {
            const Slice& sl = w.baseTrace()->trace->slices()[bs];
            CHECK(w.baseTimeline()->axis().t0 <= sl.start);
            CHECK(w.baseTimeline()->axis().t1 >= sl.end());
        }
        if (ns != kNone) {
            const Slice& sl = w.newTrace()->trace->slices()[ns];
            CHECK(w.newTimeline()->axis().t0 <= sl.start);
            CHECK(w.newTimeline()->axis().t1 >= sl.end());
        }

        // A signature row: the first occurrence in each run.
        const int opRow = 0;
        const std::string sig = w.operatorModel()->signature(opRow);
        w.showRow(CompareModel::Kind::Operators, opRow);
        pump(20);
        CHECK(w.baseTimeline()->selectedSlice() == w.firstOccurrence(sig, false));
        CHECK(w.newTimeline()->selectedSlice() == w.firstOccurrence(sig, true));
        // The side-by-side breakdowns follow: each shows its own run's occurrence.
        CHECK(w.baseBreakdown()->slice() == w.baseTimeline()->selectedSlice());
        CHECK(w.newBreakdown()->slice() == w.newTimeline()->selectedSlice());

        // A signature the comparison lacks: the comparison follows the baseline's occurrence.
        for (int i = 0; i < w.operatorModel()->rowCount(); ++i) {
            const std::string s = w.operatorModel()->signature(i);
            if (w.firstOccurrence(s, true) != kNone || w.firstOccurrence(s, false) == kNone) continue;
            w.showRow(CompareModel::Kind::Operators, i);
            pump(20);
            CHECK(w.newTimeline()->selectedSlice() == kNone);
            CHECK(std::llabs(w.newTimeline()->axis().t0 - (w.baseTimeline()->axis().t0 + w.offset())) <= 2);
            break;
        }
    }

    SECTION("a row both runs have puts both timelines on one scale, aligned on the operator's start") {
        // A signature that got slower or faster: both runs have it, with different durations.
        int row = -1;
        for (int i = 0; i < w.operatorModel()->rowCount() && row < 0; ++i) {
            const std::string s = w.operatorModel()->signature(i);
            const quint32 b0 = w.firstOccurrence(s, false), n0 = w.firstOccurrence(s, true);
            if (b0 != kNone && n0 != kNone &&
                w.baseTrace()->trace->slices()[b0].dur != w.newTrace()->trace->slices()[n0].dur)
                row = i;
        }
        REQUIRE(row >= 0);
        w.showRow(CompareModel::Kind::Operators, row);
        pump(20);
        const quint32 bs = w.baseTimeline()->selectedSlice(), ns = w.newTimeline()->selectedSlice();
        REQUIRE(bs != kNone);
        REQUIRE(ns != kNone);
        const Slice& b = w.baseTrace()->trace->slices()[bs];
        const Slice& n = w.newTrace()->trace->slices()[ns];
        const TimeAxis ab = w.baseTimeline()->axis(), an = w.newTimeline()->axis();
        // One scale: the same nanoseconds per pixel, so durations compare by eye.
        CHECK(ab.span() == an.span());
        CHECK(ab.durPx(b.dur) / an.durPx(n.dur) == Approx(static_cast<double>(b.dur) / static_cast<double>(n.dur)));
        // Aligned: both operators start at the same pixel.
        CHECK(ab.toPx(b.start) == Approx(an.toPx(n.start)).margin(0.5));
        CHECK(w.offset() == n.start - b.start);
        // Both are whole on screen.
        CHECK(ab.t0 <= b.start);
        CHECK(ab.t1 >= b.end());
        CHECK(an.t0 <= n.start);
        CHECK(an.t1 >= n.end());
        // A pan of one moves the other in step.
        w.baseTimeline()->zoomTo(ab.t0 + 1000, ab.t1 + 1000, 0.0);
        pump(10);
        CHECK(std::llabs(w.newTimeline()->axis().t0 - (w.baseTimeline()->axis().t0 + w.offset())) <= 2);
    }

    SECTION("the comparison exports as JSON, Markdown and PNG") {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("c.json")), md = dir.filePath(QStringLiteral("c.md")),
                      png = dir.filePath(QStringLiteral("c.png"));
        REQUIRE_FALSE(w.exportComparison(json, QStringLiteral("json")));  // nullopt: saved
        REQUIRE_FALSE(w.exportComparison(md, QStringLiteral("markdown")));
        REQUIRE_FALSE(w.exportComparison(png, QStringLiteral("png")));
        QFile jf(json);
        REQUIRE(jf.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(jf.readAll().toStdString(), nullptr, false);
        REQUIRE(!j.is_discarded());
        CHECK(j.contains("operators"));
        CHECK(j["operators"].size() == w.result()->operators.size());
        QFile mf(md);
        REQUIRE(mf.open(QIODevice::ReadOnly));
        CHECK(mf.readAll().size() > 100);
        const QImage image(png);
        CHECK(image.width() == w.width());
        // A folder that does not exist: an error that names it, no file.
        const QString missing = dir.filePath(QStringLiteral("no/such/c.json"));
        const std::optional<Failure> failed = w.exportComparison(missing, QStringLiteral("json"));
        REQUIRE(failed);
        CHECK(failureText(*failed).contains(missing));
        CHECK_FALSE(QFileInfo::exists(missing));
        // The title carries the thresholds both runs were analysed with.
        CHECK(w.windowTitle().contains(
            QStringLiteral("coefficient %1").arg(w.baseReport()->settings.coefficient, 0, 'f', 2)));
    }

    SECTION("selecting an operator in one timeline highlights its match in the other") {
        const quint32 s = w.anomalyModel()->baseSlice(0) != kNone
                              ? w.anomalyModel()->baseSlice(0)
                              : w.firstOccurrence(w.operatorModel()->signature(0), false);
        REQUIRE(s != kNone);
        w.baseTimeline()->pickSlice(s, false);  // as a click does
        pump(10);
        CHECK(w.newTimeline()->selectedSlice() == w.matchingSlice(s, true));
        CHECK(w.baseBreakdown()->slice() == s);
        CHECK(w.newBreakdown()->slice() == w.matchingSlice(s, true));
    }
}

TEST_CASE("Compare with… uses the open trace as the baseline", "[compare][app]") {
    REQUIRE(haveSamples());  // bundled with the project: missing is a failure, not a skip
    MainWindow main;
    CHECK(main.compareWith(afterSample()) == nullptr);  // nothing open yet
    REQUIRE(openSample(main, 180000));
    CompareWindow* w = main.compareWith(afterSample());
    REQUIRE(w);
    bool done = false;
    QObject::connect(w, &CompareWindow::compared, [&] { done = true; });
    QObject::connect(w, &CompareWindow::failed, [&] { done = true; });
    REQUIRE(waitFor([&] { return done; }, 180000));
    REQUIRE(w->result());
    CHECK(w->baseTrace() == main.session()->currentPtr());  // not read again
    CHECK(w->baseReport() == main.session()->report());
    CHECK(w->newTrace()->path.endsWith(QStringLiteral("projectx-after.json.gz")));
    w->close();
    pump(20);
}

TEST_CASE("the compare window's thresholds re-threshold both runs and compare again", "[compare][app][sliders]") {
    REQUIRE(haveSamples());  // bundled with the project: missing is a failure, not a skip
    const LoadResult base = loadTrace(contend::test::samplePath().toStdString());
    const LoadResult now = loadTrace(afterSample().toStdString());
    REQUIRE(base.ok());
    REQUIRE(now.ok());
    auto expectedAt = [&](double k, double r) {
        AnalysisSettings s;
        s.coefficient = k;
        s.overlapRatio = r;
        return compareReports(contend::test::analyzeOk(base.value(), s), contend::test::analyzeOk(now.value(), s));
    };
    auto agrees = [](const CompareResult& got, const CompareResult& expected) {
        return got.anomalies.resolved.size() == expected.anomalies.resolved.size() &&
               got.anomalies.persisting.size() == expected.anomalies.persisting.size() &&
               got.anomalies.added.size() == expected.anomalies.added.size() &&
               got.windows.resolved.size() == expected.windows.resolved.size() &&
               got.windows.added.size() == expected.windows.added.size() && got.verdict == expected.verdict;
    };
    auto reportsAt = [](CompareWindow& w, double k, double r) {
        // A step's final report (its gains in): the findings come first, and the compare waits
        // for both runs' final reports.
        auto at = [&](const ReportPtr& p) {
            return p && std::abs(p->settings.coefficient - k) < 1e-9 && std::abs(p->settings.overlapRatio - r) < 1e-9 &&
                   p->whatIf.computed;
        };
        return at(w.baseReport()) && at(w.newReport()) && w.result();
    };

    SECTION("its spins have Thresholds' ranges") {
        CompareWindow w;
        CHECK(w.thresholds() == Thresholds{});
        CHECK(w.coefficientSpin()->minimum() == Approx(Thresholds::kMinCoefficient));
        CHECK(w.coefficientSpin()->maximum() == Approx(Thresholds::kMaxCoefficient));
        CHECK(w.overlapSpin()->minimum() == Approx(Thresholds::kMinOverlapRatio));
        CHECK(w.overlapSpin()->maximum() == Approx(Thresholds::kMaxOverlapRatio));
    }
    SECTION("two traces opened in the window") {
        CompareWindow w;
        w.resize(1400, 900);
        w.show();
        REQUIRE(openPairAndWait(w, contend::test::samplePath(), afterSample()));
        const CompareResult before = *w.result();
        // A lower coefficient flags more in both runs; a lower overlap ratio finds more windows.
        w.coefficientSpin()->setValue(1.5);
        w.overlapSpin()->setValue(0.5);
        REQUIRE(waitFor([&] { return reportsAt(w, 1.5, 0.5); }, 60000));
        pump(50);
        const CompareResult expected = expectedAt(1.5, 0.5);
        CHECK(agrees(*w.result(), expected));
        CHECK(w.result()->anomalies.resolved.size() + w.result()->anomalies.persisting.size() >
              before.anomalies.resolved.size() + before.anomalies.persisting.size());
        CHECK(w.anomalyModel()->rowCount() ==
              static_cast<int>(expected.anomalies.resolved.size() + expected.anomalies.persisting.size() +
                               expected.anomalies.added.size()));
        CHECK(w.verdictLabel()->text().contains(QString::fromStdString(expected.verdict).toHtmlEscaped()));
    }
    SECTION("a compare against the main window's trace") {
        MainWindow main;
        REQUIRE(openSample(main, 180000));
        CompareWindow* w = main.compareWith(afterSample());
        REQUIRE(w);
        REQUIRE(waitFor([&] { return w->result() != nullptr; }, 180000));
        CHECK(w->coefficientSpin()->value() == Approx(main.session()->report()->settings.coefficient));
        w->setThresholds({4.5, 0.8});
        REQUIRE(waitFor([&] { return reportsAt(*w, 4.5, 0.8); }, 60000));
        pump(50);
        CHECK(agrees(*w->result(), expectedAt(4.5, 0.8)));
        CHECK(w->coefficientSpin()->value() == Approx(4.5));
        // The main window keeps its own thresholds and report.
        CHECK(main.session()->report()->settings.coefficient == Approx(3.0));
        w->close();
        pump(20);
    }
}
