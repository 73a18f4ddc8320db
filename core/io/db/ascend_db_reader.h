#pragma once
// Reader for the Ascend profiler databases: torch_npu's `ascend_pytorch_profiler_{rank}.db`
// (export_type=db, in ASCEND_PROFILER_OUTPUT/, with analysis.db beside it) and msprof's
// `msprof_*.db`. Times are ns on the Unix epoch, as the tables hold them. Columns are looked up
// by name (blockDim / blockNum / block_dim drift between releases), absent tables are
// tolerated, and the slices come out as the text export's trace_view.json + kernel_details.csv
// make them (core/io/json/chunk_parser.cpp, ascend_join.cpp), so the analyses see the same shapes:
//   TASK (+ COMPUTE_TASK_INFO, STRING_IDS) -> device slices on process "Ascend Hardware",
//     thread "Stream N" (tid = stream id): name = the operator's name, else the task type;
//     SliceInfo stream / taskId / correlation (connectionId) / device; taskType = the
//     accelerator core of COMPUTE_TASK_INFO (AI_CORE, AI_VECTOR_CORE, MIX_AIV, ...), else the
//     TASK type with the text export's SQE names (EVENT_WAIT -> EVENT_WAIT_SQE, ...); shape =
//     Input Shapes; waitNs; metrics "Block Dim", "Mix Block Dim"
//   TASK_PMU_INFO -> per-task metrics under kernel_details.csv's column names
//     (aic_mac_ratio, aiv_mte2_ratio, ...; *_time in us as "aic_mac_time(us)", aicore_time(us),
//     aiv_time(us))
//   COMMUNICATION_TASK_INFO -> the task's twin on process "HCCL", thread "Plane N", named by
//     its task type (Memcpy, Notify_Wait, ...), metric "bandwidth(GB/s)" (size / duration);
//     COMMUNICATION_OP -> the collective on thread "Group N Communication"
//   CANN_API -> host slices on process "CANN" ("AscendCL@aclrtMemcpyAsync", "Node@launch"),
//     launches flagged kSliceLaunch; PYTORCH_API -> host slices on process "Python" (cpu_op,
//     enqueue/dequeue, python_function; Input Shapes); MSTX_EVENTS -> host ranges (mstx)
//   CONNECTION_IDS / connectionId -> flows HostToDevice (CANN -> task), async_npu (PyTorch op
//     -> task), async_task_queue (enqueue -> dequeue), fwdbwd
//   HBM / DDR / LLC / ACC_PMU / SOC_BANDWIDTH_LEVEL / AICORE_FREQ -> counter series named as
//     the text export names them ("HBM 0/Read" Read(MB/s), "LLC 0 Read/Hit Rate" Hit Rate(%),
//     "AI Core Freq" MHz, ...; bandwidths converted from B/s to MB/s, 1 MB = 10^6 B)
//   STEP_TIME -> "ProfilerStep#N" step markers (unless PYTORCH_API already has that step)
// A file with several devices (msprof on a server) gives each device its own processes under
// the same names, with "NPU d " before its thread and series names.
// Import statistics count rows per table (phases "task", "compute_task", "communication_task",
// "communication_op", "cann_api", "pytorch_api", "mstx", "pmu", "counter", "step").
#include <optional>
#include <string>
#include <vector>

#include "core/io/load_options.h"
#include "core/io/reader_entry.h"
#include "core/trace/trace_builder.h"

namespace contend {

class SqliteDb;

// An Ascend profiler database has TASK and STRING_IDS (`tables`: the database's table names,
// Probe::sqliteTables).
bool isAscendDatabase(const std::vector<std::string>& tables);

// Reads the database at `path` (already opened as `db`) into `b`. The error names the file and,
// where it is about one, the table and column.
std::optional<Failure> readAscendDb(const SqliteDb& db, const std::string& path, TraceBuilder& b,
                                    const LoadOptions& options);

// The reader table's entry (core/io/reader_entry.h): an SQLite database isAscendDatabase
// accepts, read as kAscendDbFormat (its row of the format table, core/trace/trace_format.h).
extern const FormatInfo kAscendDbFormat;
extern const ReaderEntry kAscendDbReader;
// The refusal of the analysis.db an Ascend profiler writes beside its database (summary tables
// only, no trace), which tells where the trace is; in the table after the unreadable-database
// refusal and before the refusal of any other database.
extern const ReaderEntry kAscendAnalysisDbRefusal;

}  // namespace contend
