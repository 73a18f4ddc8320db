// Progressive opening (issue 27, item 5): the trace's timeline as soon as it is read and indexed,
// usable while the analysis runs; the findings fill in when it ends without moving what the user
// did on the preview; Cancel after the preview keeps the trace without findings, before it keeps
// the previous trace.
#include <catch2/catch.hpp>

#include <QFileInfo>
#include <QPushButton>
#include <qcustomplot.h>

#include "app/gui/analysing_strip.h"
#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/message_bar.h"
#include "gui_support.h"
#include "widgets/common/view_state.h"
#include "widgets/details/operator_details.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/column_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using contend::test::pump;
using contend::test::waitFor;

namespace {

QString afterPath() {
    return QString::fromStdString(contend::test::sourceDir()) +
           QStringLiteral("/resources/samples/projectx-after.json.gz");
}

// What the window showed when the preview came, read inside the signal (before the analysis can
// land).
struct AtPreview {
    bool seen = false;
    TracePtr trace;
    bool timelineHasIt = false;
    bool centreIsTimeline = false;
    bool stripShown = false;
    bool noReport = false;
    bool heatmapAxes = true;
    QString title;
};

}  // namespace

TEST_CASE("the timeline comes before the analysis, and the analysis keeps what was done on it", "[app][progressive]") {
    REQUIRE(contend::test::haveSample());
    contend::test::FreshSettings fresh;
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    AtPreview at;
    qint64 t0 = 0, t1 = 0;
    quint32 picked = kNone;
    bool openedAfterPreview = false;
    QObject::connect(w.session(), &AnalysisSession::previewed, &w, [&](OpenedTracePtr preview) {
        at.seen = true;
        at.trace = preview->trace;
        // The binder runs first (connected when the window was made): the views have it.
        at.timelineHasIt = w.timeline()->data() && w.timeline()->data()->trace == preview->trace;
        at.centreIsTimeline = !w.showsLoading() && !w.showsWelcome();
        at.stripShown = w.analysingStrip()->isVisible();
        at.noReport = w.session()->report() == nullptr && w.session()->previewing();
        at.title = w.windowTitle();
        w.heatmap()->refreshNow();
        at.heatmapAxes = w.heatmap()->plot()->xAxis->visible();
        // The user zooms, pins a stream and picks an operator while the analysis runs.
        const Trace& trace = *preview->trace;
        w.timeline()->zoomTo(trace.begin() + trace.span() / 3, trace.begin() + trace.span() / 2, 0.0);
        t0 = w.zoomControl()->start();
        t1 = w.zoomControl()->end();
        const std::vector<std::uint32_t> streams = contend::test::shownDeviceStreams(w);
        REQUIRE(streams.size() >= 2);
        w.timeline()->setTrackPinned(streams[1], true);
        const Track& track = trace.tracks()[streams[1]];
        REQUIRE(track.sliceEnd > track.sliceBegin);
        picked = track.sliceBegin;
        w.selectionControl()->select(picked);
    });
    QObject::connect(w.session(), &AnalysisSession::opened, &w, [&] { openedAfterPreview = at.seen; });
    REQUIRE(contend::test::openSample(w));
    REQUIRE(at.seen);
    CHECK(openedAfterPreview);
    CHECK(at.timelineHasIt);
    CHECK(at.centreIsTimeline);
    CHECK(at.stripShown);
    CHECK(at.noReport);
    CHECK(at.title.contains(QStringLiteral("analysing")));
    CHECK_FALSE(at.heatmapAxes);  // an empty pane, not placeholder axes
    // The analysis is in: the same trace (read once), its findings, and the user's view intact.
    pump(50);
    REQUIRE(w.session()->report());
    CHECK_FALSE(w.session()->previewing());
    CHECK(w.session()->current()->trace == at.trace);
    CHECK(w.timeline()->data()->trace == at.trace);
    CHECK(w.zoomControl()->start() == t0);
    CHECK(w.zoomControl()->end() == t1);
    CHECK(w.timeline()->axis().t0 == t0);
    CHECK(w.timeline()->trackArrangement().pinned().size() == 1);
    CHECK(w.selectionControl()->selected() == picked);
    CHECK(w.details()->slice() == picked);  // Details shows it, with the analysis now
    // The heatmap outlines the windows of the analysis, over the range the user zoomed to.
    w.heatmap()->refreshNow();
    CHECK(w.heatmap()->viewRange() == std::pair<qint64, qint64>{t0, t1});
    CHECK(w.heatmap()->plot()->xAxis->visible());
    CHECK_FALSE(w.analysingStrip()->isVisible());
    CHECK_FALSE(w.windowTitle().contains(QStringLiteral("analysing")));
    CHECK(w.anomalyPanel()->model()->rowCount() > 0);
}

