// The what-if in the app (issue 15): the session's reports carry the predicted gains and slack
// (first report and re-thresholds, the same numbers contend-cli computes, and a what-if that
// stops when asked), the tables' Gain column and their ranking by it, the details' critical path
// and gain lines, and the critical path on the timeline folded like the other overlays.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <limits>

#include <QSettings>
#include <QSlider>
#include <QTest>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/settings_panel.h"
#include "core/analysis/engine.h"
#include "core/analysis/model/slice_view.h"
#include "core/analysis/whatif/whatif.h"
#include "draw_frame.h"
#include "gui_support.h"
#include "widgets/common/text.h"
#include "widgets/details/operator_details.h"
#include "widgets/tables/anomaly_model.h"
#include "widgets/tables/cluster_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/table_proxy.h"
#include "widgets/tables/window_model.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::pump;
using contend::test::SampleWindow;
using contend::test::TinyTrace;
using contend::test::waitFor;

namespace {

// What contend-cli analyze computes at these thresholds.
Report cliReport(const PreparedAnalysis& p, double coefficient, double overlap) {
    Report r = buildReport(p, coefficient, overlap);
    predictGains(p, r);
    return r;
}

void checkSameGains(const Report& shown, const Report& want) {
    REQUIRE(shown.whatIf.computed);
    CHECK(shown.whatIf.totalNs == want.whatIf.totalNs);
    CHECK(shown.whatIf.allGainNs == want.whatIf.allGainNs);
    REQUIRE(shown.whatIf.resources.size() == want.whatIf.resources.size());
    for (std::size_t i = 0; i < want.whatIf.resources.size(); ++i)
        CHECK(shown.whatIf.resources[i].gainNs == want.whatIf.resources[i].gainNs);
    REQUIRE(shown.anomalies.size() == want.anomalies.size());
    for (std::size_t i = 0; i < want.anomalies.size(); ++i) {
        CHECK(shown.anomalies[i].gainNs == want.anomalies[i].gainNs);
        CHECK(shown.anomalies[i].slackNs == want.anomalies[i].slackNs);
    }
    REQUIRE(shown.windows.size() == want.windows.size());
    for (std::size_t i = 0; i < want.windows.size(); ++i) CHECK(shown.windows[i].gainNs == want.windows[i].gainNs);
    REQUIRE(shown.clusters.size() == want.clusters.size());
    for (std::size_t i = 0; i < want.clusters.size(); ++i) CHECK(shown.clusters[i].gainNs == want.clusters[i].gainNs);
}

// The per-slice slack the views are handed beside the reports: the dependency graph's, every slice.
void checkSlack(const SliceView& shown, const PreparedAnalysis& p) {
    const DependencyGraph& g = p.dependencyGraph();
    std::vector<TimeNs> want(p.trace().slices().size(), -1);
    for (std::uint32_t v = 0; v < g.size(); ++v) want[g.slice[v]] = g.slack[v];
    REQUIRE(shown.slices() == want.size());
    std::size_t differ = 0;
    for (std::uint32_t s = 0; s < want.size(); ++s) differ += shown.slackOf(s) != want[s];
    CHECK(differ == 0);
}

// A view with only slack (no analysed slices), for reports made by hand.
SliceView slackView(std::vector<TimeNs> slack) {
    const std::size_t n = slack.size();
    return makeSliceView(std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()),
                         std::vector<std::uint32_t>(n, kNone), std::move(slack), 0);
}

bool waitForThresholds(MainWindow& w, double coefficient, double overlap) {
    return waitFor([&] {
        const ReportPtr r = w.session()->report();
        return r && std::abs(r->settings.coefficient - coefficient) < 1e-9 &&
               std::abs(r->settings.overlapRatio - overlap) < 1e-9 && !w.session()->rethresholding();
    });
}

// The gains a panel shows, top to bottom.
std::vector<qint64> shownGains(TablePanel* panel, int column) {
    std::vector<qint64> out;
    for (int row = 0; row < panel->proxy()->rowCount(); ++row)
        out.push_back(panel->proxy()->index(row, column).data(SortRole).toLongLong());
    return out;
}

std::uint64_t criticalSlicesDrawn(const DrawList& l, std::uint32_t track) {
    std::uint64_t n = 0;
    for (const DrawPath& d : l.critical)
        if (d.track == track) n += d.slices;
    return n;
}

}  // namespace

