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
// the width (and then itself cut between items: elideAtBreak); a tail of one item (a copy's
// " [bytes=N]") is kept whole while the head keeps four characters.
QString elideKeepingTail(const QString& text, const QFontMetrics& fm, int width);
// How a sync cluster's predicted end-to-end gain (the what-if) stands to its saving on its own
// stream (its gaps less one launch gap) and why they differ; empty when the gain was not
// computed. "12 us more than the 276 us it saves on its stream: fusing removes all of its gaps
// (...) and the work after it starts sooner (knock-on)".
QString gainVersusSaving(const Cluster& c);
// `text` fitted into `width` pixels, cut at the right between words or items (before a space,
// after a ',', ';', '=' or an opening bracket), never inside a number or a word, with "…" after
// what is kept: "[bytes=42005954]" becomes "[bytes=…", not "[bytes=42005…", which reads as another
// number. A text with no such break that fits is cut at the right as Qt does.
QString elideAtBreak(const QString& text, const QFontMetrics& fm, int width);

}  // namespace contend::widgets
