// Tracks under the user's control: TrackArrangement (pin, hide, move, filter), the layout it
// gives (pinned rows first and unscrolled, hidden ones left out, the count of those not shown),
// the draw list under a scroll with pinned rows, the timeline's track menu and hidden-tracks
// hint, the filter bar and View > Tracks, counters pinned and hidden like tracks, and the
// critical path's key on the ruler.
#include <catch2/catch.hpp>
#include <memory>

#include <QAction>
#include <QCheckBox>
#include <QContextMenuEvent>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QTest>
#include <QToolButton>

#include "app/gui/track_filter_bar.h"
#include "gui_support.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/timeline_painter.h"
#include "widgets/timeline/timeline_view.h"
#include "widgets/timeline/track_arrangement.h"
#include "widgets/timeline/track_layout.h"

using namespace contend;
using namespace contend::widgets;
using contend::test::pump;
using contend::test::TinyTrace;

namespace {

// Three device streams (7, 8, 9) and two host threads of python3 (1, 2); with `counters`, two
// counter series too (0: "DRAM", 1: "SM").
struct Tracks {
    TracePtr trace;
    std::uint32_t s7, s8, s9, h1, h2;
    explicit Tracks(bool counters = false) {
        TinyTrace b;
        const auto a = b.stream(7), c = b.stream(8), d = b.stream(9);
        for (int i = 0; i < 20; ++i) {
            b.op(a, "gemm", i * 1000LL, 800);
            b.op(c, "copy", i * 1000LL + 100, 500);
            b.op(d, "allreduce", i * 1000LL + 200, 700);
        }
        const auto t1 = b.thread(1), t2 = b.thread(2);
        b.op(t1, "step", 0, 20000, false);
        b.op(t2, "dataloader", 0, 15000, false);
        for (int i = 0; counters && i < 20; ++i) {
            b.counter("DRAM", "bw", i * 1000LL, 10.0 * i);
            b.counter("SM", "active", i * 1000LL, 100.0 - i);
        }
        trace = b.finish();
        s7 = find("0", "7"), s8 = find("0", "8"), s9 = find("0", "9"), h1 = find("100", "1"), h2 = find("100", "2");
    }
    std::uint32_t find(const std::string& pid, const std::string& tid) const {
        for (std::uint32_t t = 0; t < trace->tracks().size(); ++t)
            if (trace->tracks()[t].pid == pid && trace->tracks()[t].tid == tid) return t;
        FAIL("no track " << pid << "/" << tid);
        return kNone;
    }
};

// The tracks of the layout's lane rows, top to bottom, once each.
std::vector<std::uint32_t> shownOrder(const TrackLayout& l) {
    std::vector<std::uint32_t> out;
    for (const LayoutRow& r : l.rows())
        if (r.kind == RowKind::Lane && r.firstOfTrack) out.push_back(r.track);
    return out;
}

TrackLayout layoutOf(const Trace& trace, const TimelineIndex& index, const TrackArrangement& a) {
    LayoutOptions o;
    o.arrangement = a;
    return TrackLayout(trace, index, o);
}

// The tracks in a timeline view shown at 1000x400, laid out and painted once.
struct ShownTimeline {
    Tracks t;
    TimelineView view;
    explicit ShownTimeline(bool counters = false) : t(counters) {
        view.resize(1000, 400);
        view.setData(makeTimelineData(t.trace));
        view.show();
        pump(20);
    }
};

// Triggers the action `name` of `menu` (it must be there and enabled); the view repaints.
void trigger(QMenu* menu, TimelineView& view, const char* name) {
    std::unique_ptr<QMenu> owned(menu);
    auto* action = owned->findChild<QAction*>(QString::fromLatin1(name));
    REQUIRE(action);
    REQUIRE(action->isEnabled());
    action->trigger();
    view.repaint();
}

// The widget position of the middle of a layout row's name in the gutter.
QPoint gutterPoint(const TimelineView& view, int row) {
    const LayoutRow& r = view.layout().rows()[static_cast<std::size_t>(row)];
    return {20, view.timeArea().top() + static_cast<int>(view.layout().viewY(r.y, 0)) + r.h / 2};
}

}  // namespace

