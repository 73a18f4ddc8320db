// Sessions: the file format round-trips and refuses damaged or foreign files with the file and
// the place; a session saved in one window and opened in a fresh one restores the trace, the
// thresholds, the layout, the selection, the tracks and the range; a damaged session, a missing
// trace or a trace that fails to open is an error and the trace already open stays.
#include <catch2/catch.hpp>

#include <QAction>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "app/gui/message_bar.h"
#include "app/gui/session_file.h"
#include "app/gui/settings_panel.h"
#include "gui_support.h"
#include "widgets/common/view_state.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using namespace contend::widgets;
using contend::test::FreshSettings;
using contend::test::pump;
using contend::test::waitFor;

namespace {

SessionState sampleState() {
    SessionState s;
    s.tracePath = "/data/run.json.gz";
    s.traceRelative = "run.json.gz";
    s.thresholds = {4.5, 0.6};
    s.windowState = "AAAA/w==";
    s.hasRange = true;
    s.rangeStart = 1683564902136198000;
    s.rangeEnd = 1683564902236198000;
    s.selection = SessionSelection{{"0", "7"}, 1683564902136199000, "gemm \"big\""};
    s.order = {{"0", "7"}, {"0", "8"}, {"python3", "1"}};
    s.pinned = {{"0", "8"}};
    s.hidden = {{"python3", "1"}};
    s.filter = {"stream", true};
    s.pinnedCounters = {"GPU 0 / dram \"read\" bytes/s"};
    s.hiddenCounters = {"HBM 0/Read Read(MB/s)", "L2"};
    return s;
}

void write(const QString& path, const std::string& bytes) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), static_cast<qint64>(bytes.size()));
}

}  // namespace

TEST_CASE("a session file round-trips every field", "[session]") {
    const SessionState s = sampleState();
    const std::string json = sessionToJson(s);
    CHECK(json.find("\"version\": 1") != std::string::npos);
    const Result<SessionState> back = sessionFromJson(json, "s.contend-session");
    REQUIRE(back.ok());
    CHECK(back->tracePath == s.tracePath);
    CHECK(back->traceRelative == s.traceRelative);
    CHECK(back->thresholds == s.thresholds);
    CHECK(back->windowState == s.windowState);
    CHECK(back->hasRange);
    CHECK(back->rangeStart == s.rangeStart);
    CHECK(back->rangeEnd == s.rangeEnd);
    REQUIRE(back->selection);
    CHECK(back->selection->track == s.selection->track);
    CHECK(back->selection->start == s.selection->start);
    CHECK(back->selection->name == s.selection->name);
    CHECK(back->order == s.order);
    CHECK(back->pinned == s.pinned);
    CHECK(back->hidden == s.hidden);
    CHECK(back->filter == s.filter);
    CHECK(back->pinnedCounters == s.pinnedCounters);
    CHECK(back->hiddenCounters == s.hiddenCounters);
    // The optional parts may be left out.
    const Result<SessionState> minimal = sessionFromJson(
        R"({"format": "contend-session", "version": 1, "trace": "/t.json",
            "thresholds": {"coefficient": 3, "overlap": 0.7}})",
        "m.contend-session");
    REQUIRE(minimal.ok());
    CHECK_FALSE(minimal->hasRange);
    CHECK_FALSE(minimal->selection);
    CHECK(minimal->order.empty());
    CHECK(minimal->pinnedCounters.empty());
}

