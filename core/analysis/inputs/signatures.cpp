#include "core/analysis/inputs/signatures.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "core/trace/conventions.h"

namespace contend {

namespace {

bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

}  // namespace

bool isWaitTask(const Trace& trace, std::uint32_t slice) {
    if (trace.slices()[slice].is(kSliceWait)) return true;
    // Device-side sync primitives logged as activities by name: they wait or signal, they do
    // not use the device.
    if (conventions::isWaitActivityName(trace.str(trace.slices()[slice].name))) return true;
    const StringId type = trace.infos()[slice].taskType;
    return type != 0 && conventions::isWaitTaskType(trace.str(type));
}

bool isDeviceOperator(const Trace& trace, std::uint32_t slice) {
    const Slice& s = trace.slices()[slice];
    if (s.dur <= 0 || s.is(kSliceInstant)) return false;
    const SliceInfo& info = trace.infos()[slice];
    const bool device = s.is(kSliceDevice) || (info.taskType != 0 && info.stream >= 0);
    return device && !isWaitTask(trace, slice);
}

bool isSyncCall(std::string_view n) {
    return contains(n, "Synchronize") || contains(n, "StreamWaitEvent") || contains(n, "aclrtSynchronize");
}

std::string operatorType(std::string_view raw) {
    std::string n(raw);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    // Order matters: "memcpy" before "copy"-ish elementwise, comm before reduce (allreduce).
    if (contains(n, "memcpy") || contains(n, "memory copy") || contains(n, "dma")) return "memcpy";
    if (contains(n, "memset") || contains(n, "fill")) return "memset";
    if (contains(n, "nccl") || contains(n, "hccl") || contains(n, "hcom") || contains(n, "allreduce") ||
        contains(n, "all_reduce") || contains(n, "allgather") || contains(n, "all_gather") ||
        contains(n, "reducescatter") || contains(n, "reduce_scatter") || contains(n, "alltoall") ||
        contains(n, "broadcast") || contains(n, "sendrecv"))
        return "comm";
    if (contains(n, "attention") || contains(n, "flash") || contains(n, "fmha") || contains(n, "sdpa"))
        return "attention";
    if (contains(n, "conv") || contains(n, "cudnn") || contains(n, "implicit_gemm") || contains(n, "wgrad") ||
        contains(n, "dgrad"))
        return "conv";
    if (contains(n, "gemm") || contains(n, "matmul") || contains(n, "mm_") || contains(n, "cublas") ||
        contains(n, "cutlass") || contains(n, "linear") || contains(n, "addmm") || n == "mm" || n == "bmm" ||
        contains(n, "batchmatmul"))
        return "matmul";
    if (contains(n, "norm")) return "norm";
    if (contains(n, "softmax")) return "softmax";
    if (contains(n, "reduce") || contains(n, "sum") || contains(n, "mean") || contains(n, "argmax")) return "reduce";
    if (contains(n, "elementwise") || contains(n, "vectorized") || contains(n, "add") || contains(n, "mul") ||
        contains(n, "relu") || contains(n, "gelu") || contains(n, "silu") || contains(n, "cast") ||
        contains(n, "copy") || contains(n, "transdata") || contains(n, "transpose") || contains(n, "pool"))
        return "elementwise";
    return "other";
}

namespace {

// The input shapes of the framework op that launched a kernel: the innermost host slice around
// its launch call that carries "Input Dims" (Kineto puts them on the cpu_op, not the kernel).
// Walks back from the launch over at most kMaxWalk slices of its track; 0 when none.
StringId launcherShape(const Trace& trace, std::uint32_t launch) {
    constexpr std::uint32_t kMaxWalk = 64;
    const auto& slices = trace.slices();
    const Slice& l = slices[launch];
    if (trace.infos()[launch].shape != 0) return trace.infos()[launch].shape;
    const Track& tr = trace.tracks()[l.track];
    std::uint8_t depth = l.depth;
    for (std::uint32_t k = launch, steps = 0; k > tr.sliceBegin && depth > 0 && steps < kMaxWalk; ++steps) {
        --k;
        const Slice& p = slices[k];
        if (p.depth >= depth || p.end() < l.end()) continue;  // a sibling or its child
        depth = p.depth;                                      // an ancestor
        if (trace.infos()[k].shape != 0) return trace.infos()[k].shape;
    }
    return 0;
}

}  // namespace

OperatorSet selectOperators(const Trace& trace) {
    OperatorSet set;
    const auto n = static_cast<std::uint32_t>(trace.slices().size());
    set.opOfSlice.assign(n, kNone);
    // An operator a slice at most: room once (untouched room costs no pages), where growing by
    // doubling faulted in twice the list's size afresh (128 MB at 10M kernels).
    set.slices.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
        if (isDeviceOperator(trace, i)) set.slices.push_back(i);
    if (set.slices.empty()) {
        for (std::uint32_t i = 0; i < n; ++i) {
            const Slice& s = trace.slices()[i];
            if (s.dur > 0 && !s.is(kSliceInstant) && !s.is(kSliceStep)) set.slices.push_back(i);
        }
        set.deviceScope = set.slices.empty();  // nothing at all: report it as the default scope
    }
    const auto ops = static_cast<std::uint32_t>(set.slices.size());
    set.signatureOf.resize(ops);
    // Copies and fills carry their size (Kineto "bytes") instead of a grid: a 4 KB and a 4 MB
    // memcpy are different operations.
    const StringId bytesKey = trace.strings().find("bytes");
    struct Key {
        StringId name, shape;
        std::int64_t bytes;
        StringId inputs;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<std::uint64_t>()((static_cast<std::uint64_t>(k.name) << 32) ^ k.shape) ^
                   (std::hash<std::int64_t>()(k.bytes) * 31) ^ (std::hash<std::uint32_t>()(k.inputs) * 131);
        }
    };
    std::unordered_map<Key, std::uint32_t, KeyHash> index;
    index.reserve(1024);
    for (std::uint32_t op = 0; op < ops; ++op) {
        const std::uint32_t sl = set.slices[op];
        set.opOfSlice[sl] = op;
        const StringId name = trace.slices()[sl].name;
        const SliceInfo& info = trace.infos()[sl];
        std::int64_t bytes = -1;
        if (bytesKey != kNone) {
            for (std::uint32_t k = 0; k < info.metricsCount; ++k) {
                const Metric& m = trace.metrics()[info.metricsBegin + k];
                if (m.key == bytesKey) bytes = static_cast<std::int64_t>(m.value);
            }
        }
        // Kernels of one name and grid run for tensors of different sizes (every batch norm of
        // a ResNet): the launching op's input shapes tell them apart.
        const StringId inputs = set.deviceScope && info.launch != kNone ? launcherShape(trace, info.launch) : 0;
        const Key key{name, info.shape, bytes, inputs};
        // try_emplace: an op of a known signature makes no map node (emplace built one and
        // threw it away: a malloc and a free per op).
        auto [it, added] = index.try_emplace(key, static_cast<std::uint32_t>(set.signatures.size()));
        if (added) {
            SignatureKey k;
            k.name = name;
            k.shape = info.shape;
            k.bytes = bytes;
            k.text = std::string(trace.str(name));
            if (info.shape != 0) k.text += " [" + std::string(trace.str(info.shape)) + "]";
            if (bytes >= 0) k.text += " [bytes=" + std::to_string(bytes) + "]";
            if (inputs != 0) k.text += " [inputs=" + std::string(trace.str(inputs)) + "]";
            k.inputs = inputs;
            k.opType = operatorType(trace.str(name));
            set.signatures.push_back(std::move(k));
        }
        set.signatureOf[op] = it->second;
    }
    // Timer resolution: traces written with integer microseconds cannot show differences
    // below 1 us, so the baseline's absolute floor must not be finer than that.
    std::uint64_t multiplesOfUs = 0;
    for (std::uint32_t sl : set.slices) {
        const Slice& s = trace.slices()[sl];
        if (s.start % 1000 == 0 && s.dur % 1000 == 0) ++multiplesOfUs;
    }
    set.resolutionNs = !set.slices.empty() && multiplesOfUs * 100 >= set.slices.size() * 99 ? 1000 : 1;
    // CSR by counting sort: stable, so each signature's occurrences stay in trace order.
    const auto sigs = set.signatures.size();
    set.sigBegin.assign(sigs + 1, 0);
    for (std::uint32_t s : set.signatureOf) set.sigBegin[s + 1]++;
    for (std::size_t s = 0; s < sigs; ++s) set.sigBegin[s + 1] += set.sigBegin[s];
    set.sigOps.resize(ops);
    std::vector<std::uint32_t> fill(set.sigBegin.begin(), set.sigBegin.end() - 1);
    for (std::uint32_t op = 0; op < ops; ++op) set.sigOps[fill[set.signatureOf[op]]++] = op;
    return set;
}

bool isCopySignature(const Trace& trace, const OperatorSet& ops, std::uint32_t signature) {
    const std::string& t = ops.signatures[signature].opType;
    return t == "memcpy" || t == "memset" ||
           trace.slices()[ops.slices[ops.sigOps[ops.sigBegin[signature]]]].is(kSliceMemory);
}

std::string shortName(std::string_view name) {
    return name.size() > 60 ? std::string(name.substr(0, 57)) + "..." : std::string(name);
}

}  // namespace contend
