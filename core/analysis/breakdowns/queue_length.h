#pragma once
// HTA's queue length per stream (get_queue_length_summary, get_time_spent_blocked_on_full_queue):
// the operations launched on a stream and not yet started. Each operation whose launch call is
// an enqueue call (hta_rules.h) adds one at the call's start and takes one away at its own
// start; every change is a sample.
#include "core/analysis/breakdowns/breakdown_values.h"
#include "core/analysis/breakdowns/scope.h"
#include "core/analysis/breakdowns/stats.h"

namespace contend::breakdowns {

// Not computed when no operation is linked to an enqueue call.
BreakdownSection<StreamQueue> queueLength(const Trace& trace, const Scope& scope, Ties ties = Ties::DecreaseFirst);

}  // namespace contend::breakdowns
