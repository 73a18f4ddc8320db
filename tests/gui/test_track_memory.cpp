// Tracks remembered per trace: TrackMemory keeps each trace's arrangement (pinned, hidden, moved,
// filtered tracks and counters) under the trace's absolute path, the last 20 traces; the app
// applies it when the trace is opened again, and View > Tracks > Show All Tracks forgets it.
#include <catch2/catch.hpp>

#include <QAction>
#include <QFileInfo>

#include "app/gui/analysis_session.h"
#include "app/gui/track_memory.h"
#include "gui_support.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::FreshSettings;
using contend::test::TinyTrace;

namespace {

// Two streams, a host thread and two counters.
TracePtr smallTrace() {
    TinyTrace b;
    const auto s1 = b.stream(1), s2 = b.stream(2), h = b.thread(5);
    b.op(s1, "gemm", 0, 100);
    b.op(s2, "copy", 50, 100);
    b.op(h, "step", 0, 200, false);
    b.counter("DRAM", "bw", 0, 1.0);
    b.counter("SM", "active", 0, 2.0);
    return b.finish();
}

}  // namespace

TEST_CASE("a trace's tracks are remembered under its path, the last 20 traces", "[tracks][memory]") {
    FreshSettings fresh;
    const TracePtr trace = smallTrace();
    const QString path = QStringLiteral("/data/run.json");
    CHECK_FALSE(TrackMemory::recall(path, *trace));
    TrackArrangement a(*trace);
    a.setPinned(trace->trackOrder()[1], true);
    a.setHidden(trace->trackOrder()[2], true);
    a.move(*trace, trace->trackOrder()[1], -1);
    a.setCounterPinned(1, true);
    a.setCounterHidden(0, true);
    a.setFilter({"stream", false});
    TrackMemory::remember(path, *trace, a);
    const auto back = TrackMemory::recall(path, *trace);
    REQUIRE(back);
    CHECK(*back == a);
    // The same trace read again (a new Trace, the same tracks) gets it too.
    const TracePtr again = smallTrace();
    const auto onAgain = TrackMemory::recall(path, *again);
    REQUIRE(onAgain);
    CHECK(*onAgain == a);
    CHECK_FALSE(TrackMemory::recall(QStringLiteral("/data/other.json"), *trace));
    // Back in the trace's own arrangement: forgotten.
    TrackMemory::remember(path, *trace, TrackArrangement(*trace));
    CHECK_FALSE(TrackMemory::recall(path, *trace));
    CHECK(TrackMemory::paths().isEmpty());
    // Bounded: the newest kKeep traces, newest first.
    for (int i = 0; i < TrackMemory::kKeep + 5; ++i)
        TrackMemory::remember(QStringLiteral("/data/t%1.json").arg(i), *trace, a);
    const QStringList paths = TrackMemory::paths();
    CHECK(paths.size() == TrackMemory::kKeep);
    CHECK(paths.front() == QStringLiteral("/data/t%1.json").arg(TrackMemory::kKeep + 4));
    CHECK_FALSE(TrackMemory::recall(QStringLiteral("/data/t0.json"), *trace));
    CHECK(TrackMemory::recall(QStringLiteral("/data/t5.json"), *trace));
    // Remembering one again makes it the newest.
    TrackMemory::remember(QStringLiteral("/data/t5.json"), *trace, a);
    CHECK(TrackMemory::paths().front() == QStringLiteral("/data/t5.json"));
    CHECK(TrackMemory::paths().size() == TrackMemory::kKeep);
}

TEST_CASE("a trace opened again gets its tracks back, and Show All Tracks forgets them", "[app][tracks][memory]") {
    REQUIRE(contend::test::haveSample());
    FreshSettings fresh;  // one for the three windows: what the first remembers, the second reads
    auto openSample = [](MainWindow& w) {
        w.resize(1400, 900);
        w.show();
        REQUIRE(contend::test::openSample(w));
    };
    TrackArrangement arranged;
    {
        MainWindow w;
        openSample(w);
        TimelineView* tl = w.timeline();
        const Trace& trace = *w.session()->current()->trace;
        const std::vector<std::uint32_t> streams = contend::test::shownDeviceStreams(w);
        REQUIRE(streams.size() >= 3);
        REQUIRE(trace.counters().size() >= 2);
        tl->setTrackPinned(streams[2], true);
        tl->setTrackHidden(streams[1], true);
        tl->setCounterPinned(1, true);
        tl->setCounterHidden(0, true);
        arranged = tl->trackArrangement();
        CHECK(TrackMemory::paths() == QStringList{QFileInfo(contend::test::samplePath()).absoluteFilePath()});
    }
    {
        MainWindow w;
        openSample(w);
        CHECK(w.timeline()->trackArrangement() == arranged);
        CHECK(w.timeline()->layout().pinnedHeight() > 0);
        auto* all = w.findChild<QAction*>(QStringLiteral("actionShowAllTracks"));
        REQUIRE(all);
        REQUIRE(all->isEnabled());
        all->trigger();
        CHECK(w.timeline()->trackArrangement() == TrackArrangement(*w.session()->current()->trace));
        CHECK(TrackMemory::paths().isEmpty());
        CHECK_FALSE(all->isEnabled());
    }
    MainWindow w;
    openSample(w);
    CHECK(w.timeline()->trackArrangement() == TrackArrangement(*w.session()->current()->trace));
}