TEST_CASE("a damaged or foreign session file is refused with the file and the place", "[session]") {
    const std::string good = sessionToJson(sampleState());
    struct Row {
        const char* what;
        std::string bytes;
        const char* says;
    };
    const Row rows[] = {
        {"cut short", good.substr(0, good.size() / 2), "s.contend-session: byte "},
        {"a syntax error on line 3", "{\"format\": \"contend-session\",\n\"version\": 1,\n\"trace\": ]",
         "(line 3, column 10)"},
        {"not a session", R"({"traceEvents": []})", "not a Contend session"},
        {"a newer format", R"({"format": "contend-session", "version": 9, "trace": "/t.json"})",
         "\"version\": written by a newer Contend (format 9"},
        {"no trace", R"({"format": "contend-session", "version": 1, "thresholds": {"coefficient": 3, "overlap": 0.7}})",
         "\"trace\": missing"},
        {"a threshold of the wrong type",
         R"({"format": "contend-session", "version": 1, "trace": "/t", "thresholds": {"coefficient": "3", "overlap": 0.7}})",
         "\"thresholds.coefficient\": expected a number"},
        {"a threshold out of range",
         R"({"format": "contend-session", "version": 1, "trace": "/t", "thresholds": {"coefficient": 99, "overlap": 0.7}})",
         "\"thresholds.coefficient\": the coefficient needs a number from 0.1 to 50"},
        {"a range backwards",
         R"({"format": "contend-session", "version": 1, "trace": "/t", "thresholds": {"coefficient": 3, "overlap": 0.7},
             "range": {"start": 10, "end": 5}})",
         "\"range\": the end is not after the start"},
        {"a track without a tid",
         R"({"format": "contend-session", "version": 1, "trace": "/t", "thresholds": {"coefficient": 3, "overlap": 0.7},
             "tracks": {"pinned": [{"pid": "0"}]}})",
         "\"tracks.pinned[0].tid\": missing"},
        {"a counter that is not a name",
         R"({"format": "contend-session", "version": 1, "trace": "/t", "thresholds": {"coefficient": 3, "overlap": 0.7},
             "tracks": {"hiddenCounters": ["L2", 7]}})",
         "\"tracks.hiddenCounters[1]\": expected a string"},
        {"counters not a list",
         R"({"format": "contend-session", "version": 1, "trace": "/t", "thresholds": {"coefficient": 3, "overlap": 0.7},
             "tracks": {"pinnedCounters": "L2"}})",
         "\"tracks.pinnedCounters\": expected a list of names"},
    };
    for (const Row& row : rows) {
        INFO(row.what);
        const Result<SessionState> r = sessionFromJson(row.bytes, "s.contend-session");
        REQUIRE_FALSE(r.ok());
        const std::string message = r.failure().message();
        INFO(message);
        CHECK(message.find("s.contend-session") == 0);
        CHECK(message.find(row.says) != std::string::npos);
    }
    QTemporaryDir dir;
    const Result<SessionState> missing = readSessionFile(dir.filePath(QStringLiteral("gone.contend-session")));
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.failure().message().find("gone.contend-session: no such file") != std::string::npos);
}

TEST_CASE("a session saved and opened in a fresh window restores everything", "[app][session]") {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("work.contend-session"));
    TrackArrangement arrangement;
    qint64 t0 = 0, t1 = 0;
    quint32 selected = kNone;
    {
        contend::test::SampleWindow sample(QSize(1400, 900));
        MainWindow& w = sample.window;
        w.settingsPanel()->coefficientSpin()->setValue(4.5);
        w.settingsPanel()->overlapSpin()->setValue(0.6);
        REQUIRE(waitFor([&] { return w.session()->reportCurrent(); }));
        w.dock(QStringLiteral("dock.heatmap"))->hide();
        // A flagged operator selected (revealing it may show its track: before the tracks).
        REQUIRE(w.session()->report());
        REQUIRE(w.session()->report()->anomalies.size() > 0);
        selected = w.session()->report()->anomalies.slice(0);
        w.selectSlice(selected, true);
        // Tracks: the device streams only, one pinned, one hidden, one moved.
        TimelineView* tl = w.timeline();
        const Trace& trace = *w.session()->current()->trace;
        const std::vector<std::uint32_t> streams = contend::test::shownDeviceStreams(w);
        REQUIRE(streams.size() >= 3);
        tl->setTrackPinned(streams[2], true);
        tl->setTrackHidden(streams[1], true);
        tl->moveTrack(streams.back(), -1);
        tl->setTrackFilter({"", true});
        // Counter tracks: one pinned, one hidden.
        REQUIRE(trace.counters().size() >= 2);
        tl->setCounterPinned(1, true);
        tl->setCounterHidden(0, true);
        arrangement = tl->trackArrangement();
        CHECK(arrangement.isCounterPinned(1));
        CHECK(arrangement.isCounterHidden(0));
        CHECK(arrangement.isPinned(streams[2]));
        CHECK(arrangement.isHidden(streams[1]));
        // A range of its own.
        tl->zoomTo(trace.begin() + trace.span() / 4, trace.begin() + trace.span() / 2, 0.0);
        t0 = w.zoomControl()->start();
        t1 = w.zoomControl()->end();
        REQUIRE_FALSE(w.saveSession(path));
    }
    REQUIRE(QFile::exists(path));
    FreshSettings fresh;
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    REQUIRE(w.openSession(path));
    REQUIRE(waitFor([&] { return w.session()->current() && w.timeline()->trackArrangement() == arrangement; }));
    pump(50);
    CHECK(QFileInfo(w.session()->current()->path) == QFileInfo(contend::test::samplePath()));
    CHECK(w.settingsPanel()->coefficient() == Approx(4.5));
    CHECK(w.settingsPanel()->overlap() == Approx(0.6));
    CHECK(w.session()->thresholds() == Thresholds{4.5, 0.6});
    CHECK(w.dock(QStringLiteral("dock.heatmap"))->isHidden());
    CHECK(w.selectionControl()->selected() == selected);
    CHECK(w.timeline()->selectedSlice() == selected);
    CHECK(w.zoomControl()->start() == t0);
    CHECK(w.zoomControl()->end() == t1);
    CHECK(w.timeline()->axis().t0 == t0);
    CHECK(w.timeline()->trackArrangement().filter().deviceOnly);
    CHECK(w.timeline()->layout().pinnedHeight() > 0);
    CHECK_FALSE(w.messageBar()->text().contains(QStringLiteral("session")));  // nothing left out
}

