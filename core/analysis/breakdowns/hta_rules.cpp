#include "core/analysis/breakdowns/hta_rules.h"

#include <array>

namespace contend::breakdowns {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

bool isCommunication(std::string_view n) {
    return startsWith(n, "nccl") || startsWith(n, "hip") || startsWith(n, "hccl") || contains(n, "ncclKernel");
}

bool isMemory(std::string_view n) {
    return startsWith(n, "Memcpy") || startsWith(n, "hipMemcpy") || startsWith(n, "Memset") ||
           startsWith(n, "hipMemset") || startsWith(n, "dma");
}

// HTA's compute pattern is the inverse of this list (a match at the start, `.*` allowed).
bool isNonCompute(std::string_view n) {
    constexpr std::array<std::string_view, 10> prefixes = {"nccl",        "Stream Wait Event",
                                                           "runFunction", "hip",
                                                           "job_exe",     "packet",
                                                           "pe_exe",      "cpum_exe_subgraph",
                                                           "hccl",        "collective_subgraph_execution"};
    for (std::string_view p : prefixes)
        if (startsWith(n, p)) return true;
    if (contains(n, "Memcpy") || contains(n, "Memset") || contains(n, "dma") || contains(n, "Sync")) return true;
    // cuda.*LaunchKernel
    return startsWith(n, "cuda") && contains(n.substr(4), "LaunchKernel");
}

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel".
std::string_view withoutVersion(std::string_view n) {
    const std::size_t v = n.rfind("_v");
    if (v == std::string_view::npos || v + 2 == n.size()) return n;
    for (std::size_t i = v + 2; i < n.size(); ++i)
        if (n[i] < '0' || n[i] > '9') return n;
    return n.substr(0, v);
}

}  // namespace

KernelType kernelType(std::string_view name) {
    if (isCommunication(name)) return KernelType::Communication;
    if (isMemory(name)) return KernelType::Memory;
    if (!isNonCompute(name)) return KernelType::Compute;
    return KernelType::Other;
}

std::string copyKind(std::string_view name) {
    if (startsWith(name, "Memset")) return "Memset";
    if (!startsWith(name, "Memcpy")) return "Memcpy Unknown";
    return std::string(name.substr(0, 11));
}

bool isEnqueueCall(std::string_view name, bool isLaunchFlagged) {
    constexpr std::array<std::string_view, 11> calls = {
        "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel",     "cuLaunchKernelEx",
        "cudaMemcpyAsync",  "cudaMemsetAsync",     "hipLaunchKernel",    "hipExtModuleLaunchKernel",
        "hipMemsetAsync",   "hipMemcpyAsync",      "hipMemcpyWithStream"};
    const std::string_view n = withoutVersion(name);
    for (std::string_view c : calls)
        if (n == c) return true;
    // MTIA's launch, as HTA names it.
    if (n == "runFunction - job_prep_and_submit_for_execution") return true;
    const bool cudaOrHip = startsWith(n, "cu") || startsWith(n, "hip");
    return !cudaOrHip && isLaunchFlagged;
}

bool isAnnotationCategory(std::string_view category) { return category == "user_annotation" || category == "nvtx"; }

}  // namespace contend::breakdowns
