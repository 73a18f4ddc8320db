#include "widgets/common/palette.h"

#include <algorithm>
#include <cmath>

namespace contend::widgets {

Argb argb(int r, int g, int b, int a) {
    auto c = [](int v) { return static_cast<Argb>(std::clamp(v, 0, 255)); };
    return (c(a) << 24) | (c(r) << 16) | (c(g) << 8) | c(b);
}

Argb fromHsl(double h, double s, double l, int alpha) {
    h = std::fmod(std::fmod(h, 360.0) + 360.0, 360.0) / 360.0;
    s = std::clamp(s, 0.0, 1.0);
    l = std::clamp(l, 0.0, 1.0);
    auto hue = [](double p, double q, double t) {
        if (t < 0) t += 1;
        if (t > 1) t -= 1;
        if (t < 1.0 / 6) return p + (q - p) * 6 * t;
        if (t < 0.5) return q;
        if (t < 2.0 / 3) return p + (q - p) * (2.0 / 3 - t) * 6;
        return p;
    };
    const double q = l < 0.5 ? l * (1 + s) : l + s - l * s;
    const double p = 2 * l - q;
    auto to8 = [](double v) { return static_cast<int>(std::lround(v * 255)); };
    return argb(to8(hue(p, q, h + 1.0 / 3)), to8(hue(p, q, h)), to8(hue(p, q, h - 1.0 / 3)), alpha);
}

namespace {
std::uint32_t fnv1a(std::string_view s) {
    std::uint32_t h = 2166136261u;
    for (unsigned char c : s) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}
}  // namespace

Argb nameColor(std::string_view name) {
    const std::uint32_t h = fnv1a(name);
    // Blues, greens and violets: warm hues are reserved for flagged operators.
    const double hue = 90.0 + static_cast<double>(h % 200u);  // 90..290 degrees
    const double light = 0.62 + static_cast<double>((h >> 8) % 12u) / 100.0;
    return fromHsl(hue, 0.45, light);
}

Argb mutedNameColor(std::string_view name) {
    const std::uint32_t h = fnv1a(name);
    const double hue = 90.0 + static_cast<double>(h % 200u);
    const double light = 0.80 + static_cast<double>((h >> 8) % 8u) / 100.0;
    return fromHsl(hue, 0.18, light);
}

Argb scoreColor(double score, double coefficient) {
    if (!(coefficient > 0)) coefficient = 1;
    double t = (score - coefficient) / (2 * coefficient);
    if (!std::isfinite(t)) t = 1;
    t = std::clamp(t, 0.0, 1.0);
    // hue 38 (orange) -> 0 (red), lightness 0.55 -> 0.38
    return fromHsl(38.0 * (1 - t), 0.90, 0.55 - 0.17 * t);
}

Argb resourceColor(Resource r) {
    switch (r) {
    case Resource::Bandwidth: return argb(0x1f, 0x77, 0xb4);  // blue
    case Resource::Compute: return argb(0x94, 0x67, 0xbd);    // purple
    case Resource::Cache: return argb(0x17, 0xbe, 0xcf);      // teal
    case Resource::Issue: return argb(0x8c, 0xa2, 0x1a);      // olive
    case Resource::Sync: return argb(0xe3, 0x77, 0xc2);       // magenta
    case Resource::Lock: return argb(0x8c, 0x56, 0x4b);       // brown
    case Resource::Queue: return argb(0x2c, 0xa0, 0x2c);      // green
    case Resource::Unknown: return argb(0x7f, 0x7f, 0x7f);    // grey
    case Resource::None: break;
    }
    return argb(0xbb, 0xbb, 0xbb);
}

}  // namespace contend::widgets
