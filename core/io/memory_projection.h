#pragma once
// The JSON reader's memory policy, as pure functions: from what the model holds and how much of
// the file it stands for, does the whole load fit its budget? And the text the user reads when
// it does not. A load that will not fit stops early with that text instead of running the
// system out of memory (memory_budget.h says where the budget comes from).
#include <cstdint>
#include <optional>
#include <string>

namespace contend {

// Peak memory of a load, from what the model holds when reading ends (TraceBuilder::
// memoryBytes): finishing it (sorting, pairing, indexing) needs about 2.2 times that, and the
// reader's buffers and parsers a fixed dozen chunks. Fitted on Kineto-shaped and simulated
// traces of 0.1M-1M events (`contend-cli bench-load` prints model size and peak RSS).
inline constexpr double kFinalizePeakFactor = 2.2;
inline constexpr double kFixedChunks = 12.0;
// Before this fraction of the file is read its density says too little to project from.
inline constexpr double kProjectFromFraction = 0.05;
// A projection is refused only past budget * this: an estimate near the budget may still fit.
inline constexpr double kProjectionMargin = 1.25;

struct LoadMemoryState {
    double modelBytes = 0;    // what the model holds now
    double fixedBytes = 0;    // the reader's buffers and parsers (readerFixedBytes)
    double fractionRead = 0;  // of the file the model stands for, 0..1 (0: size unknown)
    double budgetBytes = 0;
};

struct LoadMemoryVerdict {
    bool fits = true;
    double needBytes = 0;    // the larger of the peak now and the projected peak
    bool projected = false;  // the file's density was projected to its end
};

// Bytes the reader holds besides the model: a dozen chunks and its buffer; for a small plain
// file no more than three times its text (the chunks never fill). fileBytes 0: unknown.
double readerFixedBytes(std::size_t chunkBytes, std::size_t bufferBytes, std::uint64_t fileBytes, bool gzip);

// The projection: the peak now must fit, and once a twentieth of the file is read (and before
// its end) the peak projected from the density so far must fit within the margin.
LoadMemoryVerdict projectLoadMemory(const LoadMemoryState& state);

// How the user sets the budget, for messages.
inline constexpr const char* kSetMemoryLimitHint =
    "contend-cli --max-memory SIZE, or CONTEND_MAX_MEMORY=SIZE for the app; 0 for none";

// "loading this trace needs about 3.1 GB (estimated after reading 12% of it) and the budget is
// 2.0 GB (the limit set); stopped at byte N before the system runs out. ..." (without the
// "not enough memory: " the reader puts in front). budgetIsDefault: the budget is three quarters
// of the memory available, not a limit the user set.
std::string loadMemoryRefusal(const LoadMemoryVerdict& verdict, const LoadMemoryState& state, std::uint64_t budgetBytes,
                              bool budgetIsDefault, std::uint64_t stoppedAtByte);

// One event bigger than a chunk grows the buffer (to twice what it holds), which goes to a
// worker while a chunk-sized one takes the bytes after it, and a repair of invalid UTF-8 copies
// it once more: about three times the event. The refusal text when that passes the budget
// (`bufferBytes` is the buffer the event needs), nullopt when it fits.
std::optional<std::string> eventGrowthRefusal(std::size_t bufferBytes, std::uint64_t budgetBytes,
                                              std::uint64_t eventAtByte);

}  // namespace contend
