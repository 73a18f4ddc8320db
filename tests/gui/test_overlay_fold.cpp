// Analysis overlays folded like slices: contention windows, cluster brackets and flagged
// operators narrower than a pixel merge into counted marks, the counts add up to the findings in
// view at every zoom, and findings outside the view are never walked.
#include <algorithm>
#include <catch2/catch.hpp>

#include "draw_frame.h"
#include "gui_support.h"
#include "widgets/timeline/draw_list.h"
#include "widgets/timeline/span_layers.h"
#include "widgets/timeline/timeline_data.h"

using namespace contend;
using namespace contend::widgets;
using contend::test::TinyTrace;

namespace {

using Scene = contend::test::DrawFrame;

bool inView(TimeNs start, TimeNs end, TimeNs t0, TimeNs t1) { return start < t1 && end > t0; }

// Windows joining `track` in view, by brute force.
std::uint64_t windowsInView(const Scene& s, std::uint32_t track, TimeNs t0, TimeNs t1) {
    std::uint64_t n = 0;
    const auto& slices = s.data->trace->slices();
    for (const ContentionWindow& w : s.report->windows) {
        const bool joins = std::any_of(w.ops.begin(), w.ops.end(),
                                       [&](const WindowOp& op) { return slices[op.slice].track == track; });
        if (joins && inView(w.start, w.end, t0, t1)) ++n;
    }
    return n;
}

std::uint64_t bandsOn(const DrawList& l, std::uint32_t track) {
    std::uint64_t n = 0;
    for (const DrawBand& b : l.bands)
        if (b.track == track) n += b.merged;
    return n;
}

ContentionWindow window(TimeNs start, TimeNs end, Resource r, std::initializer_list<std::uint32_t> slices) {
    ContentionWindow w;
    w.start = start;
    w.end = end;
    w.resource = r;
    for (std::uint32_t s : slices) {
        WindowOp op;
        op.slice = s;
        w.ops.push_back(op);
    }
    return w;
}

Cluster cluster(std::uint32_t track, TimeNs start, TimeNs end, std::uint32_t ops) {
    Cluster c;
    c.track = track;
    c.start = start;
    c.end = end;
    c.ops = ops;
    return c;
}

}  // namespace

TEST_CASE("span layers: disjoint, ascending, as few as the overlap needs", "[timeline][overlayfold]") {
    std::vector<Span> spans = {{0, 100, 0}, {10, 20, 1}, {20, 30, 2}, {100, 200, 3}, {15, 16, 4}, {50, 50, 5}};
    SpanLayers sl(spans);
    CHECK(sl.size() == 6);
    CHECK(sl.layers().size() == 3);  // 0..100, 10..20 and 15..16 overlap at 15
    std::size_t total = 0;
    for (const SpanLayer& l : sl.layers()) {
        total += l.size();
        for (std::size_t i = 0; i + 1 < l.size(); ++i) {
            CHECK(l.starts[i] <= l.starts[i + 1]);
            CHECK(l.ends[i] <= l.starts[i + 1]);
        }
    }
    CHECK(total == 6);
    CHECK(SpanLayers().layers().empty());
}

