#pragma once
// Human-readable times: "812 ns", "12.5 us", "3.2 ms", "3.21 ms", "1.234 s" (trailing zeros
// dropped); and counts: "12,345".
#include <string>

#include "core/trace/types.h"

namespace contend {

std::string formatDuration(TimeNs ns);
// A time since the trace began, to the nanosecond, as the app shows it: "812 ns", "12.345 us",
// "75.109082 ms", "2.000000001 s".
std::string formatTimeSince(TimeNs sinceBegin);
// Digits in groups of three: "0", "999", "12,345", "1,000,000".
std::string formatCount(std::size_t n);

}  // namespace contend
