#pragma once
// HTA's name rules, as its documentation and source (hta/common/types.py, hta/utils/utils.py,
// snapshot f4d0062) state them, so that the breakdowns sort operations as HTA does: which kernels
// compute or communicate, the copy kind of a copy, which host calls enqueue work on a stream,
// and the two thresholds HTA uses. These are the analysis' rules, not a format's names (those are
// core/trace/conventions.h's).
#include <cstdint>
#include <string>
#include <string_view>

#include "core/trace/types.h"

namespace contend::breakdowns {

enum class KernelType : std::uint8_t { Communication, Memory, Compute, Other };

// HTA's get_kernel_type: communication (nccl*, hip*, hccl*, *ncclKernel*) first, then memory
// (Memcpy*, Memset*, hipMemcpy*, hipMemset*, dma*), then compute (everything not matching
// HTA's non-compute list: *Memcpy*, *Memset*, *dma*, *Sync*, Stream Wait Event, cuda*LaunchKernel*,
// runFunction*, job_exe*, packet*, pe_exe*, cpum_exe_subgraph*, collective_subgraph_execution*),
// else other.
KernelType kernelType(std::string_view name);

// HTA's get_memory_kernel_type: "Memset" for Memset*, the first 11 characters for Memcpy*
// ("Memcpy DtoD"), else "Memcpy Unknown".
std::string copyKind(std::string_view name);

// The host calls HTA counts as putting work on a stream (queue length, launch statistics):
// cudaLaunchKernel, cudaLaunchKernelExC, cuLaunchKernel, cuLaunchKernelEx, cudaMemcpyAsync,
// cudaMemsetAsync and their HIP twins. Nsight Systems' versioned names
// ("cudaLaunchKernel_v7000") count as theirs. A launch call of another runtime (Ascend's), which
// HTA does not know, counts when the reader flagged it as a launch (`isLaunchFlagged`).
bool isEnqueueCall(std::string_view name, bool isLaunchFlagged);

// Host ranges that annotate work: Kineto's user_annotation, Nsight Systems' NVTX ranges.
bool isAnnotationCategory(std::string_view category);

// HTA's consecutive_kernel_delay: a gap shorter than this between two operations on a stream,
// not caused by the host, is kernel wait. HTA's default is 30 in the trace's unit (the docs say
// ns; Kineto writes microseconds, so it acts as 30 us on every trace HTA reads).
inline constexpr TimeNs kKernelWaitNs = 30'000;
// HTA's CUDA_MAX_LAUNCH_QUEUE_PER_STREAM: a stream's queue is full from this many.
inline constexpr std::int64_t kFullQueue = 1024;

}  // namespace contend::breakdowns