TEST_CASE("Cancel after the preview keeps the trace without findings, before it the previous trace",
          "[app][progressive][cancel]") {
    contend::test::SampleWindow sample;
    MainWindow& w = sample.window;
    const TracePtr before = w.session()->current()->trace;
    bool cancelledSignal = false;
    QObject::connect(w.session(), &AnalysisSession::cancelled, &w, [&] { cancelledSignal = true; });

    SECTION("after the preview: the new trace stays, its analysis error says why") {
        TracePtr previewed;
        QObject::connect(w.session(), &AnalysisSession::previewed, &w, [&](OpenedTracePtr p) {
            previewed = p->trace;
            // As the user would: the strip's Cancel.
            w.analysingStrip()->cancelButton()->click();
        });
        w.openPath(afterPath());
        REQUIRE(waitFor([&] { return previewed && !w.session()->busy(); }));
        pump(500);  // the abandoned analysis must not land
        CHECK_FALSE(cancelledSignal);
        CHECK(w.session()->current()->trace == previewed);
        CHECK(w.session()->current()->trace != before);
        CHECK_FALSE(w.session()->previewing());
        CHECK(w.session()->report() == nullptr);
        CHECK(w.session()->current()->analysisError.contains(QStringLiteral("cancelled")));
        CHECK(w.timeline()->data()->trace == previewed);
        CHECK(w.messageBar()->text().contains(QStringLiteral("cancelled")));
        CHECK_FALSE(w.analysingStrip()->isVisible());
        CHECK_FALSE(w.showsLoading());
        CHECK(w.anomalyPanel()->model()->rowCount() == 0);
        // A threshold change finds no analysis to redo and breaks nothing.
        w.session()->setThresholds({2.0, 0.5});
        pump(100);
        CHECK(w.session()->report() == nullptr);
    }
    SECTION("before the preview: the previous trace stays") {
        w.openPath(afterPath());
        REQUIRE(w.session()->busy());
        w.session()->cancel();
        CHECK(cancelledSignal);
        pump(500);
        CHECK(w.session()->current()->trace == before);
        CHECK(w.timeline()->data()->trace == before);
        REQUIRE(w.session()->report());
    }
    SECTION("another trace opened during the analysis: the preview stays until the new one is in") {
        TracePtr previewed;
        QString second;
        QObject::connect(w.session(), &AnalysisSession::previewed, &w, [&](OpenedTracePtr p) {
            if (!previewed) {
                previewed = p->trace;
                w.openPath(contend::test::samplePath());
            }
        });
        bool secondOpened = false;
        QObject::connect(w.session(), &AnalysisSession::opened, &w, [&](OpenedTracePtr t) {
            if (t->trace != previewed && t->report) secondOpened = true;
        });
        w.openPath(afterPath());
        REQUIRE(waitFor([&] { return secondOpened && !w.session()->busy(); }));
        pump(200);
        CHECK(QFileInfo(w.session()->current()->path) == QFileInfo(contend::test::samplePath()));
        REQUIRE(w.session()->report());
        CHECK(w.timeline()->data()->trace == w.session()->current()->trace);
    }
}

TEST_CASE("thresholds moved while the analysis runs are applied once it is in", "[app][progressive]") {
    REQUIRE(contend::test::haveSample());
    contend::test::FreshSettings fresh;
    MainWindow w;
    w.show();
    QObject::connect(w.session(), &AnalysisSession::previewed, &w, [&] { w.session()->setThresholds({5.5, 0.6}); });
    REQUIRE(contend::test::openSample(w));
    REQUIRE(waitFor([&] { return w.session()->reportCurrent(); }));
    CHECK(w.session()->report()->settings.thresholds() == Thresholds{5.5, 0.6});
}

namespace {
std::size_t queueRowCount(const widgets::TrackLayout& l) {
    std::size_t n = 0;
    for (const widgets::LayoutRow& r : l.rows()) n += r.kind == widgets::RowKind::Queue;
    return n;
}
}  // namespace

TEST_CASE("the queue tracks come after the first timeline, with the analysis, and the view stays put",
          "[app][progressive]") {
    REQUIRE(contend::test::haveSample());
    contend::test::FreshSettings fresh;
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    bool previewSeen = false, previewHadQueues = true;
    std::size_t rowsAtPreview = 99;
    qint64 t0 = 0, t1 = 0;
    QObject::connect(w.session(), &AnalysisSession::previewed, &w, [&](OpenedTracePtr preview) {
        previewSeen = true;
        previewHadQueues = preview->queues != nullptr;  // HTA's scope is not computed before the first timeline
        rowsAtPreview = queueRowCount(w.timeline()->layout());
        const Trace& trace = *preview->trace;
        w.timeline()->zoomTo(trace.begin() + trace.span() / 4, trace.begin() + trace.span() / 2, 0.0);
        t0 = w.zoomControl()->start();
        t1 = w.zoomControl()->end();
    });
    REQUIRE(contend::test::openSample(w));
    pump(50);
    REQUIRE(previewSeen);
    CHECK_FALSE(previewHadQueues);
    CHECK(rowsAtPreview == 0);
    REQUIRE(w.session()->report());
    const OpenedTrace* done = w.session()->current();
    REQUIRE(done->queues);
    CHECK_FALSE(done->queues->tracks.empty());
    // The analysis' own series: the same objects the prepared analysis keeps, no second scope.
    REQUIRE(done->prepared);
    CHECK(done->queues->all == done->prepared->queueSeries());
    CHECK(queueRowCount(w.timeline()->layout()) == done->queues->tracks.size());
    CHECK(w.zoomControl()->start() == t0);
    CHECK(w.zoomControl()->end() == t1);
}