TEST_CASE("a new arrangement is the trace's order with nothing pinned, hidden or filtered", "[tracks]") {
    Tracks t;
    const TimelineIndex index(*t.trace);
    const TrackArrangement a(*t.trace);
    CHECK(a.order() == t.trace->trackOrder());
    const TrackLayout l = layoutOf(*t.trace, index, a);
    CHECK(shownOrder(l) == std::vector<std::uint32_t>{t.s7, t.s8, t.s9, t.h1, t.h2});
    CHECK(l.pinnedHeight() == 0);
    CHECK(l.notShownTracks() == 0);
    CHECK(l.shownTracks() == 5);
    // Same as the layout without an arrangement.
    CHECK(shownOrder(TrackLayout(*t.trace, index, LayoutOptions())) == shownOrder(l));
}

TEST_CASE("pinning puts a track at the top under its own header, unpinning puts it back", "[tracks]") {
    Tracks t;
    const TimelineIndex index(*t.trace);
    TrackArrangement a(*t.trace);
    CHECK(a.setPinned(t.h2, true));
    CHECK_FALSE(a.setPinned(t.h2, true));  // already
    CHECK(a.setPinned(t.s9, true));
    const TrackLayout l = layoutOf(*t.trace, index, a);
    // Pinned first, in the arrangement's order (streams before threads), then the rest.
    CHECK(shownOrder(l) == std::vector<std::uint32_t>{t.s9, t.h2, t.s7, t.s8, t.h1});
    REQUIRE(l.rows().front().kind == RowKind::Header);
    CHECK(l.rows().front().group == TrackGroup::Pinned);
    CHECK(l.rows().front().groupCount == 2);
    CHECK(groupTitle(TrackGroup::Pinned) == "Pinned");
    CHECK(l.rows()[static_cast<std::size_t>(l.rowOf(t.s9, 0))].pinned);
    CHECK_FALSE(l.rows()[static_cast<std::size_t>(l.rowOf(t.s7, 0))].pinned);
    // The pinned section ends where the first unpinned header starts.
    CHECK(l.pinnedHeight() == l.trackSpan(t.h2).second + LayoutOptions().trackGap);
    CHECK(l.trackSpan(t.s7).first > l.pinnedHeight());
    // Pinned rows do not scroll; the others do.
    CHECK(l.viewY(l.trackSpan(t.s9).first, 100) == l.trackSpan(t.s9).first);
    CHECK(l.viewY(l.trackSpan(t.s7).first, 10) == l.trackSpan(t.s7).first - 10);
    // A view y in the pinned section hits the pinned row whatever the scroll.
    CHECK(l.rowAtView(l.trackSpan(t.s9).first + 2, 500) == l.rowOf(t.s9, 0));
    CHECK(a.setPinned(t.s9, false));
    CHECK(a.setPinned(t.h2, false));
    CHECK(shownOrder(layoutOf(*t.trace, index, a)) == std::vector<std::uint32_t>{t.s7, t.s8, t.s9, t.h1, t.h2});
    CHECK(layoutOf(*t.trace, index, a).pinnedHeight() == 0);
}