TEST_CASE("a damaged session, a missing trace or a failing one is an error and the trace stays", "[app][session]") {
    contend::test::SampleWindow sample;
    MainWindow& w = sample.window;
    const TracePtr before = w.session()->current()->trace;
    const Thresholds thresholds = w.settingsPanel()->thresholds();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.contend-session"));
    SECTION("damaged: the file and the place") {
        write(path, "{\"format\": \"contend-session\",\n\"version\": 1,\n\"trace\": ");
        CHECK_FALSE(w.openSession(path));
        const QString text = w.messageBar()->text();
        CHECK(text.contains(QStringLiteral("Could not open the session bad.contend-session")));
        CHECK(text.contains(QStringLiteral("line 3")));
        CHECK(text.contains(QStringLiteral("Still showing projectx-before.json.gz")));
    }
    SECTION("its trace is gone: the trace named") {
        SessionState s;
        s.tracePath = dir.filePath(QStringLiteral("gone.json")).toStdString();
        s.thresholds = {5, 0.5};
        write(path, sessionToJson(s));
        CHECK_FALSE(w.openSession(path));
        CHECK(w.messageBar()->text().contains(QStringLiteral("gone.json")));
        CHECK(w.messageBar()->text().contains(QStringLiteral("does not exist")));
    }
    SECTION("its trace fails to open: the thresholds go back") {
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        write(broken, "{\"traceEvents\": [ {\"ph\": ");
        SessionState s;
        s.tracePath = broken.toStdString();
        s.thresholds = {5, 0.5};
        write(path, sessionToJson(s));
        bool failed = false;
        QObject::connect(w.session(), &AnalysisSession::failed, [&] { failed = true; });
        REQUIRE(w.openSession(path));
        REQUIRE(waitFor([&] { return failed; }));
        pump(50);
        CHECK(w.messageBar()->text().contains(QStringLiteral("Could not open the session bad.contend-session")));
        CHECK(w.messageBar()->text().contains(QStringLiteral("broken.json")));
        CHECK(w.settingsPanel()->thresholds() == thresholds);
    }
    CHECK(w.messageBar()->kind() == MessageBar::Kind::Error);
    CHECK(w.session()->current()->trace == before);
    CHECK(w.timeline()->data()->trace == before);
    CHECK(w.settingsPanel()->thresholds() == thresholds);
}

TEST_CASE("File offers Save Session once a trace is open, and Open Session", "[app][session][menus]") {
    FreshSettings fresh;
    MainWindow w;
    auto* save = w.findChild<QAction*>(QStringLiteral("actionSaveSession"));
    auto* open = w.findChild<QAction*>(QStringLiteral("actionOpenSession"));
    REQUIRE(save);
    REQUIRE(open);
    CHECK_FALSE(save->isEnabled());
    CHECK(open->isEnabled());
    QTemporaryDir dir;
    REQUIRE(w.saveSession(dir.filePath(QStringLiteral("x.contend-session"))));  // a Failure: nothing open
    REQUIRE(contend::test::openSample(w));
    CHECK(save->isEnabled());
}
