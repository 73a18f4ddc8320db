#pragma once
// HTA's memory bandwidth per copy kind (get_memory_bw_summary): for each kind ("Memcpy DtoD",
// ...), the summed bandwidth of its copies running at once, sampled at every copy start and
// end; statistics over the samples above zero. A copy's bandwidth is the profiler's figure
// (Kineto's args "memory bandwidth (GB/s)"), else its bytes over its duration. A copy of 0 ns
// lasts 1 us here, as in HTA. Where HTA's running sum leaves a rounding residue when the last
// copy ends (1.4e-17 GB/s, counted as a sample), the sum here is 0 when no copy runs.
// Beside HTA's figures, Contend's per copy: each copy's own bandwidth.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/scope.h"
#include "core/analysis/breakdowns/stats.h"

namespace contend::breakdowns {

// The profiler's per-copy bandwidth and byte count args (Kineto's names).
inline constexpr std::string_view kBandwidthArg = "memory bandwidth (GB/s)";
inline constexpr std::string_view kBytesArg = "bytes";

// Not computed when no copy or fill carries a bandwidth or a byte count. Over a range (stats.h):
// HTA's samples at a time in it (the summed bandwidth from every copy, the ones before it too),
// and per copy the copies that run in it; a row for each kind with a copy in it.
BreakdownSection<CopyBandwidth> memoryBandwidth(const Trace& trace, const Scope& scope, Ties ties = Ties::DecreaseFirst,
                                                const TimeRange& range = {});

// The copies of one kind as a histogram of their own bandwidth (GB/s, the per-copy figure of
// memory_bandwidth.h), on log-spaced bins: kBinsPerDecade bins per power of ten, edges at
// 10^(k / kBinsPerDecade) GB/s (1, 1.58, 2.51, 3.98, 6.31, 10, ...), from the edge at or below
// the slowest copy above 0 GB/s to the first edge above the fastest. Bandwidths span decades
// (a 4 KB copy runs at a few GB/s, a 1 GB one at hundreds), so equal-width bins would put most
// copies in one.
inline constexpr int kBinsPerDecade = 5;

// `sortedGbps`: every copy's GB/s, ascending (none NaN, none below 0). Empty for no copy; one
// bin [0, 1) when every copy is at 0 GB/s.
CopyHistogram copyHistogram(const std::vector<double>& sortedGbps);

// The bin holding `gbps` (below the first edge: the first; at or above the last: the last).
std::size_t binOf(const CopyHistogram& h, double gbps);

// The bins of the two middle copies (the same bin twice for an odd number of copies): the p50
// per copy (pandas' interpolated median) lies in [edgesGbps[first], edgesGbps[second + 1]), in
// the one median bin when both are the same. With an even number of copies whose two middle ones
// are far apart (60 copies to the host of 8 B and of 64 B), it falls between them, in a bin
// that may hold no copy.
std::pair<std::size_t, std::size_t> medianBins(const CopyHistogram& h);

}  // namespace contend::breakdowns
