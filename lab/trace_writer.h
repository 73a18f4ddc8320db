#pragma once
// The run as a Kineto (PyTorch profiler) JSON trace, in the shape of Contend's simulator
// (core/sim/README.md, Output): schemaVersion, deviceProperties, traceName, process/thread
// metadata, ProfilerStep#N, cpu_op + cudaLaunchKernel with correlation ids, kernels on their
// streams, ac2g flows, and with counters the lab's own software-measured bytes/s. ts and dur are
// microseconds with exactly 3 decimals, printed from integer ns.
#include <cstdint>
#include <string>

#include "lab_types.h"
#include "names.h"

namespace lab {

struct TraceOptions {
    NameStyle names = NameStyle::PyTorch;
    bool counters = false;
    std::string traceName;         // contend-lab/<variant>/seed-N
    std::int64_t clockOffset = 0;  // trace ns = monotonic ns + clockOffset
    std::string deviceName;
};

// The whole trace as text.
std::string traceJson(const RunRecord& run, const TraceOptions& options);

// Writes text to path, gzip-compressed when path ends in ".gz". Returns false on failure.
bool writeFile(const std::string& path, const std::string& text);

}  // namespace lab
