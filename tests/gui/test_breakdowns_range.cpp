// The Breakdowns (HTA) tab linked like the other views: its tables (ranks and their streams,
// launch statistics) pass QAbstractItemModelTester and mark a selected operator's rank and stream;
// the title says "range a – b" or "whole trace" with a Whole Trace button for the way back; the
// range's figures come off the GUI thread (app/gui/range_breakdowns.h), only the newest request's,
// equal to core's; in the main window a range measured on the timeline shows them, clearing it
// (or Whole Trace) restores the report's, a selected operator marks its rows, and opening a
// stream's row shows that stream on the timeline. The cluster window's breakdowns per rank, with
// the reasons a rank has none.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <qcustomplot.h>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/range_breakdowns.h"
#include "core/analysis/breakdowns/breakdowns.h"
#include "core/report/breakdowns/breakdowns_json.h"
#include "gui_support.h"
#include "widgets/breakdowns/breakdown_rows_model.h"
#include "widgets/breakdowns/breakdowns_chart.h"
#include "widgets/breakdowns/launch_model.h"
#include "widgets/cluster/rank_breakdowns_view.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::widgets;
using contend::gui::MainWindow;
using contend::gui::RangeBreakdowns;
using contend::test::SampleWindow;
using contend::test::waitFor;

namespace {

// Rank 2: 60% idle, 30% compute, a quarter of its communication overlapped; streams 7 and 9
// with idle rows, stream 7 with a queue row too; two kernels' launch statistics.
TraceBreakdowns handMade() {
    TraceBreakdowns b;
    b.scope = "every device operation on a stream";
    b.deviceOps = b.inScope = 10;
    b.temporal.rows = {{2, 600, 300, 100, 1000}};
    b.commCompOverlap.rows = {{2, 0.25, 400, 100}};
    b.idle.rows = {{2, 9, 10, 20, 30}, {2, 7, 100, 200, 300}};
    b.queueLength.rows = {{2, 7, 8, 1.5, 1, 1.5, 2, 3, 0}};
    KernelLaunch gemm, copy;
    gemm.name = "gemm", gemm.runs = 3, gemm.gpuTotalNs = 300;
    copy.name = "Memcpy HtoD", copy.runs = 1, copy.gpuTotalNs = 10;
    b.launch.rows = {gemm, copy};
    return b;
}

// The breakdowns' JSON, to compare two values at once.
nlohmann::json asJson(const TraceBreakdowns& b) { return breakdownsToJson(b); }

}  // namespace

TEST_CASE("breakdowns tab: ranks and their streams as rows, a selection's rows marked", "[breakdowns][range]") {
    contend::test::WarningCapture warnings;
    BreakdownsChart chart;
    chart.resize(1400, 400);
    chart.show();
    QAbstractItemModelTester rowsTester(chart.rowsModel(), QAbstractItemModelTester::FailureReportingMode::Warning);
    QAbstractItemModelTester launchTester(chart.launchModel(), QAbstractItemModelTester::FailureReportingMode::Warning);
    chart.setBreakdowns(handMade());
    BreakdownRowsModel& rows = *chart.rowsModel();
    // The rank first, then its streams in ascending order.
    REQUIRE(rows.rowCount() == 3);
    CHECK(rows.index(0, BreakdownRowsModel::Row).data().toString() == QStringLiteral("rank 2"));
    CHECK(rows.index(1, BreakdownRowsModel::Row).data().toString().trimmed() == QStringLiteral("stream 7"));
    CHECK(rows.index(2, BreakdownRowsModel::Row).data().toString().trimmed() == QStringLiteral("stream 9"));
    CHECK(rows.index(0, BreakdownRowsModel::IdlePct).data(SortRole).toDouble() == Approx(60));
    CHECK(rows.index(0, BreakdownRowsModel::OverlapPct).data(SortRole).toDouble() == Approx(25));
    CHECK(rows.index(1, BreakdownRowsModel::IdlePct).data(SortRole).toDouble() == Approx(60));  // 600 of 1000
    CHECK(rows.index(1, BreakdownRowsModel::QueueMax).data(SortRole).toLongLong() == 3);
    CHECK(rows.index(2, BreakdownRowsModel::QueueMax).data().toString().isEmpty());  // no queue row
    CHECK(chart.launchModel()->rowCount() == 2);

    // An operator on rank 2, stream 9: the rank's row and stream 9's, not stream 7's.
    chart.highlight(2, {9});
    CHECK(rows.highlighted(rows.rowOfRank(2)));
    CHECK(rows.highlighted(rows.rowOfStream(2, 9)));
    CHECK_FALSE(rows.highlighted(rows.rowOfStream(2, 7)));
    CHECK(rows.index(rows.rowOfStream(2, 9), 0).data(Qt::FontRole).value<QFont>().bold());
    chart.setBreakdowns(handMade());  // kept across new figures
    CHECK(rows.highlighted(rows.rowOfStream(2, 9)));
    chart.highlight(BreakdownRowsModel::kNoRank, {});
    CHECK_FALSE(rows.highlighted(rows.rowOfRank(2)));

    // Opening a stream's row asks to show the stream; the rank's row does not.
    std::vector<int> asked;
    QObject::connect(&chart, &BreakdownsChart::streamActivated, [&](int s) { asked.push_back(s); });
    QTableView* view = chart.rowsPanel()->view();
    auto open = [&](int sourceRow) {
        emit view->activated(chart.rowsPanel()->proxy()->mapFromSource(rows.index(sourceRow, 0)));
    };
    open(rows.rowOfStream(2, 7));
    open(rows.rowOfRank(2));
    CHECK(asked == std::vector<int>{7});
    CHECK(warnings.warnings().isEmpty());
}

