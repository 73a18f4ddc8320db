#include "core/io/load_options.h"

#include <cstdlib>

#include "core/io/memory_budget.h"

namespace contend {

std::optional<std::uint64_t> memoryLimitFromEnvironment() {
    const char* v = std::getenv("CONTEND_MAX_MEMORY");
    if (!v || !*v) return std::nullopt;
    return parseMemorySize(v);
}

std::uint64_t effectiveMemoryBudget(const LoadOptions& options) {
    if (options.memoryLimitBytes != 0) return options.memoryLimitBytes;
    if (auto env = memoryLimitFromEnvironment()) return *env;
    auto avail = availableMemoryBytes();
    if (!avail) return kNoMemoryLimit;
    return *avail / 4 * 3;
}

}  // namespace contend
