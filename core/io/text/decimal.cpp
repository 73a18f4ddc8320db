#include "core/io/text/decimal.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace contend {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

}  // namespace

std::optional<TimeNs> parseMicrosToNs(std::string_view text) {
    std::string_view s = trim(text);
    if (s.empty()) return std::nullopt;
    bool neg = false;
    std::size_t i = 0;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        i = 1;
    }
    // Fast exact path: digits [. digits]
    std::int64_t whole = 0;
    std::size_t digits = 0;
    constexpr std::int64_t kMaxWhole = std::numeric_limits<std::int64_t>::max() / 1000 - 1;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
        whole = whole * 10 + (s[i] - '0');
        if (whole > kMaxWhole) return std::nullopt;
    }
    std::int64_t frac = 0;  // nanoseconds from the first three fraction digits
    bool roundUp = false;
    std::size_t fracDigits = 0;
    if (i < s.size() && s[i] == '.') {
        ++i;
        for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++fracDigits) {
            int d = s[i] - '0';
            if (fracDigits < 3)
                frac = frac * 10 + d;
            else if (fracDigits == 3)
                roundUp = d >= 5;
        }
        for (std::size_t k = fracDigits; k < 3; ++k) frac *= 10;
    }
    if (digits + fracDigits == 0) return std::nullopt;
    if (i == s.size()) {
        std::int64_t ns = whole * 1000 + frac + (roundUp ? 1 : 0);
        return neg ? -ns : ns;
    }
    // Exponent or other forms: go through double (loses sub-ns precision on huge values only).
    auto d = parseDouble(s);
    if (!d) return std::nullopt;
    double ns = *d * 1000.0;
    if (!std::isfinite(ns) || std::fabs(ns) > 9.2e18) return std::nullopt;
    return static_cast<TimeNs>(std::llround(ns));
}

std::optional<double> parseDouble(std::string_view text) {
    std::string_view s = trim(text);
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<std::int64_t> parseInt(std::string_view text) {
    std::string_view s = trim(text);
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && p == s.data() + s.size()) return v;
    // "7.0" style integers
    auto d = parseDouble(s);
    if (d && std::floor(*d) == *d && std::fabs(*d) < 9e18) return static_cast<std::int64_t>(*d);
    return std::nullopt;
}

}  // namespace contend