TEST_CASE("hiding leaves a track out and counts it, Show All brings every track back", "[tracks]") {
    Tracks t;
    const TimelineIndex index(*t.trace);
    TrackArrangement a(*t.trace);
    a.setHidden(t.s8, true);
    a.setHidden(t.h1, true);
    TrackLayout l = layoutOf(*t.trace, index, a);
    CHECK(shownOrder(l) == std::vector<std::uint32_t>{t.s7, t.s9, t.h2});
    CHECK(l.notShownTracks() == 2);
    CHECK(l.rowOf(t.s8, 0) == -1);
    CHECK(l.trackSpan(t.s8).first == -1);
    // The group headers count the tracks shown.
    CHECK(l.rows().front().groupCount == 2);
    // A group with every track hidden has no header.
    a.setHidden(t.h2, true);
    l = layoutOf(*t.trace, index, a);
    for (const LayoutRow& r : l.rows()) CHECK(r.group != TrackGroup::Host);
    CHECK(a.showAll());
    CHECK_FALSE(a.showAll());
    CHECK(layoutOf(*t.trace, index, a).notShownTracks() == 0);
}

TEST_CASE("Move Up and Move Down swap with the next shown track of the same section", "[tracks]") {
    Tracks t;
    const TimelineIndex index(*t.trace);
    TrackArrangement a(*t.trace);
    CHECK_FALSE(a.canMove(*t.trace, t.s7, -1));  // first of its group
    CHECK(a.move(*t.trace, t.s7, +1));
    CHECK(shownOrder(layoutOf(*t.trace, index, a)) == std::vector<std::uint32_t>{t.s8, t.s7, t.s9, t.h1, t.h2});
    // The last stream does not move into the host threads.
    CHECK_FALSE(a.canMove(*t.trace, t.s9, +1));
    CHECK_FALSE(a.move(*t.trace, t.s9, +1));
    CHECK(a.canMove(*t.trace, t.h1, +1));
    CHECK_FALSE(a.canMove(*t.trace, t.h1, -1));
    // Hidden tracks are skipped: s7 goes past the hidden s9... none after it: it cannot move.
    a.setHidden(t.s9, true);
    CHECK_FALSE(a.canMove(*t.trace, t.s7, +1));
    CHECK(a.move(*t.trace, t.s7, -1));
    CHECK(shownOrder(layoutOf(*t.trace, index, a)) == std::vector<std::uint32_t>{t.s7, t.s8, t.h1, t.h2});
    // Pinned tracks move among the pinned ones only.
    a.setHidden(t.s9, false);
    a.setPinned(t.h2, true);
    a.setPinned(t.s8, true);
    CHECK(a.move(*t.trace, t.h2, -1));
    CHECK(shownOrder(layoutOf(*t.trace, index, a)) == std::vector<std::uint32_t>{t.h2, t.s8, t.s7, t.s9, t.h1});
    CHECK_FALSE(a.canMove(*t.trace, t.h2, -1));
    CHECK_FALSE(a.canMove(*t.trace, t.s8, +1));  // the last pinned one
}

TEST_CASE("the filter keeps tracks by name or process, or device streams only", "[tracks]") {
    Tracks t;
    const TimelineIndex index(*t.trace);
    TrackArrangement a(*t.trace);
    CHECK(a.setFilter({"STREAM 8", false}));  // case-insensitive, in the name
    CHECK(shownOrder(layoutOf(*t.trace, index, a)) == std::vector<std::uint32_t>{t.s8});
    CHECK(layoutOf(*t.trace, index, a).notShownTracks() == 4);
    a.setFilter({"python", false});  // the process name
    CHECK(shownOrder(layoutOf(*t.trace, index, a)) == std::vector<std::uint32_t>{t.h1, t.h2});
    a.setFilter({"", true});
    CHECK(shownOrder(layoutOf(*t.trace, index, a)) == std::vector<std::uint32_t>{t.s7, t.s8, t.s9});
    a.setFilter({"9", true});
    CHECK(shownOrder(layoutOf(*t.trace, index, a)) == std::vector<std::uint32_t>{t.s9});
    CHECK_FALSE(a.setFilter({"9", true}));
    CHECK(a.filter().active());
    // setOrder keeps unknown and repeated ids out and the tracks it leaves out after it.
    a.setOrder({t.h2, 999, t.h2, t.s9});
    CHECK(a.order().size() == t.trace->tracks().size());
    CHECK(a.order()[0] == t.h2);
    CHECK(a.order()[1] == t.s9);
}

