#pragma once
// Chrome trace-event JSON reader (Chrome, Kineto/PyTorch profiler, Ascend trace_view.json).
// Streams the file in chunks of whole events and parses each chunk with simdjson On-Demand, so
// memory stays at one chunk plus the model however large the file is.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/io/byte_source.h"
#include "core/io/load_options.h"
#include "core/io/reader_entry.h"
#include "core/trace/trace_builder.h"

namespace contend {

using SourceFactory = std::function<std::unique_ptr<ByteSource>(std::string& error)>;

// Reads the events of one JSON trace into `builder` (format, base time, tracks, slices, counters,
// flows, stats). `name` is the file name used in messages. Returns an error for a file that is not
// a trace or is broken; a truncated file loads what is complete and sets stats().truncated.
std::optional<Failure> readChromeJson(const SourceFactory& open, const std::string& name, TraceBuilder& builder,
                                      const LoadOptions& options);

// readChromeJson on the file at `path` (gzip inflated on a thread of its own), then the Source:
// the path and whether it was gzip.
std::optional<Failure> readJsonFile(const std::string& path, TraceBuilder& builder, const LoadOptions& options);
// readChromeJson on JSON in memory (loadTraceFromMemory); `name` is the Source's path.
std::optional<Failure> readJsonMemory(std::string_view json, const std::string& name, TraceBuilder& builder,
                                      const LoadOptions& options);

// The reader table's entries (core/io/reader_entry.h): any path no entry before it took, read
// as JSON (TraceFormat Chrome, Kineto or Ascend by what the events say; a path that cannot be
// opened fails here); and a folder with exactly one PyTorch trace file in it
// (*.pt.trace.json(.gz), as tensorboard writes them), which reads that file.
// The rows of the format table (core/trace/trace_format.h) the JSON reader gives beside the
// generic kChromeFormat: PyTorch profiler (Kineto) JSON and an Ascend trace_view.json on its own.
extern const FormatInfo kKinetoFormat;
extern const FormatInfo kAscendFormat;
extern const ReaderEntry kChromeJsonReader;
extern const ReaderEntry kKinetoFolderReader;

}  // namespace contend
