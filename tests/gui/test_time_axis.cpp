// The timeline's time/pixel math, with its degenerate cases (qt-creator tst_timelinecoordinates).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "widgets/timeline/time_axis.h"

using namespace contend;
using namespace contend::widgets;

TEST_CASE("time and pixels convert both ways", "[timeline][axis]") {
    TimeAxis a{1000, 2000, 100};
    CHECK(a.nsPerPx() == Approx(10));
    CHECK(a.toPx(1000) == Approx(0));
    CHECK(a.toPx(1500) == Approx(50));
    CHECK(a.toPx(2000) == Approx(100));
    CHECK(a.toPx(900) == Approx(-10));
    CHECK(a.toTime(50) == 1500);
    CHECK(a.toTime(0.04) == 1000);  // rounds to the nearest ns
    CHECK(a.durPx(25) == Approx(2.5));
}

TEST_CASE("absolute Kineto times keep nanosecond precision", "[timeline][axis]") {
    const TimeNs base = 1736412474730135222LL;  // ~1.7e18 ns: a double alone resolves 256 ns here
    TimeAxis a{base, base + 1000, 1000};
    CHECK(a.toPx(base + 1) == Approx(1.0));
    CHECK(a.toPx(base + 999) == Approx(999.0));
    CHECK(a.toTime(1) == base + 1);
    CHECK(a.toTime(500) == base + 500);
}

TEST_CASE("degenerate axes do not divide by zero", "[timeline][axis]") {
    SECTION("empty span behaves as 1 ns") {
        TimeAxis a{500, 500, 100};
        CHECK(a.span() == 1);
        CHECK(std::isfinite(a.toPx(600)));
    }
    SECTION("inverted span behaves as 1 ns") {
        TimeAxis a{500, 400, 100};
        CHECK(a.span() == 1);
    }
    SECTION("zero or negative width behaves as 1 px") {
        TimeAxis a{0, 1000, 0};
        CHECK(a.width() == 1);
        CHECK(a.nsPerPx() == Approx(1000));
        TimeAxis b{0, 1000, -5};
        CHECK(b.toPx(1000) == Approx(1));
    }
    SECTION("the whole int64 range saturates instead of overflowing") {
        CHECK(TimeAxis{kTimeMin, kTimeMax, 1000}.span() == kTimeMax);
        TimeAxis a{0, kTimeMax, 1000};
        CHECK(a.toTime(2000) == kTimeMax);
        CHECK(a.toTime(-2000) == kTimeMin);
        CHECK(std::isfinite(a.toPx(kTimeMin)));
        CHECK(saturatingSub(kTimeMax, kTimeMin) == kTimeMax);
        CHECK(saturatingSub(kTimeMin, 1) == kTimeMin);
        CHECK(saturatingAdd(kTimeMax, 5) == kTimeMax);
        CHECK(saturatingAdd(kTimeMin, -5) == kTimeMin);
    }
}

TEST_CASE("zoom keeps the time under the cursor and respects the limits", "[timeline][axis]") {
    const TimeAxis a{0, 10000, 1000};
    SECTION("zoom in around a pixel") {
        TimeAxis z = zoomAround(a, 250, 0.5, 0, 10000);
        CHECK(z.span() == 5000);
        CHECK(z.toTime(250) == a.toTime(250));
    }
    SECTION("zoom out never leaves the range") {
        TimeAxis z = zoomAround(a, 500, 10, 0, 10000);
        CHECK(z.t0 == 0);
        CHECK(z.t1 == 10000);
    }
    SECTION("zoom in stops at the minimum span") {
        TimeAxis z = a;
        for (int i = 0; i < 100; ++i) z = zoomAround(z, 500, 0.5, 0, 10000, 10);
        CHECK(z.span() == 10);
        CHECK(z.t0 >= 0);
        CHECK(z.t1 <= 10000);
    }
    SECTION("a zoom near the edge is shifted back inside") {
        TimeAxis z = zoomAround(TimeAxis{9000, 10000, 1000}, 1000, 1.5, 0, 10000);
        CHECK(z.t1 == 10000);
        CHECK(z.span() == 1500);
    }
    SECTION("nonsense factors leave the axis alone") {
        CHECK(zoomAround(a, 500, 0, 0, 10000) == a);
        CHECK(zoomAround(a, 500, -2, 0, 10000) == a);
        CHECK(zoomAround(a, 500, std::numeric_limits<double>::infinity(), 0, 10000) == a);
    }
}