TEST_CASE("scrolled rows pass under the pinned ones, pinned rows stay put", "[tracks][draw]") {
    Tracks t;
    const TimelineIndex index(*t.trace);
    TrackArrangement a(*t.trace);
    a.setPinned(t.s9, true);
    const TrackLayout l = layoutOf(*t.trace, index, a);
    DrawInput in;
    in.trace = t.trace.get();
    in.index = &index;
    in.layout = &l;
    in.axis = TimeAxis{0, 20000, 1000};
    in.viewHeight = 400;
    const int pinnedRow = l.rowOf(t.s9, 0);
    for (double scroll : {0.0, 7.0, 30.0, 60.0}) {
        in.scrollY = scroll;
        const DrawList list = buildDrawList(in);
        bool pinnedDrawn = false;
        for (const DrawItem& it : list.items) {
            if (static_cast<int>(it.row) == pinnedRow) {
                pinnedDrawn = true;
                CHECK(it.y == static_cast<float>(l.rows()[static_cast<std::size_t>(pinnedRow)].y + 1));
            } else {
                CHECK(it.y >= static_cast<float>(l.pinnedHeight()));  // never over the pinned rows
                CHECK(it.h > 0);
            }
        }
        CHECK(pinnedDrawn);
        CHECK(list.rows.front() == 0);  // the pinned header
    }
    // Scrolled far enough, the first unpinned stream is out of view (under the pinned ones).
    in.scrollY = l.trackSpan(t.s8).first - l.pinnedHeight();
    const DrawList list = buildDrawList(in);
    for (const DrawItem& it : list.items) CHECK(it.slice < t.trace->slices().size());
    for (const DrawItem& it : list.items) CHECK(t.trace->slices()[it.slice].track != t.s7);
}

