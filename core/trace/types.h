#pragma once
// Basic vocabulary of the trace model. Time is int64 nanoseconds everywhere inside Contend;
// readers convert at the boundary.
#include <cstdint>
#include <limits>

namespace contend {

using TimeNs = std::int64_t;      // nanoseconds on the trace's own clock
using StringId = std::uint32_t;   // index into StringTable; 0 is the empty string

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
inline constexpr TimeNs kTimeMax = std::numeric_limits<TimeNs>::max();
inline constexpr TimeNs kTimeMin = std::numeric_limits<TimeNs>::min();

}  // namespace contend
