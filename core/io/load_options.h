#pragma once
// What a load is asked (LoadOptions) and what it gives (LoadResult), apart from loadTrace
// (core/io/load.h) so that the readers, which take the options, do not depend on the entry
// point that calls them.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/common/failure.h"
#include "core/trace/trace.h"

namespace contend {

// A load's failure is the core-wide Failure (core/common/failure.h): its kind, the file and
// the place (byte, line and column for text; table and column for databases), the reason.
struct LoadOptions {
    // Join Ascend side files (kernel_details.csv, op_summary_*.csv, l2_cache.csv) when present.
    bool joinSideFiles = true;
    // Bytes of JSON parsed per chunk; bounds the parser's index memory.
    std::size_t chunkBytes = 8u << 20;
    // Called now and then with the fraction done (0..1). Return false to cancel.
    std::function<bool(double)> progress;
    // Largest single event accepted; bigger ones stop the load with an error (hostile input).
    std::size_t maxEventBytes = 512u << 20;
    // Most memory the load may use, in bytes. 0: the environment's CONTEND_MAX_MEMORY ("8G",
    // "512M", "0" for none) if set, else three quarters of what the machine (or the container)
    // has available when the load starts, leaving room for the analysis and the GUI.
    // kNoMemoryLimit: no limit. A trace that needs more stops with a Failure of kind
    // OutOfMemory (reason starting "not enough memory") as soon as that is clear, instead of
    // running the system out of memory.
    std::uint64_t memoryLimitBytes = 0;
};

inline constexpr std::uint64_t kNoMemoryLimit = ~std::uint64_t{0};
// The budget memoryLimitBytes stands for on this machine now (kNoMemoryLimit when unknown).
std::uint64_t effectiveMemoryBudget(const LoadOptions& options);
// CONTEND_MAX_MEMORY parsed (kNoMemoryLimit for "0"); nullopt when unset or not a size.
std::optional<std::uint64_t> memoryLimitFromEnvironment();

// The trace, or the failure (never both): value() is never null when ok(). A cancelled load is
// a failure of kind Cancelled.
using LoadResult = Result<TracePtr>;

}  // namespace contend
