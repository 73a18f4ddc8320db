#pragma once
// Reader for NVIDIA Nsight Systems SQLite exports (`nsys export --type sqlite`). Columns are
// looked up by name, absent tables and optional columns are tolerated, and the slices come out
// as the Kineto reader makes them, so the analyses see the same shapes:
//   CUPTI_ACTIVITY_KIND_KERNEL / MEMCPY / MEMSET -> device slices on pid "GPU <deviceId>",
//     tid "stream <streamId>" (categories kernel / gpu_memcpy / gpu_memset; shape
//     "grid=[x, y, z] block=[x, y, z]"; metrics "bytes", "registers per thread", "shared memory")
//   CUPTI_ACTIVITY_KIND_RUNTIME -> host slices (cuda_runtime) on pid/tid from globalTid, names
//     from StringIds without the "_v7000" version suffix; launches flagged kSliceLaunch, so the
//     builder links kernels to them by correlation id
//   CUPTI_ACTIVITY_KIND_SYNCHRONIZATION -> host slices (cuda_sync) named by kind
//     ("cudaStreamSynchronize", "cudaEventSynchronize", "cudaStreamWaitEvent", ...) on the
//     thread of the runtime call with the same correlation id
//   NVTX_EVENTS -> host ranges (nvtx; ProfilerStep#N becomes a step marker) and marks
//   GPU_METRICS + TARGET_INFO_GPU_METRICS -> one counter series per (GPU, metric)
// Times stay as the export writes them: ns since the session start
// (TARGET_INFO_SESSION_START_TIME.utcEpochNs, which Source::details records).
#include <optional>
#include <string>
#include <vector>

#include "core/io/load_options.h"
#include "core/io/reader_entry.h"
#include "core/trace/trace_builder.h"

namespace contend {

class SqliteDb;

// An Nsight Systems export has CUPTI_ACTIVITY_KIND_KERNEL, or TARGET_INFO_SESSION_START_TIME
// together with StringIds (`tables`: the database's table names, Probe::sqliteTables).
bool isNsysDatabase(const std::vector<std::string>& tables);

// Reads the export at `path` (already opened as `db`) into `b`. The error names the file and,
// where it is about one, the table and column.
std::optional<Failure> readNsysSqlite(const SqliteDb& db, const std::string& path, TraceBuilder& b,
                                      const LoadOptions& options);

// The reader table's entries (core/io/reader_entry.h): an SQLite database isNsysDatabase
// accepts, read as kNsysSqliteFormat (its row of the format table, core/trace/trace_format.h);
// and the refusal of an Nsight Systems report
// (.nsys-rep, or .qdrep before 2021.3: a container Nsight opens, known by its extension), which
// says how to export it.
extern const FormatInfo kNsysSqliteFormat;
extern const ReaderEntry kNsysSqliteReader;
extern const ReaderEntry kNsysReportRefusal;

}  // namespace contend
