#include "core/sim/model/dp_workload.h"

#include <string>

namespace contend::sim {

namespace {

constexpr std::int64_t kMiB = 1 << 20;
constexpr int kForwardLayers = 6;
constexpr int kLayersPerBucket = 2;
constexpr TimeNs kNominalAllReduceNs = 1000;

OpSpec op(const char* name, const char* hostOp, std::int32_t stream, double us, OpDemand demand, std::int32_t gridX) {
    OpSpec s;
    s.name = name;
    s.hostOp = hostOp;
    s.stream = stream;
    s.workNs = static_cast<TimeNs>(us * 1000.0);
    s.demand = demand;
    s.shape.grid = {gridX, 1, 1};
    s.shape.block = {256, 1, 1};
    return s;
}

// Demands: compute-bound gemms (0.12 of peak DRAM, 0.85 of the units) and memory-bound
// element-wise and norm kernels; working sets small enough that the L2 never overflows.
OpSpec gemm(const char* name, double us, std::int32_t grid) {
    return op(name, "aten::mm", DataParallelWorkload::kComputeStream, us, {0.12, 0.85, 0.5, 8 * kMiB, 0, 0}, grid);
}

OpSpec memoryBound(const char* name, const char* hostOp, double us, double bw, std::int32_t grid) {
    return op(name, hostOp, DataParallelWorkload::kComputeStream, us, {bw, 0.10, 0.2, 6 * kMiB, 0, 0}, grid);
}

OpSpec augment() {
    OpSpec s = op(
        "void at::native::upsample_bilinear2d_out_frame<float, float>(int, float, "
        "float, bool, at::GenericPackedTensorAccessor<float, 4ul>, "
        "at::GenericPackedTensorAccessor<float, 4ul>)",
        "aten::upsample_bilinear2d", DataParallelWorkload::kAuxStream, 250, {0.85, 0.05, 0.2, 10 * kMiB, 0, 0}, 4096);
    return s;
}

}  // namespace

const std::vector<StreamInfo>& DataParallelWorkload::streams() {
    static const std::vector<StreamInfo> s{{kComputeStream, "compute"}, {kAuxStream, "augment"}, {kCommStream, "nccl"}};
    return s;
}

Iteration DataParallelWorkload::build(int step, bool bad, const std::vector<TimeNs>& allReduceWorkNs) const {
    Iteration it;
    it.index = step;
    auto push = [&](OpSpec s) {
        it.ops.push_back(std::move(s));
        return static_cast<std::uint32_t>(it.ops.size() - 1);
    };
    for (int l = 0; l < kForwardLayers; ++l) {
        push(gemm("ampere_sgemm_128x64_nn", 90, 64 + 8 * l));
        if (l == 0) {
            if (!bad) {  // good form: beside the first gemm, 0.85 + 0.15 fits
                OpSpec a = augment();
                a.tag = "fixed:bandwidth";
                push(std::move(a));
            }
        }
        push(
            memoryBound("void at::native::vectorized_elementwise_kernel<4, "
                        "at::native::GeluCUDAKernelImpl>(int, at::detail::Array<char*, 2>)",
                        "aten::gelu", 25, 0.12, 1024 + 64 * l));
    }
    std::int32_t lastAllReduce = -1;
    for (int b = 0; b < kBuckets; ++b) {
        std::uint32_t last = 0;
        for (int l = 0; l < kLayersPerBucket; ++l) {
            const std::int32_t layer = b * kLayersPerBucket + l;
            push(gemm("ampere_sgemm_128x64_nt", 100, 96 + 8 * layer));
            const std::uint32_t wgrad = push(gemm("ampere_sgemm_128x64_tn", 100, 96 + 8 * layer));
            const bool site = b == kSiteBucket && l == kLayersPerBucket - 1;
            if (site && bad) {  // bad form: released as the layer-norm backward starts
                OpSpec a = augment();
                a.after = {wgrad};
                a.tag = "injected:bandwidth";
                push(std::move(a));
            }
            OpSpec norm = memoryBound(
                "void at::native::layer_norm_grad_input_kernel<float, "
                "float>(float const*, float const*, float*, int)",
                "aten::native_layer_norm_backward", 120, 0.85, 512 + 32 * layer);
            OpSpec cast = memoryBound(
                "void at::native::vectorized_elementwise_kernel<4, "
                "at::native::BFloat16CastFunctor>(int, "
                "at::detail::Array<char*, 2>)",
                "aten::to", 60, 0.80, 2048 + 64 * layer);
            if (site) {
                norm.tag = bad ? "injected:bandwidth" : "fixed:bandwidth";
                cast.tag = norm.tag;
            }
            push(std::move(norm));
            last = push(std::move(cast));
        }
        OpSpec ar = op(kAllReduceName, "nccl:all_reduce", kCommStream, 0, {0, 0, 0, 0, 0, 0}, 2);
        ar.workNs = b < static_cast<int>(allReduceWorkNs.size()) ? allReduceWorkNs[b] : kNominalAllReduceNs;
        ar.jitterSigma = 0;  // its time is set by the cluster, not drawn
        ar.after = {last};
        lastAllReduce = static_cast<std::int32_t>(push(std::move(ar)));
    }
    OpSpec opt = memoryBound(
        "void at::native::multi_tensor_apply_kernel<at::native::"
        "FusedAdamMathFunctor<float, 4> >(int, int)",
        "Optimizer.step#FusedAdam.step", 60, 0.6, 320);
    opt.after = {static_cast<std::uint32_t>(lastAllReduce)};
    push(std::move(opt));
    return it;
}

DataParallelWorkload::Layout DataParallelWorkload::layout(bool bad) {
    const Iteration it = DataParallelWorkload().build(0, bad, {});
    Layout l;
    for (std::uint32_t i = 0; i < it.ops.size(); ++i) {
        const OpSpec& s = it.ops[i];
        if (s.stream == kCommStream)
            l.allReduce.push_back(i);
        else if (s.stream == kAuxStream)
            l.augment = i;
    }
    // The site's norm and cast: the last layer of kSiteBucket, just before its AllReduce.
    const std::uint32_t ar = l.allReduce[kSiteBucket];
    l.siteCast = ar - 1;
    l.siteNorm = ar - 2;
    return l;
}

}  // namespace contend::sim
