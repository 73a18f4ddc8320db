#pragma once
// Basic vocabulary of the trace model. Time is int64 nanoseconds everywhere inside Contend;
// readers convert at the boundary.
#include <cstdint>
#include <limits>

namespace contend {

using TimeNs = std::int64_t;     // nanoseconds on the trace's own clock
using StringId = std::uint32_t;  // index into StringTable; 0 is the empty string

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
inline constexpr TimeNs kTimeMax = std::numeric_limits<TimeNs>::max();
inline constexpr TimeNs kTimeMin = std::numeric_limits<TimeNs>::min();

// The times a trace may hold. Readers drop events outside (with a warning) so that every end
// (start + dur, dur <= 11.6 days), every span (end - begin) and every base-time shift fits in
// int64 without overflow: raw times lie in [-2^60, 3 * 2^60] ns (1933 .. 2079 on the Unix
// epoch), a base time in [-2^60, 2^61], so shifted times lie in [-2^61, 5 * 2^60] and the
// widest span is below 7 * 2^60 < 2^63.
inline constexpr TimeNs kMinRawTimeNs = -(TimeNs{1} << 60);
inline constexpr TimeNs kMaxRawTimeNs = 3 * (TimeNs{1} << 60);
inline constexpr TimeNs kMinBaseTimeNs = -(TimeNs{1} << 60);
inline constexpr TimeNs kMaxBaseTimeNs = TimeNs{1} << 61;
inline constexpr bool inRawTimeRange(TimeNs t) { return t >= kMinRawTimeNs && t <= kMaxRawTimeNs; }
// A duration longer than this (about 11.6 days) is not an operator: every reader drops the event
// as malformed ("dur out of range").
inline constexpr TimeNs kMaxDurNs = 1'000'000'000'000'000;

}  // namespace contend