TEST_CASE("folded overlays keep their counts at every zoom", "[timeline][drawlist][overlayfold]") {
    TinyTrace b;
    const auto s0 = b.stream(1), s1 = b.stream(2);
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        b.op(s0, "k", i * 100LL, 60);
        b.op(s1, "m", i * 100LL + 30, 50);
    }
    auto t = b.finish();
    Scene sc(t);
    // Slices are ordered by track then start in the built trace; find them by (track, index).
    std::vector<std::uint32_t> on0, on1;
    for (std::uint32_t i = 0; i < t->slices().size(); ++i) (t->slices()[i].track == s0 ? on0 : on1).push_back(i);
    std::sort(on0.begin(), on0.end(), [&](auto x, auto y) { return t->slices()[x].start < t->slices()[y].start; });
    std::sort(on1.begin(), on1.end(), [&](auto x, auto y) { return t->slices()[x].start < t->slices()[y].start; });
    Report r;
    r.settings.coefficient = 0;
    const Resource kinds[] = {Resource::Bandwidth, Resource::Compute, Resource::Cache};
    for (int i = 0; i < n; i += 3) {
        Anomaly a;
        a.slice = on0[static_cast<std::size_t>(i)];
        a.score = 1 + i % 7;
        r.anomalies.push_back(a);
    }
    std::sort(r.anomalies.edit().begin(), r.anomalies.edit().end(),
              [](const Anomaly& x, const Anomaly& y) { return x.score > y.score; });
    for (int i = 0; i < n; i += 2) {
        const TimeNs st = i * 100LL;
        // Overlapping windows of different resources, some joining both tracks.
        r.windows.push_back(window(st, st + 150 + (i % 5) * 40, kinds[i % 3],
                                   {on0[static_cast<std::size_t>(i)], on1[static_cast<std::size_t>(i)]}));
        if (i % 10 == 0)
            r.windows.push_back(window(st + 20, st + 20, kinds[(i + 1) % 3], {on1[static_cast<std::size_t>(i)]}));
    }
    r.windows.push_back(window(0, n * 100LL, Resource::Lock, {on1[0]}));  // under all the others
    for (int i = 0; i < n; i += 4) r.clusters.push_back(cluster(s0, i * 100LL, i * 100LL + 250, 3));
    sc.setReport(r);

    const TimeNs span = n * 100LL;
    for (TimeNs w = span; w >= 500; w /= 4) {
        for (TimeNs mid : {span / 7, span / 2, span - span / 5}) {
            const TimeNs t0 = std::max<TimeNs>(0, mid - w / 2), t1 = t0 + w;
            CAPTURE(t0, t1);
            const DrawList l = sc.draw(t0, t1);
            CHECK(bandsOn(l, s0) == windowsInView(sc, s0, t0, t1));
            CHECK(bandsOn(l, s1) == windowsInView(sc, s1, t0, t1));
            std::uint64_t clusters = 0, ops = 0, wantClusters = 0;
            for (const DrawBracket& br : l.brackets) clusters += br.clusters, ops += br.ops;
            for (const Cluster& c : r.clusters) wantClusters += inView(c.start, c.end, t0, t1);
            CHECK(clusters == wantClusters);
            CHECK(ops == 3 * wantClusters);
            std::uint64_t flagged = 0, wantFlagged = 0;
            for (const DrawItem& it : l.items) flagged += it.flagged;
            for (const Anomaly& a : r.anomalies) {
                const Slice& s = t->slices()[a.slice];
                wantFlagged += inView(s.start, s.end(), t0, t1);
            }
            CHECK(flagged == wantFlagged);
            // Bounded by the pixels: a few folds per 2 px per layer, never the 10k windows.
            CHECK(l.bands.size() <= 6 * (1000 / 2 + 2));
            CHECK(l.stats.findingsWalked <= 8 * (1000 / 2 + 2));
        }
    }
    SECTION("zoomed out, narrow windows fold into bands coloured by the dominant resource") {
        const DrawList l = sc.draw(0, span);
        std::size_t folded = 0;
        for (const DrawBand& band : l.bands)
            if (band.merged > 1) ++folded;
        CHECK(folded > 10);
        CHECK(l.bands.size() < 1000);
    }
}

