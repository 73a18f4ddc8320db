// The timeline's draw list: only visible slices, narrow runs folded into counted marks without
// walking them, flagged operators standing out, windows and clusters, counter columns.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "draw_frame.h"
#include "gui_support.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/range_max.h"
#include "widgets/timeline/timeline_data.h"

using namespace contend;
using namespace contend::widgets;
using contend::test::TinyTrace;

namespace {

using Frame = contend::test::DrawFrame;

std::uint64_t totalCount(const DrawList& l) {
    std::uint64_t n = 0;
    for (const auto& it : l.items) n += it.count;
    return n;
}

}  // namespace

TEST_CASE("only slices intersecting the view are drawn", "[timeline][drawlist]") {
    TinyTrace b;
    auto s = b.stream(7);
    b.op(s, "a", 0, 100);
    b.op(s, "b", 1000, 100);
    b.op(s, "c", 2000, 100);
    Frame f(b.finish());
    auto l = f.draw(900, 1200, 300);
    REQUIRE(l.items.size() == 1);
    CHECK(f.data->trace->str(f.data->trace->slices()[l.items[0].slice].name) == "b");
    CHECK(l.items[0].x == Approx(100));
    CHECK(l.items[0].w == Approx(100));
    CHECK(l.items[0].is(kDrawLabel));
    CHECK(l.stats.walked == 1);
}

TEST_CASE("views outside the data and empty traces draw nothing", "[timeline][drawlist]") {
    TinyTrace b;
    auto s = b.stream(1);
    b.op(s, "a", 1000, 100);
    Frame f(b.finish());
    CHECK(f.draw(0, 500).items.empty());
    CHECK(f.draw(5000, 9000).items.empty());
    CHECK(f.draw(1100, 1200).items.empty());  // ends exactly where the view starts
    CHECK(f.draw(900, 1000).items.empty());   // starts exactly where the view ends
    Frame empty(TinyTrace().finish());
    auto l = empty.draw(0, 1000);
    CHECK(l.items.empty());
    CHECK(l.rows.empty());
}

TEST_CASE("a long slice that starts before the view is drawn clipped", "[timeline][drawlist]") {
    TinyTrace b;
    auto s = b.stream(1);
    b.op(s, "long", 0, 1'000'000);
    Frame f(b.finish());
    auto l = f.draw(500'000, 500'100, 1000);
    REQUIRE(l.items.size() == 1);
    CHECK(l.items[0].x <= 0);
    CHECK(l.items[0].x + l.items[0].w >= 1000);
    CHECK(l.items[0].w < 1100);  // clipped to the view, not 10 million pixels
}

TEST_CASE("narrow slices fold into counted marks without being walked", "[timeline][drawlist]") {
    TinyTrace b;
    auto s = b.stream(1);
    const int n = 200000;
    for (int i = 0; i < n; ++i) b.op(s, "tiny", i * 10LL, 5);  // 200k ops over 2 ms
    Frame f(b.finish());
    SECTION("zoomed out: a few marks stand for all of them") {
        auto l = f.draw(0, n * 10LL, 1000);
        CHECK(totalCount(l) == static_cast<std::uint64_t>(n));
        CHECK(l.items.size() <= 1000 / 8 + 2);  // marks of about 8 px
        // One step per 2 px of the run at most: bounded by the pixels, not the 200k slices.
        CHECK(l.stats.walked <= 1000 / 2 + l.items.size());
        for (const auto& it : l.items) {
            CHECK(it.is(kDrawFolded));
            CHECK(it.w <= 8 + 2 + 0.01);
        }
        auto uncut = f.drawUncut(0, n * 10LL, 1000);
        CHECK(uncut.items.size() == 1);
        CHECK(uncut.items[0].count == static_cast<std::uint32_t>(n));
    }
    SECTION("zoomed in: one item per slice") {
        auto l = f.draw(1000, 1100, 1000);  // 10 ops, each 50 px wide
        CHECK(l.items.size() == 10);
        for (const auto& it : l.items) CHECK_FALSE(it.is(kDrawFolded));
        CHECK(l.stats.walked <= 11);
    }
    SECTION("in between: the work is bounded by the pixels, not the slices") {
        auto l = f.draw(0, 200000, 1000);  // 20000 ops at 0.025 px each
        CHECK(totalCount(l) == 20000);
        CHECK(l.stats.walked < 1000);
    }
}