TEST_CASE("the app's reports carry the what-if, first report and re-thresholds alike", "[app][whatif]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    QSettings().clear();
    SampleWindow sample({1600, 1000});
    MainWindow& w = sample.window;
    const auto* prepared = w.session()->current()->prepared.get();
    REQUIRE(prepared);
    SettingsPanel* s = w.settingsPanel();
    {
        const ReportPtr r = w.session()->report();
        REQUIRE(r);
        INFO("first report");
        checkSameGains(*r, cliReport(*prepared, r->settings.coefficient, r->settings.overlapRatio));
        CHECK(r->whatIf.nodes > 0);
        REQUIRE(w.session()->current()->sliceView());
        checkSlack(*w.session()->current()->sliceView(), *prepared);
    }
    // A re-threshold (on the worker) computes it again for the new findings.
    s->overlapSlider()->setValue(30);
    REQUIRE(waitForThresholds(w, s->coefficient(), 0.30));
    pump();
    const ReportPtr r = w.session()->report();
    INFO("re-thresholded");
    checkSameGains(*r, cliReport(*prepared, s->coefficient(), 0.30));
    REQUIRE_FALSE(r->windows.empty());
    bool someGain = false;
    for (const ContentionWindow& win : r->windows) someGain |= win.gainNs > 0;
    CHECK(someGain);
    // The session's what-if cache (seeded by the first report) answered the replays whose
    // changes did not move (the anomalies and clusters: only the overlap changed) ...
    const WhatIfCache* cache = w.session()->whatIfCache();
    REQUIRE(cache);
    CHECK(cache->hits() > 0);
    // ... and back at the first thresholds every replay is a lookup, with the gains of a
    // what-if from scratch.
    const std::size_t misses = cache->misses(), hits = cache->hits();
    s->overlapSlider()->setValue(70);
    REQUIRE(waitForThresholds(w, s->coefficient(), 0.70));
    pump();
    checkSameGains(*w.session()->report(), cliReport(*prepared, s->coefficient(), 0.70));
    CHECK(cache->misses() == misses);
    CHECK(cache->hits() > hits);
    s->overlapSlider()->setValue(30);
    REQUIRE(waitForThresholds(w, s->coefficient(), 0.30));
    pump();

    // The tables show it and rank by it by default, biggest first ("-" last).
    const std::vector<qint64> wg = shownGains(w.windowPanel(), WindowModel::Gain);
    REQUIRE(wg.size() == r->windows.size());
    CHECK(std::is_sorted(wg.begin(), wg.end(), std::greater<>()));
    TimeNs best = -1;
    for (const ContentionWindow& win : r->windows) best = std::max(best, win.gainNs);
    CHECK(wg.front() == best);
    CHECK(w.windowPanel()->proxy()->index(0, WindowModel::Gain).data().toString() == durationText(best));
    const std::vector<qint64> ag = shownGains(w.anomalyPanel(), AnomalyModel::Gain);
    CHECK(std::is_sorted(ag.begin(), ag.end(), std::greater<>()));
    const std::vector<qint64> cg = shownGains(w.clusterPanel(), ClusterModel::Gain);
    CHECK(std::is_sorted(cg.begin(), cg.end(), std::greater<>()));
    // Score is still a click away.
    w.anomalyPanel()->sortBy(AnomalyModel::Score, Qt::DescendingOrder);
    for (int row = 1; row < w.anomalyPanel()->proxy()->rowCount(); ++row)
        CHECK(w.anomalyPanel()->proxy()->index(row - 1, AnomalyModel::Score).data(SortRole).toDouble() >=
              w.anomalyPanel()->proxy()->index(row, AnomalyModel::Score).data(SortRole).toDouble());

    // The summary gives each resource's gain.
    const QString summary = w.settingsPanel()->summary();
    CHECK(summary.contains(QStringLiteral("Predicted end-to-end gain")));
    for (const ResourceGain& g : r->whatIf.resources)
        CHECK(summary.contains(resourceLabel(g.resource).toHtmlEscaped() + QStringLiteral(": ")));

    // The critical path on the timeline, toggled from the View menu and by its key.
    QAction* path = w.criticalPathAction();
    REQUIRE(path);
    CHECK(path->isChecked());
    w.timeline()->resetZoom();
    w.timeline()->repaint();
    std::uint64_t drawn = 0;
    for (const DrawPath& d : w.timeline()->drawList().critical) drawn += d.slices;
    CHECK(drawn > 0);
    QTest::keyClick(&w, Qt::Key_P);
    pump();
    CHECK_FALSE(path->isChecked());
    CHECK_FALSE(w.timeline()->criticalPathShown());
    w.timeline()->repaint();
    CHECK(w.timeline()->drawList().critical.empty());
    path->trigger();
    w.timeline()->repaint();
    CHECK_FALSE(w.timeline()->drawList().critical.empty());

    // Details: the selected operator's place on the critical path and the finding's gain.
    const SliceView& view = *w.session()->current()->sliceView();
    std::uint32_t onPath = kNone, withSlack = kNone;
    for (std::uint32_t sl = 0; sl < view.slices(); ++sl) {
        if (onPath == kNone && view.slackOf(sl) == 0) onPath = sl;
        if (withSlack == kNone && view.slackOf(sl) > 0) withSlack = sl;
    }
    REQUIRE(onPath != kNone);
    REQUIRE(withSlack != kNone);
    w.selectSlice(onPath, false);
    pump();
    CHECK(w.details()->toPlainText().contains(QStringLiteral("on the critical path")));
    w.selectSlice(withSlack, false);
    pump();
    CHECK(w.details()->toPlainText().contains(QStringLiteral("slack ") + durationText(view.slackOf(withSlack))));
}

