#include "widgets/timeline/time_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace contend::widgets {

TimeNs saturatingSub(TimeNs a, TimeNs b) {
    TimeNs r = 0;
    if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? kTimeMax : kTimeMin;
    return r;
}

TimeNs saturatingAdd(TimeNs a, TimeNs b) {
    TimeNs r = 0;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kTimeMax : kTimeMin;
    return r;
}

namespace {
// double -> int64 without UB for values outside the range (and NaN -> 0).
TimeNs toTimeNs(double v) {
    if (std::isnan(v)) return 0;
    if (v >= 9.2e18) return kTimeMax;
    if (v <= -9.2e18) return kTimeMin;
    return static_cast<TimeNs>(std::llround(v));
}
}  // namespace

TimeNs TimeAxis::span() const {
    const TimeNs s = saturatingSub(t1, t0);
    return s > 0 ? s : 1;
}

TimeNs TimeAxis::toTime(double px) const { return saturatingAdd(t0, toTimeNs(px * nsPerPx())); }

TimeAxis fitRange(TimeNs t0, TimeNs t1, double widthPx, double margin) {
    if (t1 <= t0) t1 = saturatingAdd(t0, 1);
    const TimeNs pad = toTimeNs(static_cast<double>(saturatingSub(t1, t0)) * std::max(0.0, margin));
    return TimeAxis{saturatingSub(t0, pad), saturatingAdd(t1, pad), widthPx};
}

TimeAxis clampTo(const TimeAxis& a, TimeNs lo, TimeNs hi) {
    if (lo >= hi) return a;
    TimeAxis r = a;
    const TimeNs range = saturatingSub(hi, lo);
    if (saturatingSub(a.t1, a.t0) >= range) {
        r.t0 = lo;
        r.t1 = hi;
        return r;
    }
    const TimeNs s = a.span();
    if (r.t0 < lo) {
        r.t0 = lo;
        r.t1 = lo + s;
    } else if (r.t1 > hi) {
        r.t1 = hi;
        r.t0 = hi - s;
    }
    return r;
}

TimeAxis zoomAround(const TimeAxis& a, double px, double factor, TimeNs lo, TimeNs hi, TimeNs minSpan) {
    if (!(factor > 0) || !std::isfinite(factor)) return a;
    const double w = a.width();
    px = std::clamp(px, 0.0, w);
    const TimeNs pivot = a.toTime(px);
    double span = static_cast<double>(a.span()) * factor;
    const double maxSpan = lo < hi ? static_cast<double>(saturatingSub(hi, lo)) : 9e18;
    span = std::clamp(span, static_cast<double>(std::max<TimeNs>(minSpan, 1)), std::max(maxSpan, 1.0));
    // Keep the pivot under the cursor: pivot = t0 + px / w * span.
    const TimeNs t0 = saturatingSub(pivot, toTimeNs(px / w * span));
    TimeAxis r{t0, saturatingAdd(t0, toTimeNs(span)), a.widthPx};
    return clampTo(r, lo, hi);
}

TimeAxis panBy(const TimeAxis& a, double dxPx, TimeNs lo, TimeNs hi) {
    const TimeNs d = toTimeNs(dxPx * a.nsPerPx());
    TimeAxis r{saturatingAdd(a.t0, d), saturatingAdd(a.t1, d), a.widthPx};
    return clampTo(r, lo, hi);
}

TimeNs niceStep(double nsPerPx, double minPx) {
    const double want = nsPerPx * minPx;
    if (!(want > 1) || !std::isfinite(want)) return 1;
    double p = std::pow(10.0, std::floor(std::log10(want)));
    for (;;) {
        for (double m : {1.0, 2.0, 5.0}) {
            if (m * p >= want) return toTimeNs(m * p);
        }
        p *= 10;
    }
}

std::vector<Tick> ticks(const TimeAxis& a, TimeNs origin, double minorPx, double labelPx) {
    std::vector<Tick> out;
    const TimeNs major = niceStep(a.nsPerPx(), labelPx);
    // Minor ticks split a major step into nice parts: 1 -> 5 x 0.2, 2 -> 4 x 0.5, 5 -> 5 x 1.
    TimeNs minor = major;
    if (major >= 5) {
        TimeNs mant = major;
        while (mant % 10 == 0) mant /= 10;
        minor = mant == 2 ? major / 4 : major / 5;
    }
    if (a.durPx(minor) < minorPx * 0.5) minor = major;
    // First multiple of `minor` (counted from origin) at or after t0.
    const TimeNs rel0 = saturatingSub(a.t0, origin);
    TimeNs k = rel0 / minor;
    if (k * minor < rel0) ++k;
    const double w = a.width();
    for (int guard = 0; guard < 10000; ++guard, ++k) {
        const TimeNs rel = k * minor;
        const TimeNs t = saturatingAdd(origin, rel);
        const double x = a.toPx(t);
        if (x > w) break;
        out.push_back(Tick{t, x, rel % major == 0});
    }
    return out;
}

std::string formatTick(TimeNs rel, TimeNs step) {
    if (step < 1) step = 1;
    struct Unit {
        double ns;
        const char* name;
    };
    static const Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
    // The largest unit that keeps at most two decimals (step >= unit / 100) and that the value
    // reaches (|rel| >= unit), so labels read "73.95 ms" rather than "73950 us" or "0.01 s";
    // the origin takes the unit its step alone suggests (step >= unit / 10).
    const double s = static_cast<double>(step);
    const double v = std::fabs(static_cast<double>(rel));
    const Unit* u = &kUnits[3];
    for (const Unit& c : kUnits) {
        const bool fits = rel == 0 ? s >= c.ns / 10 : (s >= c.ns / 100 && v >= c.ns);
        if (fits) {
            u = &c;
            break;
        }
    }
    int decimals = 0;
    const double ratio = u->ns / s;
    if (ratio > 1) decimals = static_cast<int>(std::ceil(std::log10(ratio) - 1e-9));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, static_cast<double>(rel) / u->ns, u->name);
    return buf;
}

}  // namespace contend::widgets
