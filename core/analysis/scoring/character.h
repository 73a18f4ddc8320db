#pragma once
// What each signature leans on, and how that is known: its resource "character".
//
// Sources, strongest first (the first that speaks wins; data beats names where they disagree):
//   measured  Nsight Compute's rule on per-kernel CUPTI metrics (Kineto's cuda_profiler_range,
//             each kernel replayed alone): the median over its runs of
//             sm__throughput.avg.pct_of_peak_sustained_elapsed (compute) and of
//             gpu__compute_memory_throughput / dram__throughput / gpu__dram_throughput
//             .avg.pct_of_peak_sustained_elapsed (memory); the larger at >= kVendorBound (80% of
//             peak) makes it compute- or memory-bound; below that it is bound by neither and
//             the next sources (args, names) speak;
//             else Ascend per-task pipe ratios (TASK_PMU_INFO, kernel_details.csv), where the
//             signature's tasks carry them, by the vendor advisor's thresholds on their medians:
//             aic_mac_ratio / aiv_vec_ratio > kAscendComputeBound -> compute-bound,
//             aic_mte2_ratio / aiv_mte2_ratio > kAscendMte2Bound -> memory-bound (both: the
//             larger margin); below both the ratios decide nothing and the sources below speak;
//             else its own demand from counters that resolve it (pressure.h: alone, beside known
//             neighbours, or a per-op metric such as Ascend's aic_mac_ratio / aiv_mte2_ratio or
//             Kineto's dram__throughput): bandwidth >= kHeavyDemand and above compute ->
//             memory-bound; compute >= kHeavyDemand -> compute-bound
//   args      a copy or fill with a byte count (memory-bound by definition)
//   names     kernel-name families: cuBLAS/CUTLASS/cuDNN gemm and conv, attention (flash,
//             fmha, sdpa), Ascend MatMul/Conv/FlashAttention -> compute-bound; ATen
//             elementwise/vectorized, reduce, softmax, norm, index/scatter/gather, cat/concat,
//             transpose/layout, pool, resize/upsample, Triton pointwise (triton_poi) and
//             reductions (triton_red/per), memcpy/memset -> memory-bound; NCCL/HCCL ->
//             collective; Ascend task types AI_VECTOR_CORE -> memory-bound, AI_CORE (cube)
//             -> compute-bound, AI_CPU -> unknown
//   none      unknown (roi_align, nms, custom kernels): partners may still tell (causes.h)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/inputs/signatures.h"
#include "core/analysis/scoring/pressure.h"

namespace contend {

enum class Character : std::uint8_t { Memory, Compute, Collective, Unknown };
inline constexpr std::size_t kCharacterCount = 4;
const char* characterName(Character c);  // "memory-bound", "compute-bound", "collective", "unknown"

enum class CharacterSource : std::uint8_t { Measured, Args, Names, None };
const char* characterSourceName(CharacterSource s);  // "counters", "args", "name", "none"

// Own demand (0..1 of the resource) that makes a signature bound by it when measured.
inline constexpr double kHeavyDemand = 0.45;
// Nsight Compute's "GPU Speed Of Light": a kernel at or above 80% of peak compute (SM) or memory
// throughput is bound by it.
inline constexpr double kVendorBound = 0.80;
// Ascend's advisor (msprof-analyze, AI Core performance): a cube task is mac-bound above 0.8 of
// its time in the MAC pipe, mte2-bound above 0.95 in MTE2 (reads from global memory); vector
// tasks the same with aiv_vec_ratio and aiv_mte2_ratio.
inline constexpr double kAscendComputeBound = 0.8;
inline constexpr double kAscendMte2Bound = 0.95;

// The Ascend pipe-ratio verdict for a signature (medians over its occurrences): Compute,
// Memory, or Unknown when its tasks carry the ratios but none is above its threshold; nullopt
// when they carry none.
std::optional<Character> ascendPipeCharacter(const Trace& trace, const OperatorSet& ops, std::uint32_t signature);

struct SignatureCharacter {
    Character character = Character::Unknown;
    CharacterSource source = CharacterSource::None;
};

// From the name alone (and the Ascend task type when given): for tests and the per-type view.
Character characterFromName(std::string_view name, std::string_view taskType = {});

std::vector<SignatureCharacter> signatureCharacters(const Trace& trace, const OperatorSet& ops,
                                                    const PressureResult& pressure);

}  // namespace contend
