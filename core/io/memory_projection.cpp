#include "core/io/memory_projection.h"

#include <algorithm>

#include "core/io/memory_budget.h"

namespace contend {

double readerFixedBytes(std::size_t chunkBytes, std::size_t bufferBytes, std::uint64_t fileBytes, bool gzip) {
    double fixed = kFixedChunks * static_cast<double>(chunkBytes) + static_cast<double>(bufferBytes);
    if (fileBytes && !gzip) fixed = std::min(fixed, 3.0 * static_cast<double>(fileBytes));
    return fixed;
}

LoadMemoryVerdict projectLoadMemory(const LoadMemoryState& s) {
    LoadMemoryVerdict v;
    const double peakNow = s.modelBytes * kFinalizePeakFactor + s.fixedBytes;
    v.projected = s.fractionRead >= kProjectFromFraction && s.fractionRead < 1.0;
    const double projected = v.projected ? s.modelBytes / s.fractionRead * kFinalizePeakFactor + s.fixedBytes : peakNow;
    v.fits = peakNow <= s.budgetBytes && (!v.projected || projected <= s.budgetBytes * kProjectionMargin);
    v.needBytes = std::max(peakNow, projected);
    return v;
}

std::string loadMemoryRefusal(const LoadMemoryVerdict& v, const LoadMemoryState& s, std::uint64_t budgetBytes,
                              bool budgetIsDefault, std::uint64_t stoppedAtByte) {
    return "loading this trace needs about " + formatBytes(static_cast<std::uint64_t>(v.needBytes)) +
           (v.projected
                ? " (estimated after reading " + std::to_string(static_cast<int>(s.fractionRead * 100)) + "% of it)"
                : "") +
           " and the budget is " + formatBytes(budgetBytes) +
           (budgetIsDefault ? " (three quarters of the memory available)" : " (the limit set)") + "; stopped at byte " +
           std::to_string(stoppedAtByte) +
           " before the system runs out. Close other programs, use a machine with more memory, or set the limit (" +
           kSetMemoryLimitHint + ")";
}

std::optional<std::string> eventGrowthRefusal(std::size_t bufferBytes, std::uint64_t budgetBytes,
                                              std::uint64_t eventAtByte) {
    if (static_cast<double>(bufferBytes) * 3.0 <= static_cast<double>(budgetBytes)) return std::nullopt;
    return "the event at byte " + std::to_string(eventAtByte) + " is larger than " + formatBytes(bufferBytes / 2) +
           " and reading it needs about " + formatBytes(bufferBytes * 3) + ", more than the budget of " +
           formatBytes(budgetBytes) + " (" + kSetMemoryLimitHint + ")";
}

}  // namespace contend