TEST_CASE("breakdowns tab: a slider step's report with the same breakdowns redraws nothing", "[breakdowns][slider]") {
    BreakdownsChart chart;
    chart.resize(1400, 400);
    chart.show();
    auto report = [](TraceBreakdowns b) {
        auto r = std::make_shared<Report>();
        r->breakdowns = std::move(b);
        return std::shared_ptr<const Report>(r);
    };
    ViewInputs in;
    in.report = report(handMade());
    chart.showReport(in);
    REQUIRE(chart.rowsModel()->rowCount() == 3);
    chart.highlight(2, {9});
    int resets = 0;
    QObject::connect(chart.rowsModel(), &QAbstractItemModel::modelReset, [&] { ++resets; });
    QObject::connect(chart.launchModel(), &QAbstractItemModel::modelReset, [&] { ++resets; });
    in.report = report(handMade());  // another report, the same figures
    chart.showReport(in);
    CHECK(resets == 0);
    CHECK(chart.rowsModel()->highlighted(chart.rowsModel()->rowOfStream(2, 9)));
    // Other figures are shown.
    TraceBreakdowns other = handMade();
    other.idle.rows.push_back({2, 11, 1, 2, 3});
    in.report = report(other);
    chart.showReport(in);
    CHECK(resets > 0);
    CHECK(chart.rowsModel()->rowCount() == 4);
    // No report: nothing shown.
    in.report = nullptr;
    chart.showReport(in);
    CHECK(chart.rowsModel()->rowCount() == 0);
}

TEST_CASE("breakdowns tab: a range's figures say so, with a way back to the whole trace", "[breakdowns][range]") {
    BreakdownsChart chart;
    chart.show();
    chart.setBreakdowns(handMade());
    CHECK(chart.title()->text().contains(QStringLiteral("whole trace")));
    CHECK(chart.wholeTraceButton()->isHidden());
    chart.setRangePending(1000, 2000);
    CHECK(chart.rangePending());
    CHECK(chart.title()->text().contains(QStringLiteral("computing range")));
    CHECK_FALSE(chart.wholeTraceButton()->isHidden());
    TraceBreakdowns part = handMade();
    part.inScope = 4;
    part.idle.rows.pop_back();  // stream 9 idle in the range, stream 7 only queued
    chart.showRange(1000, 2000, part);
    CHECK_FALSE(chart.rangePending());
    REQUIRE(chart.range());
    CHECK(chart.range()->first == 1000);
    CHECK(chart.title()->text().contains(QStringLiteral("range")));
    CHECK(chart.title()->text().contains(QStringLiteral("4 of the 10")));
    CHECK_FALSE(chart.title()->text().contains(QStringLiteral("computing")));
    const int s7 = chart.rowsModel()->rowOfStream(2, 7);
    REQUIRE(s7 >= 0);
    CHECK(chart.rowsModel()->index(s7, BreakdownRowsModel::HostWait).data().toString().isEmpty());
    int asked = 0;
    QObject::connect(&chart, &BreakdownsChart::wholeTraceRequested, [&] { ++asked; });
    chart.wholeTraceButton()->click();
    CHECK(asked == 1);
    chart.showWhole();
    CHECK_FALSE(chart.range());
    CHECK(chart.title()->text().contains(QStringLiteral("whole trace")));
    CHECK(chart.wholeTraceButton()->isHidden());
    CHECK_FALSE(chart.rowsModel()->index(s7, BreakdownRowsModel::HostWait).data().toString().isEmpty());
}