TEST_CASE("the timeline's track menu pins, hides and moves, and the ruler's hint shows all again", "[tracks][view]") {
    ShownTimeline shown;
    Tracks& t = shown.t;
    TimelineView& view = shown.view;
    int changes = 0;
    QObject::connect(&view, &TimelineView::tracksChanged, [&] { ++changes; });
    auto trackAction = [&](std::uint32_t track, const char* name) { trigger(view.trackMenu(track), view, name); };
    {
        std::unique_ptr<QMenu> menu(view.trackMenu(t.s7));
        CHECK(menu->findChild<QAction*>(QStringLiteral("trackPin"))->text() == QStringLiteral("Pin to Top"));
        CHECK_FALSE(menu->findChild<QAction*>(QStringLiteral("trackUp"))->isEnabled());
        CHECK_FALSE(menu->findChild<QAction*>(QStringLiteral("trackShowAll"))->isEnabled());
    }
    trackAction(t.h2, "trackPin");
    CHECK(view.trackArrangement().isPinned(t.h2));
    CHECK(shownOrder(view.layout()).front() == t.h2);
    {
        std::unique_ptr<QMenu> menu(view.trackMenu(t.h2));
        CHECK(menu->findChild<QAction*>(QStringLiteral("trackPin"))->text() == QStringLiteral("Unpin"));
    }
    trackAction(t.s8, "trackHide");
    trackAction(t.s9, "trackUp");
    CHECK(shownOrder(view.layout()) == std::vector<std::uint32_t>{t.h2, t.s9, t.s7, t.h1});
    CHECK(changes == 3);

    // The track under a gutter position is the one the menu would be for.
    const auto [y0, y1] = view.layout().trackSpan(t.s9);
    CHECK(view.trackAtGutter(QPoint(20, view.timeArea().top() + (y0 + y1) / 2)) == t.s9);
    CHECK(view.trackAtGutter(QPoint(view.timeArea().left() + 20, view.timeArea().top() + (y0 + y1) / 2)) == kNone);

    // A right-click on a track's name opens its menu; elsewhere it does not.
    {
        const QPoint at(20, view.timeArea().top() + (y0 + y1) / 2);
        QContextMenuEvent onName(QContextMenuEvent::Mouse, at, view.mapToGlobal(at));
        QCoreApplication::sendEvent(&view, &onName);
        QMenu* menu = view.findChild<QMenu*>();
        REQUIRE(menu);
        CHECK(menu->isVisible());
        CHECK(menu->findChild<QAction*>(QStringLiteral("trackHide")));
        menu->close();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        CHECK_FALSE(view.findChild<QMenu*>());  // deleted on close
        const QPoint inLanes(view.timeArea().left() + 50, at.y());
        QContextMenuEvent onLanes(QContextMenuEvent::Mouse, inLanes, view.mapToGlobal(inLanes));
        QCoreApplication::sendEvent(&view, &onLanes);
        CHECK_FALSE(view.findChild<QMenu*>());
    }
    // The gutter's tooltip names the track and says what a right-click offers.
    const QString tip = view.gutterTooltip(QPoint(20, view.timeArea().top() + (y0 + y1) / 2));
    CHECK(tip.contains(QStringLiteral("stream 9")));
    CHECK(tip.contains(QStringLiteral("Right-click")));

    // "1 track hidden" in the ruler's corner; a click there shows every track again.
    view.repaint();
    const QRect hint = view.hiddenTracksHint();
    REQUIRE_FALSE(hint.isEmpty());
    CHECK(view.gutterTooltip(hint.center()).contains(QStringLiteral("1 track hidden")));
    CHECK(hint.bottom() < view.timeArea().top());
    CHECK(hint.right() < view.timeArea().left());
    QTest::mouseClick(&view, Qt::LeftButton, {}, hint.center());
    view.repaint();
    CHECK_FALSE(view.trackArrangement().isHidden(t.s8));
    CHECK(view.hiddenTracksHint().isEmpty());
    CHECK(view.trackArrangement().isPinned(t.h2));  // Show All keeps the pins

    // A new trace starts over.
    view.setData(makeTimelineData(t.trace));
    CHECK_FALSE(view.trackArrangement().isPinned(t.h2));
}

TEST_CASE("counters pin to the top and hide like the other tracks, Show All brings them back", "[tracks]") {
    Tracks t(true);
    REQUIRE(t.trace->counters().size() == 2);
    const TimelineIndex index(*t.trace);
    TrackArrangement a(*t.trace);
    CHECK(a.setCounterPinned(1, true));
    CHECK_FALSE(a.setCounterPinned(1, true));  // already
    CHECK(a.setCounterHidden(0, true));
    CHECK_FALSE(a == TrackArrangement(*t.trace));
    const TrackLayout l = layoutOf(*t.trace, index, a);
    // The pinned counter under the pinned header, the hidden one left out and counted.
    REQUIRE(l.rows().front().group == TrackGroup::Pinned);
    CHECK(l.rows().front().groupCount == 1);
    const int pinned = l.rowOfCounter(1);
    REQUIRE(pinned == 1);
    CHECK(l.rows()[1].pinned);
    CHECK(l.rows()[1].kind == RowKind::Counter);
    CHECK(l.pinnedHeight() > l.rows()[1].y);
    CHECK(l.rowOfCounter(0) == -1);
    CHECK(l.notShownTracks() == 1);
    for (const LayoutRow& r : l.rows())  // no counter left for a Counters group
        if (r.kind == RowKind::Header) CHECK(r.group != TrackGroup::Counters);
    // The pinned counter stays put under a scroll; the draw list draws it there, uncut.
    const auto data = makeTimelineData(t.trace);
    DrawInput in;
    in.trace = t.trace.get();
    in.index = &data->index;
    in.counterLods = &data->counters;
    in.layout = &l;
    in.axis = TimeAxis{0, 20000, 1000};
    in.viewHeight = 400;
    in.scrollY = 40;
    const DrawList list = buildDrawList(in);
    REQUIRE(list.counters.size() == 1);
    CHECK(list.counters[0].counter == 1);
    CHECK(list.counters[0].y == static_cast<float>(l.rows()[1].y));
    CHECK(list.counters[0].clipTop == 0.0f);
    // Show All unhides the counter; the pin stays.
    CHECK(a.showAll());
    const TrackLayout back = layoutOf(*t.trace, index, a);
    CHECK(back.rowOfCounter(0) >= 0);
    CHECK(back.notShownTracks() == 0);
    CHECK(back.rows()[static_cast<std::size_t>(back.rowOfCounter(1))].pinned);
    CHECK(a.setCounterPinned(1, false));
    CHECK(a == TrackArrangement(*t.trace));
}

