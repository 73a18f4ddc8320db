#pragma once
// Words and numbers as the views show them: resource names, durations, times since the trace
// began, track names. One place so the tables, tooltips and plots read the same.
#include <QString>

#include "core/analysis/report.h"
#include "core/trace/trace.h"

namespace contend::widgets {

// "bandwidth", "compute", ... (lower case, as in the report JSON); "-" for None.
QString resourceLabel(Resource r);
// "812 ns", "12.5 us", "3.20 ms", "1.234 s".
QString durationText(TimeNs ns);
// A time since the trace began, to the microsecond: "1.234567 ms", "12.345 us", "2.000001 s".
QString timeText(TimeNs sinceBegin);
// Track label as the timeline shows it.
QString trackLabel(const Trace& trace, std::uint32_t track);
QString sliceName(const Trace& trace, std::uint32_t slice);

}  // namespace contend::widgets