TEST_CASE("a wide slice between narrow runs is never swallowed by a fold", "[timeline][drawlist]") {
    TinyTrace b;
    auto s = b.stream(1);
    for (int i = 0; i < 100; ++i) b.op(s, "tiny", i * 10LL, 5);
    b.op(s, "wide", 2000, 3000);
    for (int i = 0; i < 100; ++i) b.op(s, "tiny", 6000 + i * 10LL, 5);
    Frame f(b.finish());
    auto l = f.drawUncut(0, 8000, 800);  // 10 ns per px: tiny ops are 0.5 px
    REQUIRE(l.items.size() == 3);
    CHECK(l.items[0].is(kDrawFolded));
    CHECK(l.items[0].count == 100);
    CHECK_FALSE(l.items[1].is(kDrawFolded));
    CHECK(f.data->trace->str(f.data->trace->slices()[l.items[1].slice].name) == "wide");
    CHECK(l.items[1].x == Approx(200));
    CHECK(l.items[2].count == 100);
    CHECK(totalCount(l) == 201);
}

TEST_CASE("runs separated by a gap fold into separate marks", "[timeline][drawlist]") {
    TinyTrace b;
    auto s = b.stream(1);
    for (int i = 0; i < 50; ++i) b.op(s, "x", i * 2LL, 1);
    for (int i = 0; i < 50; ++i) b.op(s, "x", 5000 + i * 2LL, 1);
    Frame f(b.finish());
    auto l = f.drawUncut(0, 10000, 1000);  // gap of 49 px
    REQUIRE(l.items.size() == 2);
    CHECK(l.items[0].count == 50);
    CHECK(l.items[1].count == 50);
    CHECK(l.items[1].x == Approx(500));
}

TEST_CASE("nested slices draw one lane per depth and collapsed host threads show the outermost",
          "[timeline][drawlist][layout]") {
    TinyTrace b;
    auto dev = b.stream(1);
    b.op(dev, "k", 0, 100);
    auto host = b.thread(5);
    b.op(host, "outer", 0, 1000, false);
    b.op(host, "inner", 100, 500, false);
    b.op(host, "innermost", 200, 100, false);
    SECTION("collapsed by default") {
        Frame f(b.finish());
        const auto& rows = f.layout.rows();
        // header, device lane, header, host lane (collapsed)
        REQUIRE(rows.size() == 4);
        CHECK(rows[0].kind == RowKind::Header);
        CHECK(rows[1].group == TrackGroup::Device);
        CHECK(rows[3].collapsed);
        CHECK(rows[3].hiddenLanes == 2);
        auto l = f.draw(0, 1000);
        CHECK(l.items.size() == 2);
    }
    SECTION("expanded") {
        auto t = b.finish();
        std::uint32_t hostTrack = t->slices()[contend::test::findSlice(*t, "outer", 0)].track;
        LayoutOptions o;
        o.expandedHosts.insert(hostTrack);
        Frame f(t, o);
        CHECK(f.layout.rows().size() == 6);
        auto l = f.draw(0, 1000);
        REQUIRE(l.items.size() == 4);
        CHECK(l.items[3].y > l.items[2].y);  // innermost below inner
        CHECK(f.layout.rowOf(hostTrack, 2) == 5);
    }
    SECTION("a collapsed group shows its header only") {
        LayoutOptions o;
        o.collapsedGroups.insert(TrackGroup::Host);
        Frame f(b.finish(), o);
        CHECK(f.layout.rows().size() == 3);
        CHECK(f.draw(0, 1000).items.size() == 1);
    }
}

TEST_CASE("layout lookups", "[timeline][layout]") {
    TinyTrace b;
    for (int i = 0; i < 10; ++i) b.op(b.stream(i), "k", 0, 100);
    Frame f(b.finish());
    const auto& L = f.layout;
    CHECK(L.rowAt(-1) == -1);
    CHECK(L.rowAt(0) == 0);  // header
    CHECK(L.rowAt(L.rows()[3].y + 2) == 3);
    CHECK(L.rowAt(L.height() + 100) == -1);
    auto [a, z] = L.rowsIn(L.rows()[2].y, L.rows()[4].y + 1);
    CHECK(a == 2);
    CHECK(z == 5);
    // Only visible rows are drawn.
    auto l = f.draw(0, 100, 1000, 40);
    CHECK(l.items.size() == 1);
}

TEST_CASE("device streams come first, in trace order", "[timeline][layout]") {
    const std::string json = R"J({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "host", "pid": 1, "tid": 1, "ts": 0, "dur": 5},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}}
    ]})J";
    auto t = contend::test::loadJson(json);
    REQUIRE(t);
    Frame f(t);
    REQUIRE(f.layout.rows().size() == 4);
    CHECK(f.layout.rows()[1].group == TrackGroup::Device);
    CHECK(f.layout.rows()[3].group == TrackGroup::Host);
}

