#pragma once
// Writes the ground truth beside a simulated trace ("contend.truth/1"): for every operator its
// solo and actual duration, slowdown and cause; every sync cluster and lock wait; the device
// capacities; and the counts of what the trace holds. Hand-written and streamed like the trace
// (a 1M-operator truth is ~250 MB), with integer-only number formatting for stable bytes.
//
// All times are ns on the trace's clock (trace ts in us * 1000). Operator indices ("op",
// "first_op", "holder") are positions in the "ops" array.
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/model/sim_result.h"
#include "core/sim/model/simulator.h"
#include "core/sim/model/workload.h"
#include "core/sim/write/json_text.h"
#include "core/sim/write/trace_writer.h"

namespace contend::sim {

struct TruthHeader {
    std::string scenario;
    bool fixed = false;
    std::uint64_t seed = 0;
    double badRate = 1.0;  // written as "bad_rate" only when below 1 (older truths keep bytes)
};

class TruthWriter {
  public:
    TruthWriter(OutputSink& sink, const SimConfig& config, const std::vector<StreamInfo>& streams, TruthHeader header);

    bool begin();
    bool write(const Iteration& it, const IterationResult& result);
    bool finish(const TraceCounts& counts);

    std::uint64_t opsWritten() const { return m_opBase; }

  private:
    struct Step {
        int index;
        TimeNs start, end;
    };
    struct Cluster {
        int iteration;
        SyncCluster c;
    };
    struct Wait {
        int iteration;
        std::string lock;
        LockWait w;
    };

    const SimConfig& m_config;
    const std::vector<StreamInfo>& m_streams;
    TruthHeader m_header;
    JsonText m_out;
    std::uint64_t m_opBase = 0;  // global index of the current step's first operator
    std::vector<Step> m_steps;
    std::vector<Cluster> m_clusters;
    std::vector<Wait> m_waits;
};

}  // namespace contend::sim
