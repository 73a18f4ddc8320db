#pragma once
// Kineto's CUPTI range-profiler output: with `experimental_config` profiler metrics, PyTorch's
// profiler replayed each kernel alone and wrote one "cuda_profiler_range" X event per kernel,
// named as the kernel, with one args key per CUPTI metric (smsp__sass_thread_inst_executed_*,
// sm__throughput.avg.pct_of_peak_sustained_elapsed, dram__throughput...). The values are each
// kernel's own demand, measured alone, so they belong to the kernel as per-operator metrics.
//
// attachProfilerRanges runs once after a Chrome/Kineto file is read (before finalize):
//   * the trace has kernel events: the k-th range named N gives its metrics to the k-th kernel
//     named N (both in time order: ranges follow the order the kernels ran); ranges left over
//     (more replays than kernels) are counted in a warning;
//   * it has none (the range profiler's own traces, like HTA's cupti_profiler sample): the
//     ranges are the only record of the kernels, so they become the device operators
//     (kSliceDevice), keeping their metrics.
// Returns how many ranges were attached or promoted.
#include <cstddef>

#include "core/trace/trace_builder.h"

namespace contend {

inline constexpr const char* kProfilerRangeCategory = "cuda_profiler_range";

std::size_t attachProfilerRanges(TraceBuilder& b);

}  // namespace contend