TEST_CASE("flagged operators stand out, also inside folds", "[timeline][drawlist][report]") {
    TinyTrace b;
    auto s0 = b.stream(1);
    auto s1 = b.stream(2);
    for (int i = 0; i < 1000; ++i) b.op(s0, "tiny", i * 10LL, 5);
    b.op(s1, "big", 0, 5000);
    auto t = b.finish();
    Frame f(t);
    const std::uint32_t hot = contend::test::findSlice(*t, "tiny", 5000);
    const std::uint32_t warm = contend::test::findSlice(*t, "tiny", 7000);
    const std::uint32_t big = contend::test::findSlice(*t, "big", 0);
    Report r;
    r.settings.coefficient = 3;
    Anomaly a;
    a.slice = hot;
    a.score = 9;
    a.cause = Resource::Bandwidth;
    r.anomalies.push_back(a);
    a.slice = warm;
    a.score = 4;
    a.cause = Resource::Compute;
    r.anomalies.push_back(a);
    a.slice = big;
    a.score = 5;
    a.cause = Resource::Cache;
    r.anomalies.push_back(a);
    ContentionWindow w;
    w.resource = Resource::Bandwidth;
    w.start = 4000;
    w.end = 6000;
    WindowOp op;
    op.slice = hot;
    op.extraWaitNs = 10;
    w.ops.push_back(op);
    op.slice = big;
    op.extraWaitNs = 20;
    w.ops.push_back(op);
    r.windows.push_back(w);
    Cluster c;
    c.track = s0;
    c.start = 100;
    c.end = 900;
    c.ops = 80;
    r.clusters.push_back(c);
    f.setReport(r);

    SECTION("zoomed out, a fold takes the colour and cause of the worst operator it hides") {
        auto l = f.draw(0, 10000, 500);  // 20 ns per px: every tiny op folds
        int hotFolds = 0, warmFolds = 0, plainFolds = 0;
        for (const auto& it : l.items) {
            if (!it.is(kDrawFolded)) {
                CHECK(it.slice == big);
                CHECK(it.outline == resourceColor(Resource::Cache));
                continue;
            }
            const double x = 5000 / 20.0, xw = 7000 / 20.0;
            if (it.x <= x && x < it.x + it.w) {
                ++hotFolds;
                CHECK(it.is(kDrawFlagged));
                CHECK(it.slice == hot);
                CHECK(it.fill == scoreColor(9, 3));
                CHECK(it.outline == resourceColor(Resource::Bandwidth));
            } else if (it.x <= xw && xw < it.x + it.w) {
                ++warmFolds;
                CHECK(it.slice == warm);
                CHECK(it.outline == resourceColor(Resource::Compute));
            } else {
                ++plainFolds;
                CHECK_FALSE(it.is(kDrawFlagged));
                CHECK(it.fill == kFoldColor);
            }
        }
        CHECK(hotFolds == 1);
        CHECK(warmFolds == 1);
        CHECK(plainFolds > 10);
        // Uncut, the single fold shows the worst of all.
        auto u = f.drawUncut(0, 10000, 500);
        for (const auto& it : u.items)
            if (it.is(kDrawFolded)) CHECK(it.slice == hot);
    }
    SECTION("zoomed in, each flagged operator has its own colour; others are muted") {
        auto l = f.draw(6990, 7020, 300);
        int flagged = 0;
        for (const auto& it : l.items) {
            if (it.slice == warm) {
                ++flagged;
                CHECK(it.is(kDrawFlagged));
                CHECK(it.fill == scoreColor(4, 3));
            } else if (it.slice != big) {
                CHECK_FALSE(it.is(kDrawFlagged));
                CHECK(it.outline == 0);
                CHECK(it.fill == mutedNameColor("tiny"));
            }
        }
        CHECK(flagged == 1);
    }
    SECTION("a window shades the tracks it joins, named once") {
        auto l = f.draw(0, 10000, 1000);
        REQUIRE(l.bands.size() == 2);
        CHECK(l.bands[0].x == Approx(400));
        CHECK(l.bands[0].w == Approx(200));
        CHECK(l.bands[0].resource == Resource::Bandwidth);
        CHECK(l.bands[0].label != l.bands[1].label);
        CHECK(f.draw(7000, 9000).bands.empty());
    }
    SECTION("a cluster is bracketed above its track") {
        auto l = f.draw(0, 10000, 1000);
        REQUIRE(l.brackets.size() == 1);
        CHECK(l.brackets[0].x == Approx(10));
        CHECK(l.brackets[0].w == Approx(80));
        CHECK(l.brackets[0].ops == 80);
        auto far = f.draw(0, 10000000, 1000);  // under a pixel: a counted mark kMinBracketPx wide
        REQUIRE(far.brackets.size() == 1);
        CHECK(far.brackets[0].w == Approx(kMinBracketPx));
        CHECK(far.brackets[0].clusters == 1);
    }
    SECTION("the selection is outlined even when narrower than a pixel") {
        auto l = f.draw(0, 10000, 500, 2000, warm);
        REQUIRE(l.selection);
        CHECK(l.selection->w >= 3);
        CHECK(l.selection->slice == warm);
    }
}

