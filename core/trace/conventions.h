#pragma once
// The one place that knows the names profilers write: Kineto's event categories, Ascend's task
// types and processes, PyTorch's ProfilerStep#N markers, the device-side wait and signal tasks.
// Readers tag slices with what these names mean (SliceFlags, Track kinds) as they add them, or,
// where the meaning depends on metadata that may come later in the file (a process's name),
// once with tagByConventions() before TraceBuilder::finalize(), which does structure only. The
// analyses read the flags; the few that must look at a name ask here.
//
// The format values and their names are core/trace/trace_format.h's, the readers'
// table core/io/reader_table.h's.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/trace/trace_format.h"

namespace contend {

class TraceBuilder;

namespace conventions {

// --- Processes -------------------------------------------------------------------------------
// Ascend's NPU streams live under this process (text export and database alike).
inline constexpr std::string_view kAscendHardwareProcess = "Ascend Hardware";
// Ascend's communication (HCCL) tasks: a second copy of the collective ops, on their own process.
inline constexpr std::string_view kHcclProcess = "HCCL";

// --- PyTorch ---------------------------------------------------------------------------------
// The iteration markers torch.profiler writes: "ProfilerStep#N".
inline constexpr std::string_view kProfilerStepPrefix = "ProfilerStep#";
bool isProfilerStepName(std::string_view name);

// --- Kineto (and legacy autograd-profiler) categories -----------------------------------------
// Device activity: kernels, copies, fills (and MTIA's command-processor events).
bool isDeviceCategory(std::string_view cat);
// Copies and fills on the device.
bool isMemoryCategory(std::string_view cat);
// Host-side runtime/driver calls that launch device work.
bool isLaunchCategory(std::string_view cat);
// The host waiting for the device (cudaDeviceSynchronize and friends, as Kineto logs them).
bool isSyncCategory(std::string_view cat);
// Any category only Kineto writes: tells a Kineto trace from plain Chrome JSON.
bool isKinetoCategory(std::string_view cat);
// The SliceFlags a Kineto category implies (0 for any other).
std::uint8_t sliceFlagsOfCategory(std::string_view cat);

// --- Ascend task types: the database's names -------------------------------------------------
// The profiler database's TASK table writes the runtime's names, the text export's
// trace_view.json ("Task Type") the hardware queue entry's. The text export's name for a
// database name where they map one to one (EVENT_WAIT -> EVENT_WAIT_SQE, EVENT_RECORD ->
// EVENT_RECORD_SQE, PROFILING_ENABLE/DISABLE -> PLACE_HOLDER_SQE, STARS_COMMON -> DSA_SQE); any
// other name unchanged.
std::string_view ascendTextTaskType(std::string_view databaseTaskType);
// Database task types that copy host<->device memory (the text export: SDMA_SQE, PCIE_DMA_SQE).
bool isAscendDatabaseCopyTaskType(std::string_view databaseTaskType);
// Database task types of kernel launches (the AI Core and AI Vector queues).
bool isAscendDatabaseKernelTaskType(std::string_view databaseTaskType);

// --- Device-side waits -------------------------------------------------------------------------
// Ascend task types that wait for or signal another stream, the host or a peer (not resource
// use): the trace_view.json spellings (EVENT_WAIT_SQE, EVENT_RECORD_SQE, NOTIFY_WAIT_SQE,
// PLACE_HOLDER_SQE, Notify Wait, Write Value) and the database's: NOTIFY_WAIT, and every name
// ascendTextTaskType maps to a wait (EVENT_WAIT, EVENT_RECORD, PROFILING_ENABLE/DISABLE), so
// that a run gets the same verdicts from either export.
bool isWaitTaskType(std::string_view taskType);
// Device-side sync primitives logged as activities by name (MTIA's event_record / event_wait).
bool isWaitActivityName(std::string_view name);
// Ascend task types that move memory (SDMA and other DMA engines, Memcpy, Reduce Inline).
bool isMemoryTaskType(std::string_view taskType);
// Device activities that are DMA requests, which a device queue runs several of at once (MTIA's
// firmware streams' dma_request): flagged kSliceDma, so the finalize step's check of one
// operator at a time per stream leaves them alone, as it leaves copies (Ascend's SDMA tasks of
// one stream run on several channels at once).
bool isDmaRequestName(std::string_view name);

// --- The pass before finalize -------------------------------------------------------------------
// Tags what process names and step names mean, over every slice added so far (B/E pairs
// included): the tracks of the Ascend Hardware process become device streams, their tasks
// (instants aside) device slices, with their wait and memory task types flagged; every slice
// named ProfilerStep#N becomes a step marker; device DMA requests are flagged kSliceDma. Readers call it once, after all metadata is in.
void tagByConventions(TraceBuilder& builder);

}  // namespace conventions
}  // namespace contend
