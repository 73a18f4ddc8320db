#include "core/io/memory_budget.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>

namespace contend {

namespace {

std::optional<std::uint64_t> readNumberFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::string word;
    if (!(in >> word) || word.empty() || word == "max") return std::nullopt;
    for (char c : word)
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    try {
        return std::stoull(word);
    } catch (...) {
        return std::nullopt;
    }
}

std::optional<std::uint64_t> memAvailable() {
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MemAvailable:", 0) != 0) continue;
        std::istringstream ls(line.substr(13));
        std::uint64_t kb = 0;
        if (ls >> kb) return kb * 1024;
    }
    return std::nullopt;
}

// The cgroup this process is in ("/" when unknown), from /proc/self/cgroup.
std::string cgroupPath(bool v2) {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
        // v2: "0::/path"; v1: "N:memory:/path" (controllers may be listed together).
        const auto a = line.find(':');
        const auto b = line.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        const std::string ctrl = line.substr(a + 1, b - a - 1);
        if (v2 ? ctrl.empty() : (ctrl == "memory" || ctrl.find("memory") != std::string::npos))
            return line.substr(b + 1);
    }
    return "/";
}

std::optional<std::uint64_t> cgroupHeadroom() {
    const std::string v2 = "/sys/fs/cgroup" + cgroupPath(true);
    if (auto max = readNumberFile(v2 + "/memory.max")) {
        const std::uint64_t used = readNumberFile(v2 + "/memory.current").value_or(0);
        return *max > used ? *max - used : 0;
    }
    const std::string v1 = "/sys/fs/cgroup/memory" + cgroupPath(false);
    if (auto max = readNumberFile(v1 + "/memory.limit_in_bytes")) {
        // v1 reports "no limit" as a huge number (PAGE_COUNTER_MAX pages).
        if (*max >= (std::uint64_t{1} << 60)) return std::nullopt;
        const std::uint64_t used = readNumberFile(v1 + "/memory.usage_in_bytes").value_or(0);
        return *max > used ? *max - used : 0;
    }
    return std::nullopt;
}

}  // namespace

std::uint64_t residentMemoryBytes() {
    std::ifstream in("/proc/self/statm");
    std::uint64_t size = 0, resident = 0;
    if (!(in >> size >> resident)) return 0;
    const long page = ::sysconf(_SC_PAGESIZE);
    return resident * static_cast<std::uint64_t>(page > 0 ? page : 4096);
}

std::optional<std::uint64_t> availableMemoryBytes() {
    auto avail = memAvailable();
    auto cg = cgroupHeadroom();
    if (avail && cg) return std::min(*avail, *cg);
    return avail ? avail : cg;
}

std::optional<std::uint64_t> parseMemorySize(const std::string& text) {
    std::string t;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)))
            t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (t == "none" || t == "0") return std::numeric_limits<std::uint64_t>::max();
    if (t.empty()) return std::nullopt;
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(t, &used);
    } catch (...) {
        return std::nullopt;
    }
    if (!std::isfinite(v) || v <= 0) return std::nullopt;
    std::string unit = t.substr(used);
    if (!unit.empty() && unit.back() == 'b') unit.pop_back();
    if (!unit.empty() && unit.back() == 'i') unit.pop_back();
    double mul;
    if (unit.empty() || unit == "m")
        mul = 1024.0 * 1024;
    else if (unit == "k")
        mul = 1024.0;
    else if (unit == "g")
        mul = 1024.0 * 1024 * 1024;
    else if (unit == "t")
        mul = 1024.0 * 1024 * 1024 * 1024;
    else
        return std::nullopt;
    const double bytes = v * mul;
    if (bytes >= 1.8e19) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
}

std::string formatBytes(std::uint64_t bytes) {
    char buf[64];
    const double b = static_cast<double>(bytes);
    if (b >= 1024.0 * 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.1f GB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024)
        std::snprintf(buf, sizeof buf, "%.0f MB", b / (1024.0 * 1024));
    else
        std::snprintf(buf, sizeof buf, "%.0f kB", b / 1024.0);
    return buf;
}

}  // namespace contend