TEST_CASE("counter rows get one column per pixel with the max in effect", "[timeline][drawlist][counters]") {
    TinyTrace b;
    b.op(b.stream(1), "k", 0, 1000);
    b.counter("HBM", "Read(MB/s)", 0, 10);
    b.counter("HBM", "Read(MB/s)", 500, 100);
    b.counter("HBM", "Read(MB/s)", 510, 20);
    Frame f(b.finish());
    auto l = f.draw(0, 1000, 100);  // 10 ns per column
    REQUIRE(l.counters.size() == 1);
    const auto& c = l.counters[0];
    CHECK(c.maxValue == Approx(100));
    REQUIRE(c.columns.size() == 100);
    CHECK(c.columns[0] == Approx(0.1));
    CHECK(c.columns[49] == Approx(0.1));
    CHECK(c.columns[50] == Approx(1.0));  // the spike is kept
    CHECK(c.columns[51] == Approx(0.2));
    CHECK(c.columns[99] == Approx(0.2));  // the last value stays in effect to the trace's end
    auto before = f.draw(-1000, -10, 100);
    REQUIRE(before.counters.size() == 1);
    CHECK(std::isnan(before.counters[0].columns[0]));
}

TEST_CASE("counter maxima over any run without walking it", "[timeline][counters]") {
    CounterSeries s;
    for (int i = 0; i < 10000; ++i) {
        s.times.push_back(i * 10);
        s.values.push_back(std::sin(i * 0.37) * 100 + (i == 7777 ? 1000 : 0));
    }
    CounterLod lod(s);
    CHECK(lod.globalMax() == Approx(s.values[7777]));
    for (auto [a, z] : {std::pair<int, int>{0, 1}, {3, 300}, {17, 9999}, {7000, 7777}, {7777, 7778}, {5000, 10000}}) {
        double want = -1e300;
        for (int i = a; i < z; ++i) want = std::max(want, s.values[static_cast<std::size_t>(i)]);
        CHECK(lod.maxOf(static_cast<std::size_t>(a), static_cast<std::size_t>(z)) == Approx(want));
    }
    CHECK(std::isinf(lod.maxOf(5, 5)));
}

TEST_CASE("range maximum over any index range", "[timeline][rangemax]") {
    std::vector<float> v{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
    RangeMax rm(v);
    for (std::size_t a = 0; a < v.size(); ++a)
        for (std::size_t z = a + 1; z <= v.size(); ++z) {
            auto k = rm.argmax(a, z);
            REQUIRE(k >= 0);
            CHECK(v[static_cast<std::size_t>(k)] == *std::max_element(v.begin() + a, v.begin() + z));
        }
    CHECK(rm.argmax(3, 3) == -1);
    CHECK(RangeMax().argmax(0, 5) == -1);
    CHECK(rm.argmax(9, 100) >= 9);
}

TEST_CASE("range maximum across blocks: the leftmost of equal maxima, any range", "[timeline][rangemax]") {
    // Sizes around the block edges, values from a small set so that ties are everywhere.
    for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{32}, std::size_t{33}, std::size_t{64},
                          std::size_t{65}, std::size_t{100}, std::size_t{1000}, std::size_t{4099}}) {
        std::vector<float> v(n);
        std::uint32_t x = 12345u + static_cast<std::uint32_t>(n);
        for (float& f : v) {
            x = x * 1664525u + 1013904223u;
            f = static_cast<float>((x >> 24) % 7);
        }
        RangeMax rm(v);
        REQUIRE(rm.size() == n);
        std::uint32_t y = 777;
        for (int q = 0; q < 3000; ++q) {
            y = y * 1664525u + 1013904223u;
            const std::size_t a = (y >> 8) % n;
            y = y * 1664525u + 1013904223u;
            const std::size_t z = a + 1 + (y >> 8) % (n - a);
            const auto want = std::max_element(v.begin() + static_cast<std::ptrdiff_t>(a),
                                               v.begin() + static_cast<std::ptrdiff_t>(z)) -
                              v.begin();  // the first of the largest
            REQUIRE(rm.argmax(a, z) == want);
        }
        CHECK(rm.argmax(0, n) == std::max_element(v.begin(), v.end()) - v.begin());
    }
}

TEST_CASE("hit testing finds the item under the cursor", "[timeline][drawlist]") {
    TinyTrace b;
    auto s = b.stream(1);
    b.op(s, "a", 0, 100);
    b.op(s, "b", 200, 100);
    Frame f(b.finish());
    auto l = f.draw(0, 400, 400);
    REQUIRE(l.items.size() == 2);
    const float y = l.items[0].y + 2;
    CHECK(hitTest(l, 50, y) == 0);
    CHECK(hitTest(l, 250, y) == 1);
    CHECK(hitTest(l, 150, y) == -1);
    CHECK(hitTest(l, 50, y + 500) == -1);
}
