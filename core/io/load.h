#pragma once
// Entry point of the readers: open a trace file (Chrome/Kineto/Ascend JSON, optionally gzip) or
// an Ascend profiler output folder and build the immutable Trace. Never throws for bad input and
// never exits: problems come back as a Failure (core/common/failure.h) naming the file and the place.
#include <string>
#include <string_view>

#include "core/io/load_options.h"

namespace contend {

LoadResult loadTrace(const std::string& path, const LoadOptions& options = {});

// Reads a whole Chrome/Kineto/Ascend JSON trace from memory (tests, fuzzers). `name` is used in
// messages in place of a file name.
LoadResult loadTraceFromMemory(std::string_view json, const std::string& name, const LoadOptions& options = {});

}  // namespace contend
