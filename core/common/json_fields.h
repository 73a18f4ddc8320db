#pragma once
// Reading the fields of a JSON document we may not have written (a report, a cluster report),
// with every number range-checked and every error naming its place. The getters throw
// JsonFieldError; a reader catches it once, at its entry, into a Failure of kind Malformed
// (reportFromJson, clusterFromJson). The messages, `where` being the place ("report",
// "collectives/4"):
//   where: missing "key"
//   where: "key" is not an array
//   where: "key" has the wrong type or is out of range      (get<T>, getInt<T>)
//   where: "key" is not a number | is not true or false | is not a string
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>

namespace contend::jsonfields {

struct JsonFieldError {
    std::string what;
};

using json = nlohmann::json;

const json& need(const json& j, const char* key, const std::string& where);
const json& needArray(const json& j, const char* key, const std::string& where);

// v as an integer T in [lo, max], or nullopt. Whole floats are accepted; anything else (a string,
// 3e126 where a count belongs, -1 for an unsigned count) is nullopt rather than nlohmann's cast
// out of range, which is undefined behaviour.
template <typename T>
std::optional<T> integer(const json& v, T lo = std::numeric_limits<T>::min()) {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    constexpr T hi = std::numeric_limits<T>::max();
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(hi)) return std::nullopt;
        if (lo > 0 && u < static_cast<std::uint64_t>(lo)) return std::nullopt;
        return static_cast<T>(u);
    }
    if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        if (i < static_cast<std::int64_t>(lo)) return std::nullopt;
        if (i > 0 && static_cast<std::uint64_t>(i) > static_cast<std::uint64_t>(hi)) return std::nullopt;
        return static_cast<T>(i);
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        // 2^63 and 2^64 are exact doubles; max() itself is not.
        const double top = std::is_signed_v<T> ? 9223372036854775808.0 : 18446744073709551616.0;
        if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) ||
            d >= std::min(top, static_cast<double>(hi) + 1.0))
            return std::nullopt;
        return static_cast<T>(d);
    }
    return std::nullopt;
}

// v as a T, or nullopt when it is not one: integers through integer<T>, anything else as
// nlohmann converts it.
template <typename T>
std::optional<T> convert(const json& v) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        return integer<T>(v);
    } else {
        try {
            return v.get<T>();
        } catch (const json::exception&) {
            return std::nullopt;
        }
    }
}

[[noreturn]] void throwWrongType(const char* key, const std::string& where);

// The field as a T; missing or not a T is an error.
template <typename T>
T get(const json& j, const char* key, const std::string& where) {
    if (std::optional<T> x = convert<T>(need(j, key, where))) return *x;
    throwWrongType(key, where);
}

// The field as a T, `fallback` when it is missing, null or not a T.
template <typename T>
T getOr(const json& j, const char* key, T fallback) {
    if (!j.is_object() || !j.contains(key) || j[key].is_null()) return fallback;
    return convert<T>(j[key]).value_or(fallback);
}

// v, the value of `key` (or an element of it), as an integer in [lo, max]; anything else is an
// error about `key`.
template <typename T>
T integerOf(const json& v, const char* key, const std::string& where, T lo = std::numeric_limits<T>::min()) {
    if (std::optional<T> x = integer<T>(v, lo)) return *x;
    throwWrongType(key, where);
}

// An integer field in [lo, max]; missing or anything else is an error.
template <typename T>
T getInt(const json& j, const char* key, const std::string& where, T lo = std::numeric_limits<T>::min()) {
    return integerOf<T>(need(j, key, where), key, where, lo);
}

// The same, `fallback` when it is missing or null (present and not such an integer is an error).
template <typename T>
T getIntOr(const json& j, const char* key, const std::string& where, T fallback, T lo = std::numeric_limits<T>::min()) {
    if (!j.is_object() || !j.contains(key) || j[key].is_null()) return fallback;
    return integerOf<T>(j[key], key, where, lo);
}

double getNumber(const json& j, const char* key, const std::string& where);  // finite
bool getBool(const json& j, const char* key, const std::string& where);
std::string getString(const json& j, const char* key, const std::string& where);

}  // namespace contend::jsonfields
