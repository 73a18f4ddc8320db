#pragma once
// HTA's memory bandwidth per copy kind (get_memory_bw_summary): for each kind ("Memcpy DtoD",
// ...), the summed bandwidth of its copies running at once, sampled at every copy start and
// end; statistics over the samples above zero. A copy's bandwidth is the profiler's figure
// (Kineto's args "memory bandwidth (GB/s)"), else its bytes over its duration. A copy of 0 ns
// lasts 1 us here, as in HTA. Where HTA's running sum leaves a rounding residue when the last
// copy ends (1.4e-17 GB/s, counted as a sample), the sum here is 0 when no copy runs.
// Beside HTA's figures, Contend's per copy: each copy's own bandwidth.
#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/scope.h"
#include "core/analysis/breakdowns/stats.h"

namespace contend::breakdowns {

// The profiler's per-copy bandwidth and byte count args (Kineto's names).
inline constexpr std::string_view kBandwidthArg = "memory bandwidth (GB/s)";
inline constexpr std::string_view kBytesArg = "bytes";

// Not computed when no copy or fill carries a bandwidth or a byte count.
BreakdownSection<CopyBandwidth> memoryBandwidth(const Trace& trace, const Scope& scope,
                                                Ties ties = Ties::DecreaseFirst);

}  // namespace contend::breakdowns