TEST_CASE("range breakdowns off the GUI thread: only the newest request's figures, equal to core's",
          "[breakdowns][range]") {
    REQUIRE(contend::test::haveSample());
    const TracePtr trace = loadTrace(contend::test::samplePath().toStdString()).value();
    const TimeNs b = trace->begin(), span = trace->span();
    RangeBreakdowns ranges;
    ranges.setTrace(trace);
    std::vector<std::pair<qint64, qint64>> got;
    std::shared_ptr<const TraceBreakdowns> last;
    QObject::connect(&ranges, &RangeBreakdowns::computed,
                     [&](qint64 t0, qint64 t1, std::shared_ptr<const TraceBreakdowns> r, double) {
                         got.emplace_back(t0, t1);
                         last = std::move(r);
                     });
    // Three asked at once: the first runs, the second is replaced by the third while it waits;
    // only the third's comes.
    ranges.request(b, b + span / 2);
    ranges.request(b + span / 4, b + span / 2);
    ranges.request(b + span / 3, b + 2 * span / 3);
    REQUIRE(waitFor([&] { return !ranges.busy(); }));
    contend::test::pump(50);
    REQUIRE(got.size() == 1);
    CHECK(got[0] == std::make_pair<qint64, qint64>(b + span / 3, b + 2 * span / 3));
    breakdowns::TimeRange r;
    r.begin = b + span / 3;
    r.end = b + 2 * span / 3;
    CHECK(asJson(*last) == asJson(computeBreakdowns(*trace, breakdownBasis(*trace), r)));
    CHECK(last->inScope > 0);
    // Cancelled (the range cleared) before it ends: nothing comes.
    ranges.request(b, b + span);
    ranges.cancel();
    REQUIRE(waitFor([&] { return !ranges.busy(); }));
    contend::test::pump(50);
    CHECK(got.size() == 1);
}