TEST_CASE("the what-if stops when the session no longer wants it", "[app][whatif][cancel]") {
    REQUIRE(contend::test::haveSample());  // bundled: its absence is a broken checkout, not a skip
    TracePtr t = loadTrace(contend::test::samplePath().toStdString()).value();
    REQUIRE(t);
    const auto result = prepareAnalysis(t, AnalysisSettings{});
    REQUIRE(result);
    const PreparedPtr& prepared = result.value();
    int asked = 0;
    CHECK(buildReportForApp(*prepared, {1.5, 0.3}, [&] { return ++asked < 3; }) == nullptr);
    CHECK(asked == 3);  // asked between replays, stopped at the first "no"
    const auto full = buildReportForApp(*prepared, {1.5, 0.3}, [] { return true; });
    REQUIRE(full);
    CHECK(full->whatIf.computed);
    CHECK(full->whatIf.replayed > 0);
}

TEST_CASE("the Gain column: predicted gains, '-' when not computed, ranked biggest first", "[tables][whatif]") {
    TinyTrace b;
    const auto s0 = b.stream(1);
    for (int i = 0; i < 4; ++i) b.op(s0, "k", i * 1000LL, 500);
    auto t = b.finish();
    auto r = std::make_shared<Report>();
    r->whatIf.computed = true;
    r->whatIf.iterations = 2;
    const TimeNs gains[] = {3000, -1, 0, 80000};
    for (std::uint32_t i = 0; i < 4; ++i) {
        Anomaly a;
        a.slice = i;
        a.score = 10 - i;
        a.gainNs = gains[i];
        r->anomalies.push_back(a);
        ContentionWindow win;
        win.id = i;
        win.start = i * 1000LL;
        win.end = win.start + 500;
        win.gainNs = gains[i];
        r->windows.push_back(win);
        Cluster c;
        c.id = i;
        c.track = s0;
        c.gainNs = gains[i];
        r->clusters.push_back(c);
    }
    AnomalyModel am;
    WindowModel wm;
    ClusterModel cm;
    am.setReport(t, r);
    wm.setReport(t, r);
    cm.setReport(t, r);
    const std::pair<ColumnModel*, int> models[] = {
        {&am, AnomalyModel::Gain}, {&wm, WindowModel::Gain}, {&cm, ClusterModel::Gain}};
    for (auto [m, col] : models) {
        CAPTURE(col);
        CHECK(m->column(col).kind == ColumnKind::Gain);
        CHECK(m->index(0, col).data().toString() == durationText(3000));
        CHECK(m->index(1, col).data().toString() == QStringLiteral("-"));
        CHECK(m->index(1, col).data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("not computed")));
        CHECK(m->index(2, col).data(Qt::ToolTipRole).toString().contains(QStringLiteral("off the critical path")));
        CHECK(m->headerData(col, Qt::Horizontal, Qt::InitialSortOrderRole).toInt() == Qt::DescendingOrder);
        TablePanel panel(m, QString());
        panel.sortBy(col, Qt::DescendingOrder);
        std::vector<qint64> shown;
        for (int row = 0; row < panel.proxy()->rowCount(); ++row)
            shown.push_back(panel.proxy()->index(row, col).data(SortRole).toLongLong());
        CHECK(shown == std::vector<qint64>{80000, 3000, 0, -1});  // not computed last
    }
}

