#pragma once
// How much memory a load may use. A trace bigger than the machine must fail with a message,
// not wake the kernel's OOM killer (which takes the user's other work with it): the loader
// weighs what its model holds, extrapolated to the whole file, against this budget.
#include <cstdint>
#include <optional>
#include <string>

namespace contend {

// Bytes this process can still allocate without swapping or hitting its cgroup's limit: the
// smaller of MemAvailable (/proc/meminfo) and, inside a container, the cgroup's limit less its
// current use (cgroup v2 memory.max / memory.current, or v1 memory.limit_in_bytes /
// memory.usage_in_bytes). nullopt where none of these can be read.
std::optional<std::uint64_t> availableMemoryBytes();

// What this process holds in memory now (resident set, /proc/self/statm); 0 where unknown.
std::uint64_t residentMemoryBytes();

// Parses a size the user typed: "512M", "4G", "1.5g", "2048" (MiB when no unit), "0"/"none"
// (no limit, returned as UINT64_MAX). nullopt for anything else.
std::optional<std::uint64_t> parseMemorySize(const std::string& text);

// "1.4 GB", "512 MB", "900 kB": for messages.
std::string formatBytes(std::uint64_t bytes);

}  // namespace contend