TEST_CASE("overlay folding on the edges", "[timeline][drawlist][overlayfold]") {
    TinyTrace b;
    const auto s0 = b.stream(1);
    for (int i = 0; i < 100; ++i) b.op(s0, "k", i * 1000LL, 500);
    auto t = b.finish();
    Scene sc(t);
    const std::uint32_t k0 = contend::test::findSlice(*t, "k", 0);

    SECTION("a window exactly at the view edges") {
        Report r;
        r.windows.push_back(window(1000, 2000, Resource::Bandwidth, {k0}));  // ends at t0: out
        r.windows.push_back(window(5000, 6000, Resource::Compute, {k0}));    // starts at t1: out
        r.windows.push_back(window(1999, 2000, Resource::Cache, {k0}));      // also ends at t0: out
        r.windows.push_back(window(2000, 2001, Resource::Sync, {k0}));       // starts at t0: in
        r.windows.push_back(window(4999, 5000, Resource::Lock, {k0}));       // last ns: in
        sc.setReport(r);
        const DrawList l = sc.draw(2000, 5000, 3000);
        REQUIRE(l.bands.size() == 2);
        CHECK(l.bands[0].resource == Resource::Sync);
        CHECK(l.bands[0].x == Approx(0));
        CHECK(l.bands[1].resource == Resource::Lock);
        CHECK(l.bands[1].x == Approx(2999));
        CHECK(bandsOn(l, s0) == windowsInView(sc, s0, 2000, 5000));
    }
    SECTION("zero-width windows and clusters are drawn at least a pixel wide and counted") {
        Report r;
        r.windows.push_back(window(3000, 3000, Resource::Bandwidth, {k0}));
        r.windows.push_back(window(2000, 2000, Resource::Compute, {k0}));  // at t0: just off the left edge
        r.clusters.push_back(cluster(s0, 3500, 3500, 2));
        sc.setReport(r);
        const DrawList l = sc.draw(2000, 5000, 3000);
        REQUIRE(l.bands.size() == 1);
        CHECK(l.bands[0].w >= 1);
        CHECK(l.bands[0].merged == 1);
        REQUIRE(l.brackets.size() == 1);
        CHECK(l.brackets[0].w == Approx(kMinBracketPx));
        CHECK(l.brackets[0].ops == 2);
    }
    SECTION("all in one pixel: one counted mark, the dominant resource, found without walking them") {
        Report r;
        for (int i = 0; i < 5000; ++i)
            r.windows.push_back(
                window(50000 + i * 2, 50000 + i * 2 + 1, i % 4 == 0 ? Resource::Compute : Resource::Cache, {k0}));
        for (int i = 0; i < 3000; ++i) r.clusters.push_back(cluster(s0, 50000 + i * 3, 50000 + i * 3 + 2, 4));
        sc.setReport(r);
        const DrawList l = sc.draw(0, 100'000'000, 1000);  // 100 us per px: all in pixel 0.5
        REQUIRE(l.bands.size() == 1);
        CHECK(l.bands[0].merged == 5000);
        CHECK(l.bands[0].resource == Resource::Cache);
        CHECK(l.bands[0].w >= 1);
        REQUIRE(l.brackets.size() == 1);
        CHECK(l.brackets[0].clusters == 3000);
        CHECK(l.brackets[0].ops == 12000);
        CHECK(l.stats.findingsWalked <= 4);
    }
    SECTION("none in view: nothing drawn, nothing walked") {
        Report r;
        for (int i = 0; i < 5000; ++i) r.windows.push_back(window(i * 10, i * 10 + 5, Resource::Compute, {k0}));
        r.clusters.push_back(cluster(s0, 0, 40000, 9));
        sc.setReport(r);
        const DrawList l = sc.draw(60000, 70000, 1000);
        CHECK(l.bands.empty());
        CHECK(l.brackets.empty());
        CHECK(l.stats.findingsWalked == 0);
    }
}

TEST_CASE("findings outside the view are never walked, even under a window spanning the trace",
          "[timeline][drawlist][overlayfold]") {
    TinyTrace b;
    const auto s0 = b.stream(1);
    for (int i = 0; i < 100; ++i) b.op(s0, "k", i * 1'000'000LL, 500);
    auto t = b.finish();
    Scene sc(t);
    const std::uint32_t k0 = contend::test::findSlice(*t, "k", 0);
    Report r;
    r.windows.push_back(window(0, 100'000'000, Resource::Lock, {k0}));
    for (int i = 0; i < 100000; ++i)  // 100k windows nested in it, all before the view
        r.windows.push_back(window(i * 500LL, i * 500LL + 200, Resource::Bandwidth, {k0}));
    for (int i = 0; i < 100000; ++i) r.clusters.push_back(cluster(s0, i * 500LL, i * 500LL + 200, 2));
    sc.setReport(r);
    const DrawList l = sc.draw(90'000'000, 90'001'000, 1000);
    REQUIRE(l.bands.size() == 1);  // the long one
    CHECK(l.bands[0].resource == Resource::Lock);
    CHECK(l.brackets.empty());
    CHECK(l.stats.findingsWalked <= 2);
    // Zoomed out over all of them: bounded by the pixels too.
    const DrawList all = sc.draw(0, 100'000'000, 1000);
    CHECK(bandsOn(all, s0) == 100001);
    CHECK(all.stats.findingsWalked <= 2 * (1000 / 2 + 2));
}