TEST_CASE("details say where an operator stands on the critical path and what a fix gains", "[details][whatif]") {
    TinyTrace b;
    const auto s0 = b.stream(1);
    for (int i = 0; i < 3; ++i) b.op(s0, "k", i * 1'000'000LL, 500'000);
    auto t = b.finish();
    Report r;
    const auto slices = std::make_shared<const SliceView>(slackView({0, 120'000, -1}));
    CHECK(criticalPathText(r, *slices, 0).isEmpty());  // no what-if: nothing claimed
    CHECK(predictedGainText(r, 5000) == QStringLiteral("not computed"));
    r.whatIf.computed = true;
    r.whatIf.iterations = 4;
    CHECK(criticalPathText(r, *slices, 0).contains(QStringLiteral("on the critical path")));
    CHECK(criticalPathText(r, *slices, 1).startsWith(QStringLiteral("slack ") + durationText(120'000)));
    CHECK(criticalPathText(r, *slices, 2) == QStringLiteral("not in the dependency graph"));
    CHECK(predictedGainText(r, -1) == QStringLiteral("not computed"));
    CHECK(predictedGainText(r, 0).startsWith(QStringLiteral("none")));
    CHECK(predictedGainText(r, 400'000) == durationText(100'000) + QStringLiteral(" per iteration, ") +
                                               durationText(400'000) + QStringLiteral(" in total (4 iterations)"));

    Anomaly a;
    a.slice = 1;
    a.score = 9;
    a.gainNs = 400'000;
    r.anomalies.push_back(a);
    ContentionWindow win;
    win.gainNs = 80'000;
    r.windows.push_back(win);
    Cluster c;
    c.track = s0;
    c.gainNs = -1;
    r.clusters.push_back(c);
    OperatorDetails d;
    d.setTrace(t);
    d.setReport(std::make_shared<const Report>(r), slices);
    d.showSlice(1);
    CHECK(d.toPlainText().contains(QStringLiteral("slack ") + durationText(120'000)));
    CHECK(d.toPlainText().contains(durationText(100'000) + QStringLiteral(" per iteration")));
    d.showSlice(0);
    CHECK(d.toPlainText().contains(QStringLiteral("on the critical path")));
    d.showWindow(0);
    CHECK(d.toPlainText().contains(durationText(20'000) + QStringLiteral(" per iteration, ") + durationText(80'000) +
                                   QStringLiteral(" in total")));
    d.showCluster(0);
    CHECK(d.toPlainText().contains(QStringLiteral("predicted gain")));
    CHECK(d.toPlainText().contains(QStringLiteral("not computed")));
}

TEST_CASE("the critical path folds like the other overlays and keeps its counts at every zoom",
          "[timeline][drawlist][overlayfold][whatif]") {
    TinyTrace b;
    const auto s0 = b.stream(1), s1 = b.stream(2);
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        b.op(s0, "k", i * 100LL, 60);
        b.op(s1, "m", i * 100LL + 30, 50);
    }
    auto t = b.finish();
    contend::test::DrawFrame sc(t);
    Report r;
    r.whatIf.computed = true;
    std::vector<TimeNs> slack(t->slices().size(), 500);
    // Every third kernel of s0 and every fifth of s1 on the path: apart, so one stretch each.
    std::vector<std::uint32_t> on0, on1;
    for (std::uint32_t i = 0; i < t->slices().size(); ++i) (t->slices()[i].track == s0 ? on0 : on1).push_back(i);
    auto byStart = [&](auto x, auto y) { return t->slices()[x].start < t->slices()[y].start; };
    std::sort(on0.begin(), on0.end(), byStart);
    std::sort(on1.begin(), on1.end(), byStart);
    for (int i = 0; i < n; ++i) {
        if (i % 3 == 0) slack[on0[static_cast<std::size_t>(i)]] = 0;
        if (i % 5 == 0) slack[on1[static_cast<std::size_t>(i)]] = 0;
    }
    sc.setReport(r, slackView(slack));
    CHECK(sc.overlay.criticalSlices() == static_cast<std::size_t>((n + 2) / 3 + (n + 4) / 5));
    auto wanted = [&](std::uint32_t track, TimeNs t0, TimeNs t1) {
        std::uint64_t k = 0;
        for (std::uint32_t i = 0; i < t->slices().size(); ++i) {
            const Slice& s = t->slices()[i];
            k += s.track == track && slack[i] == 0 && s.start < t1 && s.end() > t0;
        }
        return k;
    };
    CHECK(sc.draw(0, n * 100LL).critical.empty());  // off unless asked for
    sc.criticalPath = true;
    const TimeNs span = n * 100LL;
    for (TimeNs w = span; w >= 500; w /= 4) {
        for (TimeNs mid : {span / 7, span / 2, span - span / 5}) {
            const TimeNs t0 = std::max<TimeNs>(0, mid - w / 2), t1 = t0 + w;
            CAPTURE(t0, t1);
            const DrawList l = sc.draw(t0, t1);
            CHECK(criticalSlicesDrawn(l, s0) == wanted(s0, t0, t1));
            CHECK(criticalSlicesDrawn(l, s1) == wanted(s1, t0, t1));
            CHECK(l.critical.size() <= 2 * (1000 / 2 + 2));  // bounded by the pixels
            for (const DrawPath& d : l.critical) CHECK(d.w >= kMinPathPx);
        }
    }
    SECTION("back-to-back critical operators are one stretch") {
        Report q;
        q.whatIf.computed = true;
        TinyTrace b2;
        const auto st = b2.stream(1);
        for (int i = 0; i < 6; ++i) b2.op(st, "k", i * 100LL, 100);  // touching
        auto t2 = b2.finish();
        contend::test::DrawFrame f2(t2);
        f2.criticalPath = true;
        std::vector<TimeNs> slack2(t2->slices().size(), 7);
        for (std::uint32_t i = 0; i < t2->slices().size(); ++i)
            if (t2->slices()[i].start < 400) slack2[i] = 0;  // the first four
        f2.setReport(q, slackView(slack2));
        const DrawList l = f2.draw(0, 600, 600);
        REQUIRE(l.critical.size() == 1);
        CHECK(l.critical[0].slices == 4);
        CHECK(l.critical[0].x == Approx(0));
        CHECK(l.critical[0].w == Approx(400));
    }
    SECTION("none in view: nothing drawn, nothing walked") {
        const DrawList l = sc.draw(span + 1000, span + 2000);
        CHECK(l.critical.empty());
        CHECK(l.stats.findingsWalked == 0);
    }
    SECTION("a report without a what-if has no critical path") {
        Report q;  // beside the same slack: the path is the what-if's claim
        sc.setReport(q, slackView(slack));
        CHECK(sc.overlay.criticalSlices() == 0);
        CHECK(sc.draw(0, span).critical.empty());
    }
}

TEST_CASE("the summary ranks by gain when the what-if ran and gives each resource's gain", "[ux][summary][whatif]") {
    Report r;
    // By score the lock operators come first; by gain the sync ones do, as the table shows them.
    for (int i = 0; i < 8; ++i) {
        Anomaly a;
        a.cause = i < 4 ? Resource::Lock : Resource::Sync;
        a.score = 10 - i;
        a.excessNs = 1000;
        a.gainNs = i < 4 ? 0 : 5000;
        r.anomalies.push_back(a);
    }
    r.summary.bottleneck = Resource::Lock;
    CHECK(bottleneckVersusTable(r).isEmpty());  // no what-if: by score, the top rows agree
    CHECK(whatIfSummaryText(r).isEmpty());
    r.whatIf.computed = true;
    r.whatIf.iterations = 10;
    r.whatIf.totalNs = 10'000'000;
    r.whatIf.allGainNs = 12'000;
    r.whatIf.resources.push_back({Resource::Sync, 20'000, 10'000});
    r.whatIf.resources.push_back({Resource::Lock, 3000, 0});
    r.whatIf.criticalTrack = "GPU 0 / stream 7";
    const QString why = bottleneckVersusTable(r);
    CHECK(why.startsWith(QStringLiteral("The table is ranked by predicted gain")));
    CHECK(why.contains(QStringLiteral("the first for sync")));
    const QString text = whatIfSummaryText(r);
    CHECK(text.contains(QStringLiteral("sync: ") + durationText(10'000) + QStringLiteral(" (") + durationText(1000) +
                        QStringLiteral(" per iteration)")));
    CHECK(text.contains(QStringLiteral("lock: ") + durationText(0)));
    CHECK(text.contains(QStringLiteral("everything at once: ") + durationText(12'000)));
    CHECK(text.contains(QStringLiteral("in 10 iterations")));
    CHECK(text.contains(QStringLiteral("GPU 0 / stream 7")));
    CHECK_FALSE(text.contains(QStringLiteral("more than its extra wait")));
    // A gain above the extra wait (sync: 25 us over its 20 us) says where the rest comes from.
    r.whatIf.resources[0].gainNs = 25'000;
    const QString above = whatIfSummaryText(r);
    CHECK(above.contains(QStringLiteral("sync: ") + durationText(25'000)));
    CHECK(above.contains(QStringLiteral("5 us more than its extra wait")));
    CHECK(above.contains(QStringLiteral("knock-on along the dependency graph")));
}
