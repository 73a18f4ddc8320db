#include "core/trace/time_format.h"

#include <cstdio>
#include <cstdlib>

namespace contend {

std::string formatDuration(TimeNs ns) {
    char buf[64];
    const double a = static_cast<double>(std::llabs(ns));
    const double v = static_cast<double>(ns);
    if (a < 1e3)
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    else if (a < 1e6)
        std::snprintf(buf, sizeof buf, "%.3g us", v / 1e3);
    else if (a < 1e9)
        std::snprintf(buf, sizeof buf, "%.3g ms", v / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.4g s", v / 1e9);
    return buf;
}

std::string formatCount(std::size_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string formatTimeSince(TimeNs t) {
    const double a = static_cast<double>(t < 0 ? -t : t);
    char buf[48];
    if (a < 1e3)
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(t));
    else if (a < 1e6)
        std::snprintf(buf, sizeof buf, "%.3f us", static_cast<double>(t) / 1e3);
    else if (a < 1e9)
        std::snprintf(buf, sizeof buf, "%.6f ms", static_cast<double>(t) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.9f s", static_cast<double>(t) / 1e9);
    return buf;
}

}  // namespace contend
