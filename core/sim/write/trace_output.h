#pragma once
// What every simulated-trace writer offers run_simulation.cpp: begin, one call per simulated
// step, finish, and the counts of what it wrote (for the ground truth and the tests). The
// Kineto JSON writer (trace_writer.h) and the Nsight Systems SQLite writer (nsys_writer.h)
// implement it.
#include <cstdint>
#include <map>
#include <string>

#include "core/sim/model/sim_result.h"
#include "core/sim/model/workload.h"

namespace contend::sim {

struct TraceCounts {
    std::uint64_t events = 0;    // JSON: every entry of traceEvents; SQLite: every row of an event table
    std::uint64_t kernels = 0;   // JSON: cat "kernel"; SQLite: CUPTI_ACTIVITY_KIND_KERNEL rows
    std::uint64_t counters = 0;  // JSON: "C" events; SQLite: GPU_METRICS rows
    std::uint64_t flows = 0;     // launch -> kernel links (JSON: one "s" and one "f" each)
    // JSON: per "ph" value; SQLite: per table, keyed as the reader counts them (kernel,
    // runtime, sync, nvtx, gpu_metrics).
    std::map<std::string, std::uint64_t> phases;
};

class TraceOutput {
  public:
    virtual ~TraceOutput() = default;
    virtual bool begin() = 0;
    virtual bool write(const Iteration& it, const IterationResult& result) = 0;
    virtual bool finish() = 0;
    virtual const TraceCounts& counts() const = 0;
    virtual std::uint64_t bytes() const = 0;  // bytes of the trace written so far
};

}  // namespace contend::sim
