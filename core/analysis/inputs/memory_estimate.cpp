#include "core/analysis/inputs/memory_estimate.h"

#include <cstdio>

namespace contend {

namespace {

std::string megabytes(std::uint64_t bytes) {
    char buf[48];
    if (bytes >= (1ull << 30))
        std::snprintf(buf, sizeof buf, "%.1f GB", static_cast<double>(bytes) / static_cast<double>(1ull << 30));
    else
        std::snprintf(buf, sizeof buf, "%.0f MB", static_cast<double>(bytes) / static_cast<double>(1ull << 20));
    return buf;
}

}  // namespace

std::uint64_t prepareBytesEstimate(std::size_t operators, std::size_t slices, std::size_t overlapPairs) {
    return kBytesPerOperator * operators + kBytesPerSlice * slices + kBytesPerOverlapPair * overlapPairs;
}

std::uint64_t reportBytesEstimate(std::size_t anomalies, std::size_t windowOps) {
    return kBytesPerAnomaly * anomalies + kBytesPerWindowOp * windowOps;
}

std::string analysisMemoryMessage(const std::string& what, std::uint64_t needed, std::uint64_t headroom) {
    return "not enough memory: " + what + " needs about " + megabytes(needed) + " more, and the memory budget leaves " +
           megabytes(headroom) + " (contend-cli --max-memory SIZE, or CONTEND_MAX_MEMORY=SIZE for the app; 0 for none)";
}

}  // namespace contend