TEST_CASE("pan moves by pixels and stops at the ends", "[timeline][axis]") {
    const TimeAxis a{1000, 2000, 100};
    CHECK(panBy(a, 10, 0, 5000).t0 == 1100);
    CHECK(panBy(a, -10, 0, 5000).t0 == 900);
    TimeAxis left = panBy(a, -1000, 0, 5000);
    CHECK(left.t0 == 0);
    CHECK(left.span() == 1000);
    TimeAxis right = panBy(a, 1000, 0, 5000);
    CHECK(right.t1 == 5000);
    CHECK(right.span() == 1000);
}

TEST_CASE("clamp and fit", "[timeline][axis]") {
    CHECK(clampTo(TimeAxis{-50, 50, 10}, 0, 1000).t0 == 0);
    CHECK(clampTo(TimeAxis{-50, 5000, 10}, 0, 1000) == TimeAxis{0, 1000, 10});
    CHECK(clampTo(TimeAxis{3, 4, 10}, 10, 10) == TimeAxis{3, 4, 10});  // empty range: unchanged
    TimeAxis f = fitRange(1000, 2000, 500, 0.1);
    CHECK(f.t0 == 900);
    CHECK(f.t1 == 2100);
    CHECK(fitRange(5, 5, 100).span() == 1);
}

TEST_CASE("tick steps are 1, 2 or 5 times a power of ten", "[timeline][axis]") {
    CHECK(niceStep(1.0, 90) == 100);
    CHECK(niceStep(1.0, 101) == 200);
    CHECK(niceStep(1.0, 201) == 500);
    CHECK(niceStep(1000.0, 90) == 100000);
    CHECK(niceStep(0.001, 90) == 1);  // never below 1 ns
    CHECK(niceStep(0, 90) == 1);
    CHECK(niceStep(-5, 90) == 1);
    CHECK(niceStep(std::numeric_limits<double>::quiet_NaN(), 90) == 1);
    CHECK(niceStep(1e15, 90) == 100000000000000000LL);
}

TEST_CASE("ticks are counted from the origin with labelled majors", "[timeline][axis]") {
    const TimeAxis a{1'000'000, 2'000'000, 1000};  // 1 ms over 1000 px: 1000 ns per px
    auto t = ticks(a, 1'000'000, 12, 90);
    REQUIRE(!t.empty());
    CHECK(t.front().t == 1'000'000);
    CHECK(t.front().major);
    CHECK(t.front().px == Approx(0));
    int majors = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i].major) {
            ++majors;
            CHECK((t[i].t - 1'000'000) % 100'000 == 0);
        }
        if (i > 0) CHECK(t[i].px > t[i - 1].px);
    }
    CHECK(majors == 11);                             // 0, 100 us, ..., 1 ms
    CHECK(ticks(TimeAxis{5, 5, 0}, 0).size() <= 2);  // a degenerate axis: no endless loop
}

TEST_CASE("tick labels pick the unit from the step", "[timeline][axis]") {
    CHECK(formatTick(0, 1000) == "0 us");
    CHECK(formatTick(1500000, 500000) == "1.5 ms");
    CHECK(formatTick(1550000, 50000) == "1.55 ms");
    CHECK(formatTick(73950000, 50000) == "73.95 ms");
    CHECK(formatTick(500000, 50000) == "500 us");      // below 1 ms: stays in us
    CHECK(formatTick(74001830, 10) == "74001.83 us");  // deep zoom far into the trace
    CHECK(formatTick(20000000, 10000000) == "20 ms");
    CHECK(formatTick(1200000000, 100000000) == "1.2 s");
    CHECK(formatTick(25, 5) == "25 ns");
    CHECK(formatTick(2000000000, 1000000000) == "2 s");
    CHECK(formatTick(-200000, 100000) == "-200 us");
    CHECK(formatTick(-2000000, 100000) == "-2.0 ms");
    CHECK(formatTick(1234, 0) == "1234 ns");  // a zero step is treated as 1 ns
}