TEST_CASE("main window: a measured range shows the tab's figures over it, a stream row shows the stream",
          "[app][breakdowns][range]") {
    SampleWindow sample({1400, 900});
    MainWindow& w = sample.window;
    const Trace& t = *w.session()->current()->trace;
    BreakdownsChart& chart = *w.breakdownsChart();
    const nlohmann::json whole = asJson(w.session()->report()->breakdowns);
    const TimeNs t0 = t.begin() + t.span() / 4, t1 = t.begin() + t.span() / 2;
    w.timeline()->setMeasuredRange(t0, t1);
    REQUIRE(waitFor([&] { return chart.range().has_value() && !chart.rangePending(); }));
    CHECK(chart.range() == std::make_pair(t0, t1));
    CHECK(chart.title()->text().contains(QStringLiteral("range")));
    breakdowns::TimeRange r;
    r.begin = t0;
    r.end = t1;
    const TraceBreakdowns expected = computeBreakdowns(t, breakdownBasis(t), r);
    CHECK(chart.rowsModel()->rowCount() ==
          static_cast<int>(expected.temporal.rows.size() +
                           std::max(expected.idle.rows.size(), expected.queueLength.rows.size())));
    // Cleared on the timeline: the report's figures again.
    w.timeline()->setMeasuredRange(0, 0);
    CHECK_FALSE(chart.range());
    CHECK(chart.title()->text().contains(QStringLiteral("whole trace")));
    // Whole Trace clears the timeline's range too.
    w.timeline()->setMeasuredRange(t0, t1);
    REQUIRE(waitFor([&] { return chart.range().has_value(); }));
    chart.wholeTraceButton()->click();
    CHECK_FALSE(chart.range());
    CHECK(w.timeline()->measuredRange().second <= w.timeline()->measuredRange().first);
    contend::test::pump(100);
    CHECK_FALSE(chart.range());  // no late range result comes back

    // A device operation selected: its rank's and stream's rows marked.
    std::uint32_t op = kNone;
    for (std::uint32_t i = 0; i < t.slices().size() && op == kNone; ++i)
        if (t.slices()[i].is(kSliceDevice) && t.infos()[i].stream >= 0 &&
            chart.rowsModel()->rowOfStream(t.rank(), t.infos()[i].stream) >= 0)
            op = i;
    REQUIRE(op != kNone);
    const int stream = t.infos()[op].stream;
    w.selectSlice(op, false);
    CHECK(chart.rowsModel()->highlighted(chart.rowsModel()->rowOfStream(t.rank(), stream)));
    w.selectSlice(kNone, false);
    CHECK_FALSE(chart.rowsModel()->highlighted(chart.rowsModel()->rowOfStream(t.rank(), stream)));
    // Opening its stream's row: that stream's track shown and marked on the timeline.
    emit chart.streamActivated(stream);
    CHECK(w.timeline()->focusedTrack() == t.slices()[op].track);
    CHECK(w.timeline()->layout().rowOf(t.slices()[op].track, 0) >= 0);
    CHECK(asJson(w.session()->report()->breakdowns) == whole);  // the report's own never changed
}

TEST_CASE("cluster window's breakdowns: per rank the temporal split and overlap, streams, why a rank has none",
          "[cluster][breakdowns]") {
    contend::test::WarningCapture warnings;
    auto c = std::make_shared<ClusterReport>();
    c->ranks = {0, 1, 2};
    c->temporal = {{0, 100, 700, 200, 1000}, {1, 300, 500, 200, 1000}};
    c->commCompOverlap = {{0, 0.5, 400, 200}};
    c->idle = {{0, 7, 10, 20, 30}, {1, 7, 5, 5, 5}};
    c->queueLength = {{0, 7, 4, 1, 0.5, 1, 1.5, 2, 0}};
    c->breakdownsNotComputed = {
        {1, {{"comm_comp_overlap", "no communication kernel (nccl*, hccl*) on a stream"}}},
        {2, {{"temporal", "its report has no breakdowns (written before Contend computed them)"}}}};
    RankBreakdownsView view;
    view.resize(1200, 400);
    view.show();
    QAbstractItemModelTester tester(view.rowsModel(), QAbstractItemModelTester::FailureReportingMode::Warning);
    view.setReport(c);
    // Ranks 0 and 1 with their stream 7; rank 2 has no rows.
    CHECK(view.rowsModel()->rowCount() == 4);
    CHECK(view.rowsModel()->rowOfStream(0, 7) == 1);
    CHECK(view.rowsModel()->rowOfRank(2) < 0);
    // Three bars a rank for the two with the temporal split, the overlap dot for rank 0 alone.
    CHECK(view.plot()->plottableCount() == 4);  // compute, non-compute, idle, the overlap graph
    CHECK(view.plot()->graph(0)->dataCount() == 1);
    const QString reasons = view.reasons()->text();
    CHECK(reasons.contains(QStringLiteral("rank 1</b> not computed: comm_comp_overlap: no communication kernel")));
    CHECK(reasons.contains(QStringLiteral("rank 2</b> not computed: temporal: its report has no breakdowns")));
    CHECK_FALSE(view.reasons()->isHidden());
    // An older cluster report (no reasons): the rank without rows is still named.
    c->breakdownsNotComputed.clear();
    view.setReport(c);
    CHECK(view.reasons()->text().contains(QStringLiteral("rank 2</b>: no breakdowns in this cluster report")));
    view.setReport(nullptr);
    CHECK(view.rowsModel()->rowCount() == 0);
    CHECK(warnings.warnings().isEmpty());
}
