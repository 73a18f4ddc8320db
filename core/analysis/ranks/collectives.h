#pragma once
// What a cluster merge needs from one rank's trace: its rank and the collectives it ran
// (NCCL/HCCL kernels), each with the profiler step it ran in and when it
// started and how long it took on the device. A collective's kernel starts when this rank
// reaches it and ends when the slowest peer has arrived (plus the transfer), so across ranks
// the one that arrived last has the shortest kernel: merge reads the wait from durations
// alone, without trusting the ranks' clocks to agree.
#include <vector>

#include "core/analysis/model/report.h"
#include "core/trace/trace.h"

namespace contend {

// Collectives are device slices (or slices on Ascend's "HCCL" process) whose name holds "nccl",
// "hccl" or "hcom_" (any case), in start order; each is given the step
// whose [start, next step's start) holds its start. Those before the first step, and every
// collective when the trace has no steps, are left out (merge matches collectives per step).
ReportDistributed findCollectives(const Trace& trace, const std::vector<IterationStats>& iterations);

}  // namespace contend
