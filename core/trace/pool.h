#pragma once
// Several captures of the same workload as one trace, so that every signature's baseline pools
// its runs from all of them (a capture of one or two steps is too short on its own).
//
// Each capture keeps its tracks, slices, per-op metrics, counters and flows; capture k is moved
// in time to start kPoolGapNs after capture k-1 ends, so nothing of one overlaps anything of
// another (no cross-capture overlaps, windows or clusters). Tracks with the same (pid, tid) are
// one track: the same stream of the same workload. ProfilerStep#N markers are renumbered after
// the previous capture's last step so steps stay distinct. Correlation and external ids are
// offset per capture so launches link to their own kernels. Raw-event offsets point into each
// capture's own file, so the pooled trace's source names the first capture and rawEvent() is
// not meaningful for the others (the CLI does not use it).
#include <string>
#include <vector>

#include "core/trace/trace.h"

namespace contend {

inline constexpr TimeNs kPoolGapNs = 1'000'000'000;  // 1 s between captures

// Pools `captures` (at least one). Returns the first one unchanged when given one.
TracePtr poolCaptures(const std::vector<TracePtr>& captures);

}  // namespace contend
