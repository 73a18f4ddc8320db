#pragma once
// Entry point of the readers: open a trace file (Chrome/Kineto/Ascend JSON, optionally gzip) or
// an Ascend profiler output folder and build the immutable Trace. Never throws for bad input and
// never exits: problems come back as a LoadError naming the file and the place.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/trace/trace.h"

namespace contend {

struct LoadError {
    // What went wrong, for code to decide on (the reason is for people: never match it).
    enum class Kind : std::uint8_t {
        Other,        // not classified (yet) by the reader that failed
        Unreadable,   // the file cannot be opened or read (missing, permissions, I/O)
        Malformed,    // the file is broken at a place (offset/line/column say where)
        NotATrace,    // readable, but not a format Contend reads
        OutOfMemory,  // the load would need more memory than its budget
        Cancelled,    // LoadOptions::progress asked to stop
        Unsupported,  // this machine cannot read it (a CPU without AVX2)
        Internal,     // a bug in Contend
    };
    std::string file;
    std::int64_t offset = -1;  // byte offset in the (decompressed) file, -1 if not about a place
    std::int64_t line = -1;    // 1-based
    std::int64_t column = -1;  // 1-based
    std::string reason;
    Kind kind = Kind::Other;
    // "trace.json: byte 1048576 (line 2301, column 17): expected ',' or '}'"
    std::string message() const;
};

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
    // kNoMemoryLimit: no limit. A trace that needs more stops with a LoadError of kind
    // OutOfMemory (reason starting "not enough memory") as soon as that is clear, instead of
    // running the system out of memory.
    std::uint64_t memoryLimitBytes = 0;
};

inline constexpr std::uint64_t kNoMemoryLimit = ~std::uint64_t{0};
// The budget memoryLimitBytes stands for on this machine now (kNoMemoryLimit when unknown).
std::uint64_t effectiveMemoryBudget(const LoadOptions& options);
// CONTEND_MAX_MEMORY parsed (kNoMemoryLimit for "0"); nullopt when unset or not a size.
std::optional<std::uint64_t> memoryLimitFromEnvironment();

struct LoadResult {
    TracePtr trace;
    std::optional<LoadError> error;
    bool cancelled = false;
    explicit operator bool() const { return trace != nullptr; }
};

LoadResult loadTrace(const std::string& path, const LoadOptions& options = {});

// Reads a whole Chrome/Kineto/Ascend JSON trace from memory (tests, fuzzers). `name` is used in
// messages in place of a file name.
LoadResult loadTraceFromMemory(std::string_view json, const std::string& name, const LoadOptions& options = {});

}  // namespace contend
