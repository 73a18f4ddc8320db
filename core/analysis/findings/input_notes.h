#pragma once
// What the import lost or got wrong, said first in the report's notes so that a verdict resting
// on a partial or damaged input says so (report.h lists the kinds):
//
//   truncated-input  the reader found the file cut before its end (ImportStats::truncated: a file
//                    truncated inside its events, an unterminated array or object, gzip data
//                    without its end). Names what was kept (events, operators, steps, time span,
//                    collectives) and what is likely missing (everything after the last event
//                    kept; the last step when the capture's last step holds fewer operators than
//                    the others). `cluster`/`merge` add what the other ranks hold.
//   damaged-input    the reader dropped events or rows (problemDropsEvent: no ts, a negative or
//                    out-of-range dur, a device or stream id that is no id...) or kept rows
//                    without their names (DbNameMissing), together at least kDamagedShare of the
//                    events it read: each kind with its count and first place. Below the share
//                    the counts are only in `contend-cli info` (real traces carry a few).
//   stream-overlap   device operators that overlap another on their own stream (kSliceOverlap,
//                    counted at finalize as DuplicateEvent or StreamOverlap): a stream runs one
//                    operator at a time, so the times are wrong; they are kept out of the
//                    baselines (engine.cpp), as the steps the capture cut are.
#include <cstdint>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/analysis/model/report.h"
#include "core/trace/trace.h"

namespace contend {

inline constexpr double kDamagedShare = 0.01;

struct InputNoteInputs {
    const Trace& trace;
    const OperatorSet& ops;
    const std::vector<IterationStats>& iterations;
    const std::vector<std::uint32_t>& cut;  // cutIterations (notes.h)
    std::size_t collectives = 0;            // collectives found (ranks/collectives.h)
};

std::vector<ReportNote> inputNotes(const InputNoteInputs& in);

}  // namespace contend
