#pragma once
// Which slices the engine analyses (the "operators") and how their occurrences group into
// signatures: the same kernel name with the same launch shape (grid/block), copy size and
// launching op's input shapes is one signature, so a conv at two batch sizes gets two
// baselines.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/trace.h"

namespace contend {

struct SignatureKey {
    StringId name = 0;
    StringId shape = 0;       // 0 when the trace gives no shape/grid
    std::int64_t bytes = -1;  // copy/fill size (Kineto "bytes"), -1 when not given
    StringId inputs = 0;      // input shapes of the framework op that launched it, 0 if unknown
    std::string text;         // "name", "name [shape]", "name [bytes=N]"
    std::string opType;       // coarse type, see operatorType()
};

struct OperatorSet {
    // Analysed operators ("ops"), as slice indices in trace order (by track, then start).
    std::vector<std::uint32_t> slices;
    std::vector<std::uint32_t> opOfSlice;    // per slice: op index, kNone when not analysed
    std::vector<std::uint32_t> signatureOf;  // per op
    std::vector<SignatureKey> signatures;
    // Occurrences grouped by signature (CSR): ops of signature s are
    // sigOps[sigBegin[s] .. sigBegin[s+1]), in trace order.
    std::vector<std::uint32_t> sigBegin;
    std::vector<std::uint32_t> sigOps;
    // False when the trace has no device operators and host slices were taken instead.
    bool deviceScope = true;
    // Timer resolution of the operators, ns: 1000 when (nearly) every start and duration is a
    // whole microsecond (older Kineto and Chrome JSON), else 1.
    TimeNs resolutionNs = 1;

    std::size_t size() const { return slices.size(); }
};

// A device operator the engine analyses: a kernel, NPU task, memcpy or memset with a duration,
// not a wait task (EVENT_WAIT_SQE, Notify Wait, cuda_sync: waiting is not resource use).
// Also accepts Ascend NPU tasks whose track lost its "Ascend Hardware" name (they still carry a
// "Task Type"), so the analysis does not depend on how the reader named the process.
bool isDeviceOperator(const Trace& trace, std::uint32_t slice);
// A wait task by its Ascend task type or the kSliceWait flag.
bool isWaitTask(const Trace& trace, std::uint32_t slice);

// A host call that waits for the device (cudaStreamSynchronize, cudaDeviceSynchronize,
// cudaEventSynchronize, cudaStreamWaitEvent, aclrtSynchronizeStream/Device...).
bool isSyncCall(std::string_view name);

// Coarse operator type from the name, for the per-type view: "matmul", "conv", "attention",
// "norm", "softmax", "reduce", "elementwise", "memcpy", "memset", "comm", "other".
std::string operatorType(std::string_view name);

// A copy or fill signature (memcpy / memset by name, or a DMA task flagged as memory).
bool isCopySignature(const Trace& trace, const OperatorSet& ops, std::uint32_t signature);

// Elides a long kernel name for an evidence line or a note: at most 60 characters.
std::string shortName(std::string_view name);

// Device operators by default; when the trace has none, host slices (not instants, not step
// markers) so Chrome and CPU-only traces still get baselines and anomalies.
OperatorSet selectOperators(const Trace& trace);

}  // namespace contend
