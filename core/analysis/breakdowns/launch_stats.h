#pragma once
// HTA's kernel launch statistics (get_cuda_kernel_launch_stats), per kernel name: for each
// device operation linked to the enqueue call that launched it (hta_rules.h), the call's
// duration (CPU), the operation's (GPU) and the launch delay (operation start - call end,
// clipped at 0); medians and 95th percentiles; and how many ran shorter than their call (HTA's
// "short kernels", without its 50 us runtime cutoff, which is a plot's, not a count's).
#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/scope.h"

namespace contend::breakdowns {

// Names by GPU time, largest first. Not computed when no operation is linked to its call. Over a
// range (stats.h): the operations that run in it, each counted whole.
BreakdownSection<KernelLaunch> launchStats(const Trace& trace, const Scope& scope, const TimeRange& range = {});

}  // namespace contend::breakdowns
