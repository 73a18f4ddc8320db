#pragma once
// Human-readable times: "812 ns", "12.5 us", "3.20 ms", "1.234 s".
#include <string>

#include "core/trace/types.h"

namespace contend {

std::string formatDuration(TimeNs ns);

}  // namespace contend