TEST_CASE("a right-click on a counter's name pins or hides it", "[tracks][view]") {
    ShownTimeline shown(true);
    TimelineView& view = shown.view;
    const int row = view.layout().rowOfCounter(0);
    REQUIRE(row >= 0);
    const QPoint at = gutterPoint(view, row);
    CHECK(view.counterAtGutter(at) == 0);
    CHECK(view.trackAtGutter(at) == kNone);
    CHECK(view.gutterTooltip(at).contains(QStringLiteral("DRAM")));
    {
        QContextMenuEvent onName(QContextMenuEvent::Mouse, at, view.mapToGlobal(at));
        QCoreApplication::sendEvent(&view, &onName);
        QMenu* menu = view.findChild<QMenu*>();
        REQUIRE(menu);
        CHECK(menu->findChild<QAction*>(QStringLiteral("trackPin"))->text() == QStringLiteral("Pin to Top"));
        CHECK(menu->findChild<QAction*>(QStringLiteral("trackHide")));
        menu->close();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    trigger(view.counterMenu(0), view, "trackPin");
    CHECK(view.trackArrangement().isCounterPinned(0));
    CHECK(view.layout().rows()[static_cast<std::size_t>(view.layout().rowOfCounter(0))].pinned);
    CHECK(view.counterAtGutter(gutterPoint(view, view.layout().rowOfCounter(0))) == 0);
    trigger(view.counterMenu(1), view, "trackHide");
    CHECK(view.trackArrangement().isCounterHidden(1));
    CHECK(view.layout().rowOfCounter(1) == -1);
    CHECK(view.hiddenTracksHint().isValid());
    trigger(view.counterMenu(0), view, "trackShowAll");
    CHECK(view.layout().rowOfCounter(1) >= 0);
    CHECK(view.trackArrangement().isCounterPinned(0));  // Show All keeps the pins
}

TEST_CASE("revealing an operator on a hidden or filtered-out track shows the track", "[tracks][view]") {
    ShownTimeline shown;
    Tracks& t = shown.t;
    TimelineView& view = shown.view;
    view.setTrackHidden(t.s8, true);
    view.setTrackFilter({"stream", false});
    const std::uint32_t copy = contend::test::findSlice(*t.trace, "copy", 5100);
    const std::uint32_t step = contend::test::findSlice(*t.trace, "step", 0);
    REQUIRE(copy != kNone);
    view.selectSlice(copy, true);
    CHECK(view.layout().rowOf(t.s8, 0) >= 0);
    CHECK(view.trackArrangement().filter().text == "stream");  // it matched: the filter stays
    view.selectSlice(step, true);
    CHECK(view.layout().rowOf(t.h1, 0) >= 0);
    CHECK_FALSE(view.trackArrangement().filter().active());
}

TEST_CASE("the track filter bar filters the timeline and follows it", "[tracks][view]") {
    Tracks t;
    TimelineView view;
    view.resize(1000, 400);
    view.setData(makeTimelineData(t.trace));
    gui::TrackFilterBar bar(&view);
    CHECK(bar.hiddenText().isEmpty());
    CHECK_FALSE(bar.showAllButton()->isEnabled());
    bar.edit()->setText(QStringLiteral("python"));
    CHECK(view.trackArrangement().filter().text == "python");
    CHECK(shownOrder(view.layout()) == std::vector<std::uint32_t>{t.h1, t.h2});
    CHECK(bar.hiddenText() == QStringLiteral("3 tracks hidden"));
    bar.edit()->clear();
    bar.deviceOnlyBox()->setChecked(true);
    CHECK(shownOrder(view.layout()) == std::vector<std::uint32_t>{t.s7, t.s8, t.s9});
    CHECK(bar.showAllButton()->isEnabled());
    bar.showAllButton()->click();
    CHECK_FALSE(bar.deviceOnlyBox()->isChecked());
    CHECK(shownOrder(view.layout()).size() == 5);
    // The view's filter set elsewhere (a session) shows in the bar.
    view.setTrackFilter({"gpu", true});
    CHECK(bar.edit()->text() == QStringLiteral("gpu"));
    CHECK(bar.deviceOnlyBox()->isChecked());
}

TEST_CASE("the ruler's corner counts hidden tracks and the ruler carries the critical path's key", "[tracks][paint]") {
    TimelineFrame f;
    f.gutter = QRect(0, 24, 210, 400);
    f.ruler = QRect(210, 0, 800, 24);
    CHECK(hiddenHintRect(f, QFont()).isEmpty());
    CHECK(criticalLegendRect(f, QFont()).isEmpty());
    f.hiddenTracks = 3;
    f.criticalLegend = true;
    CHECK(hiddenHintText(3) == QStringLiteral("3 tracks hidden"));
    CHECK(hiddenHintText(1) == QStringLiteral("1 track hidden"));
    const QRect hint = hiddenHintRect(f, QFont());
    CHECK(QRect(0, 0, 210, 24).contains(hint));
    const QRect key = criticalLegendRect(f, QFont());
    CHECK(f.ruler.contains(key));
    CHECK(key.right() >= f.ruler.right() - 10);  // at the ruler's right end
}

TEST_CASE("no time label on the ruler runs under the critical path's key", "[tracks][paint]") {
    Tracks t;
    const TimelineIndex index(*t.trace);
    const TrackLayout l = layoutOf(*t.trace, index, TrackArrangement(*t.trace));
    TimelinePainter painter;
    TimelineFrame f;
    f.trace = t.trace.get();
    f.layout = &l;
    f.gutter = QRect(0, 24, 210, 376);
    f.ruler = QRect(210, 0, 800, 24);
    f.timeArea = QRect(210, 24, 800, 376);
    f.criticalLegend = true;
    const QRect key = criticalLegendRect(f, QFont());
    REQUIRE_FALSE(key.isEmpty());
    // Time labels every ~90 px, slid across the key's left edge by moving the view.
    for (TimeNs t0 = 0; t0 < 3000; t0 += 100) {
        f.axis = TimeAxis{t0, t0 + 20000, 800};
        DrawInput in;
        in.trace = t.trace.get();
        in.index = &index;
        in.layout = &l;
        in.axis = f.axis;
        in.viewHeight = 376;
        const DrawList list = buildDrawList(in);
        f.list = &list;
        QImage img(1010, 400, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        {
            QPainter p(&img);
            painter.paint(p, f);
        }
        // The few pixels left of the key, above the tick marks: the ruler's colour only.
        int inked = 0;
        for (int x = key.left() - 5; x < key.left(); ++x)
            for (int y = f.ruler.top() + 1; y < f.ruler.bottom() - 9; ++y)
                inked += img.pixelColor(x, y) != f.colors.ruler ? 1 : 0;
        INFO("view from " << t0 << " ns");
        CHECK(inked == 0);
    }
}
