#pragma once
// An annotated trace: the user's trace with Contend's findings added, in the Chrome trace-event
// format Perfetto UI, chrome://tracing and Contend itself read.
//
// The user's events are copied byte for byte (the file is streamed once, never parsed into a
// document); the findings are spliced in at the end of its "traceEvents" array (or of the
// top-level array), so every original ts, dur and arg is unchanged. Added, in a process of its
// own ("Contend findings", a pid no track of the trace uses, sorted first):
//   - each contention window as a complete ('X') slice on a "contention windows" thread, one
//     thread per lane so that slices on a thread never overlap (Perfetto's rule): name =
//     resource and extra wait, args = id, resource, provenance, overlap ratio, peak, extra
//     wait, evidence, operators;
//   - a flow ('s' -> 'f', bind to the enclosing slice) from each window to each of its
//     operators, on the operator's own pid/tid;
//   - each sync cluster as a slice on "sync clusters" lanes, args = ops, busy, waiting, saving,
//     provenance, evidence;
//   - each run of a contention pattern (the run counted in it: none twice) as a slice over the
//     run on "contention patterns" lanes: name = victim beside partner and the slowdown, args =
//     pattern id, victim, partner, factor, slowdown and its CI, p-value, runs beside and apart,
//     the pattern's cost, cause, provenance, the run's duration and excess (the pattern's
//     evidence is in the report);
//   - each anomaly as a thread-scoped instant ('i', "s": "t") on an "anomalies" thread at its
//     start, args = operator, track, score, cause, provenance, baseline, excess, evidence.
// Times are written on the file's own clock: (ns - baseTimeNanoseconds) / 1000 us, 3 decimals.
#include <string>

#include "core/analysis/model/report.h"
#include "core/common/failure.h"
#include "core/trace/trace.h"

namespace contend {

// What an annotated trace that was written holds.
struct Annotated {
    std::uint64_t addedEvents = 0;
    std::uint64_t bytesWritten = 0;
};

// Reads the trace's source file (trace.source().path, plain or gzip) and writes `outPath`
// (gzip when it ends in ".gz"), atomically: a temporary beside it, renamed when complete. A
// failure names the file (and for the source the byte where it stopped): kind Unreadable when a
// file cannot be read or written, Malformed when the source's events array never closes.
Result<Annotated> writeAnnotatedTrace(const Trace& trace, const Report& report, const std::string& outPath);

// The findings alone as trace events (comma-separated, no brackets), for tests and the writer.
std::string findingEvents(const Trace& trace, const Report& report, std::uint64_t* count = nullptr);

}  // namespace contend
