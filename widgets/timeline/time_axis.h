#pragma once
// Time <-> pixel math of the timeline, in one small pure header (after qt-creator's
// timelinecoordinates.h). No Qt, no trace: times are int64 ns on the trace's clock, pixels are
// doubles measured from the left edge of the time area.
//
// Degenerate cases, all tested (tests/gui/test_time_axis.cpp):
//  - an empty or inverted span (t1 <= t0) behaves as a 1 ns span, a width <= 0 as 1 px, so
//    nothing divides by zero;
//  - absolute Kineto times are ~1.7e18 ns, where a double only resolves 256 ns: differences
//    are taken in integers first (saturating) and only then converted to double;
//  - conversions back to time saturate at the int64 range instead of overflowing;
//  - zooming never goes below a minimum span (default 10 ns over the width) nor beyond the
//    allowed range, and panning stops at the range's ends.
#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/types.h"

namespace contend::widgets {

// a - b without overflow (clamped to the int64 range).
TimeNs saturatingSub(TimeNs a, TimeNs b);
// a + b without overflow (clamped to the int64 range).
TimeNs saturatingAdd(TimeNs a, TimeNs b);

struct TimeAxis {
    TimeNs t0 = 0;  // time at x = 0
    TimeNs t1 = 1;  // time at x = widthPx
    double widthPx = 1;

    TimeNs span() const;  // t1 - t0, at least 1
    double width() const { return widthPx > 0 ? widthPx : 1.0; }
    double nsPerPx() const { return static_cast<double>(span()) / width(); }
    double pxPerNs() const { return width() / static_cast<double>(span()); }
    double toPx(TimeNs t) const { return static_cast<double>(saturatingSub(t, t0)) * pxPerNs(); }
    // Width in pixels of a duration.
    double durPx(TimeNs d) const { return static_cast<double>(d) * pxPerNs(); }
    // Time under pixel x (rounded to the nearest ns, saturating).
    TimeNs toTime(double px) const;
    bool operator==(const TimeAxis&) const = default;
};

// The span [t0, t1] shown over `widthPx`, with a margin (fraction of the span) on both sides.
TimeAxis fitRange(TimeNs t0, TimeNs t1, double widthPx, double margin = 0.0);

// Keeps the axis inside [lo, hi]: a span larger than the range becomes the range; otherwise the
// axis is shifted (not resized) to fit. lo >= hi leaves the axis as it is.
TimeAxis clampTo(const TimeAxis& a, TimeNs lo, TimeNs hi);

// Zoom by `factor` (< 1 zooms in) keeping the time under pixel `px` fixed. The span stays in
// [minSpan, hi - lo]; the result is clamped to [lo, hi].
TimeAxis zoomAround(const TimeAxis& a, double px, double factor, TimeNs lo, TimeNs hi, TimeNs minSpan = 10);

// Pan by dxPx pixels (positive moves the view to later times), clamped to [lo, hi].
TimeAxis panBy(const TimeAxis& a, double dxPx, TimeNs lo, TimeNs hi);

// The smallest "nice" step (1, 2 or 5 times a power of ten, at least 1 ns) that puts at least
// minPx pixels between ticks. nsPerPx <= 0 gives 1.
TimeNs niceStep(double nsPerPx, double minPx);

struct Tick {
    TimeNs t = 0;        // absolute time of the tick
    double px = 0;       // its x
    bool major = false;  // carries a label
};

// Ticks at multiples of a nice step counted from `origin` (the trace's begin, so labels read
// 0, 1 ms, 2 ms, ...). Minor ticks every step, labelled major ticks every labelPx or more.
std::vector<Tick> ticks(const TimeAxis& a, TimeNs origin, double minorPx = 12, double labelPx = 90);

// Label of a tick at `rel` ns after the origin when ticks are `step` apart: the largest unit
// (s, ms, us, ns) that the value reaches and that needs at most two decimals at this step, with
// just enough decimals to tell neighbouring ticks apart: formatTick(1500000, 500000) == "1.5 ms",
// formatTick(73950000, 50000) == "73.95 ms", formatTick(20000000, 10000000) == "20 ms",
// formatTick(0, 1000) == "0 us".
std::string formatTick(TimeNs rel, TimeNs step);

}  // namespace contend::widgets
