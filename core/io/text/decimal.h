#pragma once
// Exact conversion of decimal microsecond text ("1699.123", "1736412474730135.222", "12",
// "1.69512E+15", "-3.5") to integer nanoseconds. Doubles cannot hold 1.7e18 ns exactly, so the
// integer and fraction digits are combined as integers; only exponent forms go through double.
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/trace/types.h"

namespace contend {

// Returns nullopt for text that is not a number, for NaN/Infinity and for values whose
// nanoseconds do not fit in int64. Leading/trailing spaces and tabs are ignored (Ascend CSVs end
// timestamps with a tab). Rounds to the nearest nanosecond.
std::optional<TimeNs> parseMicrosToNs(std::string_view text);

// Parses a plain decimal number (for args and CSV cells); nullopt if not a finite number.
std::optional<double> parseDouble(std::string_view text);
std::optional<std::int64_t> parseInt(std::string_view text);

}  // namespace contend
