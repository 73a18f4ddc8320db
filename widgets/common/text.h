#pragma once
// Words and numbers as the views show them: resource names, durations, times since the trace
// began, track names. One place so the tables, tooltips and plots read the same.
#include <QString>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"

class QFontMetrics;

namespace contend::widgets {

// "bandwidth", "compute", ... (lower case, as in the report JSON); "-" for None.
QString resourceLabel(Resource r);
// formatDuration as a QString: "812 ns", "12.5 us", "3.2 ms", "1.234 s".
QString durationText(TimeNs ns);
// A time since the trace began, to the microsecond: "1.234567 ms", "12.345 us", "2.000001 s".
QString timeText(TimeNs sinceBegin);
// Track label as the timeline shows it.
QString trackLabel(const Trace& trace, std::uint32_t track);
QString sliceName(const Trace& trace, std::uint32_t slice);

// A long C++ kernel name in a short form a table can show, keeping what tells operators apart:
// "void at::native::(anonymous namespace)::elementwise_kernel<128, 4, ...>(int, ...)" becomes
// "elementwise_kernel<…>"; return type, namespaces and parameter list go, template arguments
// longer than 24 characters become "<…>". A trailing shape or grid (" [grid=[..] block=[..]]",
// as signature labels end) is kept whole. Short or plain names come back unchanged.
QString shortOperatorName(const QString& full);
// `text` fitted into `width` pixels: the head elided at the right, the tail that tells operators
// apart (the " [...]" shape or grid of shortOperatorName) kept as long as it gets at most 2/3 of
// the width (and then itself elided at the right).
QString elideKeepingTail(const QString& text, const QFontMetrics& fm, int width);

}  // namespace contend::widgets
