#pragma once
// "Project X": the vision network the simulator runs. Per profiler step, on stream 7 a ResNet-
// like backbone (large convolutions, batch-norm scales, activations, residual adds, dense
// concatenations) and a classifier head with the largest matmul; on stream 13 the pre-processing
// of the next batch (resize, normalisation, crop/flip); on stream 17 an auxiliary branch (RoI
// align, FPN feature-map op, NMS, an atomic scatter); on stream 21 an atomic accumulation.
//
// The contention sites (see scenario.h) are built in their bad or good form per step, and three
// controls are always present: the biggest matmul (always slow, never contended), an NMS kernel
// with data-dependent duration (natural variance, never contended) and an RoI-align kernel that
// overlaps a convolution with room to spare (combined demand fits).
#include <cstdint>
#include <vector>

#include "core/sim/model/scenario.h"
#include "core/sim/model/workload.h"

namespace contend::sim {

class ProjectX {
  public:
    static constexpr std::int32_t kMainStream = 7;
    static constexpr std::int32_t kPreStream = 13;
    static constexpr std::int32_t kAuxStream = 17;
    static constexpr std::int32_t kAccumStream = 21;
    static constexpr int kMetricOps = 24;  // tiny metric ops in the sync site's bad form

    // badRate: see sitesFor (single-cause scenarios only).
    ProjectX(Scenario scenario, bool fixed, std::uint64_t seed, double badRate = 1.0)
        : m_scenario(scenario), m_fixed(fixed), m_seed(seed), m_badRate(badRate) {}

    static const std::vector<StreamInfo>& streams();

    Sites sites(int step) const { return sitesFor(m_scenario, m_fixed, m_seed, step, m_badRate); }
    Iteration build(int step) const;

  private:
    Scenario m_scenario;
    bool m_fixed;
    std::uint64_t m_seed;
    double m_badRate;
};

}  // namespace contend::sim
