#pragma once
// The ground truth's judgement of a simulated step: names the cause of each operator and finds
// the sync clusters and lock waits. Called by Simulator::run; kept apart so the rules are in one
// place.
#include "core/sim/model/sim_config.h"
#include "core/sim/model/sim_result.h"
#include "core/sim/model/workload.h"

namespace contend::sim {

void attribute(const Iteration& it, const SimConfig& config, IterationResult& result);

}  // namespace contend::sim
