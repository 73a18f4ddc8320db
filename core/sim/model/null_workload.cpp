#include "core/sim/model/null_workload.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace contend::sim {

namespace {

constexpr std::int64_t kMiB = 1 << 20;

constexpr std::int32_t kGemmStream = 7;
constexpr std::int32_t kEltwiseStream = 13;
constexpr std::int32_t kReduceStream = 17;
constexpr std::int32_t kMiscStream = 21;

// One kernel signature of the null workload. `us` is its work (solo duration before jitter;
// for the heavy tail, its minimum). `perLayer`: launches per layer.
struct Signature {
    const char* name;
    const char* hostOp;
    std::int32_t stream;
    double us;
    OpDemand demand;
    std::array<std::int32_t, 3> grid;
    std::array<std::int32_t, 3> block;
    std::int32_t registers;
    std::int32_t sharedMemory;
    JitterKind kind;
    int perLayer;
};

// Per-stream ceilings every signature of the stream stays under, so any four kernels running
// together fit the device (sums: bw 0.90, cu 0.90, issue 0.90, ws 38 MiB < 40 MiB):
//   stream  7 (gemm)         bw 0.30  cu 0.45  issue 0.45  ws 14 MiB
//   stream 13 (elementwise)  bw 0.30  cu 0.15  issue 0.20  ws 10 MiB
//   stream 17 (reduce)       bw 0.20  cu 0.15  issue 0.15  ws  8 MiB
//   stream 21 (misc)         bw 0.10  cu 0.15  issue 0.10  ws  6 MiB
// Work per layer is ~280 us of mean duration on every stream, so the streams end together.
using J = JitterKind;
const Signature kSignatures[] = {
    // Stream 7: matmuls.
    {"ampere_sgemm_128x64_nn",
     "aten::mm",
     kGemmStream,
     80,
     {0.20, 0.45, 0.40, 12 * kMiB, 0, 0},
     {16, 24, 1},
     {128, 1, 1},
     122,
     32768,
     J::Normal,
     1},
    {"ampere_sgemm_128x64_nn",
     "aten::mm",
     kGemmStream,
     60,
     {0.22, 0.42, 0.38, 10 * kMiB, 0, 0},
     {8, 32, 1},
     {128, 1, 1},
     122,
     32768,
     J::Normal,
     1},
    {"cutlass_80_tensorop_s1688gemm_128x256_16x3_nt_align4",
     "aten::addmm",
     kGemmStream,
     70,
     {0.18, 0.45, 0.45, 14 * kMiB, 0, 0},
     {4, 16, 3},
     {256, 1, 1},
     234,
     98304,
     J::Normal,
     1},
    {"ampere_sgemm_64x32_sliced1x4_tn",
     "aten::mm",
     kGemmStream,
     40,
     {0.30, 0.35, 0.35, 8 * kMiB, 0, 0},
     {32, 8, 1},
     {128, 1, 1},
     86,
     16384,
     J::Uniform,
     1},
    {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>"
     "(cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4::Params)",
     "aten::bmm",
     kGemmStream,
     30,
     {0.25, 0.40, 0.40, 12 * kMiB, 0, 0},
     {24, 8, 2},
     {128, 1, 1},
     168,
     73728,
     J::Bimodal,
     1},

    // Stream 13: element-wise.
    {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>)",
     "aten::add",
     kEltwiseStream,
     30,
     {0.30, 0.06, 0.15, 10 * kMiB, 0, 0},
     {6144, 1, 1},
     {128, 1, 1},
     24,
     0,
     J::Normal,
     2},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl("
     "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::"
     "{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
     "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
     "{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, "
     "at::detail::Array<char*, 2>)",
     "aten::gelu",
     kEltwiseStream,
     40,
     {0.28, 0.10, 0.18, 8 * kMiB, 0, 0},
     {8192, 1, 1},
     {128, 1, 1},
     28,
     0,
     J::Normal,
     2},
    {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<"
     "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
     "const::{lambda()#7}::operator()() const::{lambda(float)#1}> >(int)",
     "aten::copy_",
     kEltwiseStream,
     35,
     {0.26, 0.05, 0.12, 8 * kMiB, 0, 0},
     {2048, 1, 1},
     {128, 1, 1},
     30,
     0,
     J::Uniform,
     1},
    {"void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<"
     "at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, "
     "c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}> >(long)",
     "aten::index",
     kEltwiseStream,
     25,
     {0.24, 0.08, 0.20, 10 * kMiB, 0, 0},
     {1024, 1, 1},
     {128, 1, 1},
     32,
     0,
     J::Pareto,
     1},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, "
     "float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >("
     "int, at::native::BinaryFunctor<float, float, float, "
     "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)",
     "aten::mul",
     kEltwiseStream,
     45,
     {0.30, 0.07, 0.16, 10 * kMiB, 0, 0},
     {7168, 1, 1},
     {128, 1, 1},
     26,
     0,
     J::Bimodal,
     1},

    // Stream 17: reductions and normalisation.
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
     "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::"
     "operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >("
     "at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<"
     "float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
     "unsigned int, float, 4>)",
     "aten::sum",
     kReduceStream,
     30,
     {0.18, 0.08, 0.12, 6 * kMiB, 0, 0},
     {1, 864, 1},
     {32, 16, 1},
     40,
     2048,
     J::Normal,
     2},
    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, "
     "float, float const*, float const*, float const*, float*, float*, float*)",
     "aten::native_layer_norm",
     kReduceStream,
     45,
     {0.20, 0.10, 0.15, 8 * kMiB, 0, 0},
     {4096, 1, 1},
     {256, 1, 1},
     36,
     0,
     J::Normal,
     2},
    {"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel<float, float>(long, "
     "long, float const*, float const*, float const*, float const*, float*, float*)",
     "aten::native_layer_norm_backward",
     kReduceStream,
     55,
     {0.16, 0.12, 0.14, 6 * kMiB, 0, 0},
     {48, 1, 1},
     {32, 32, 1},
     64,
     8448,
     J::Uniform,
     1},
    {"void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
     "at::native::MaxOps<float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
     "at::native::MaxOps<float>, unsigned int, float, 4>)",
     "aten::max",
     kReduceStream,
     15,
     {0.15, 0.06, 0.10, 4 * kMiB, 0, 0},
     {1, 432, 1},
     {32, 4, 1},
     38,
     512,
     J::Pareto,
     1},
    {"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
     "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
     "aten::_softmax",
     kReduceStream,
     40,
     {0.20, 0.15, 0.15, 8 * kMiB, 0, 0},
     {2048, 1, 1},
     {512, 1, 1},
     40,
     4096,
     J::Bimodal,
     1},

    // Stream 21: attention bits, concatenation, gathers, dropout.
    {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false, false>("
     "float*, float const*, int, int, int, bool const*, int, bool)",
     "aten::_softmax",
     kMiscStream,
     25,
     {0.08, 0.12, 0.10, 4 * kMiB, 0, 0},
     {1024, 1, 1},
     {32, 4, 1},
     48,
     0,
     J::Normal,
     2},
    {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 2, 128, "
     "1>(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned "
     "int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, "
     "unsigned int)",
     "aten::cat",
     kMiscStream,
     30,
     {0.10, 0.03, 0.06, 6 * kMiB, 0, 0},
     {256, 4, 1},
     {512, 1, 1},
     32,
     0,
     J::Uniform,
     2},
    {"void at::native::(anonymous namespace)::indexSelectLargeIndex<float, long, unsigned int, "
     "2, 2, -2, true>(at::cuda::detail::TensorInfo<float, unsigned int>, "
     "at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<long, "
     "unsigned int>, int, int, unsigned int, unsigned int, long)",
     "aten::index_select",
     kMiscStream,
     30,
     {0.09, 0.04, 0.08, 6 * kMiB, 0, 0},
     {512, 1, 1},
     {128, 1, 1},
     30,
     0,
     J::Pareto,
     1},
    {"void at::native::_scatter_gather_elementwise_kernel<128, 8, "
     "at::native::_cuda_scatter_gather_internal_kernel<true, float>::operator()<"
     "at::native::ReduceAdd>(at::TensorIterator&, long, long, long, at::native::ReduceAdd "
     "const&)::{lambda(int)#1}>(int)",
     "aten::scatter_add_",
     kMiscStream,
     45,
     {0.10, 0.06, 0.10, 5 * kMiB, 0, 0},
     {768, 1, 1},
     {128, 1, 1},
     36,
     0,
     J::Bimodal,
     1},
    {"void at::native::(anonymous namespace)::fused_dropout_kernel_vec<float, float, unsigned "
     "int, 1, 4, bool>(at::cuda::detail::TensorInfo<float, unsigned int>, "
     "at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<bool, "
     "unsigned int>, unsigned int, float, at::PhiloxCudaState)",
     "aten::native_dropout",
     kMiscStream,
     60,
     {0.10, 0.08, 0.09, 4 * kMiB, 0, 0},
     {2560, 1, 1},
     {256, 1, 1},
     34,
     0,
     J::Normal,
     1},
};

constexpr double kNarrowSigma = 0.06;   // CV of the narrow kernels
constexpr double kBimodalSigma = 0.03;  // jitter around each of the two modes

const char* tagFor(JitterKind kind) {
    switch (kind) {
    case JitterKind::Normal: return "control:null-narrow";
    case JitterKind::Uniform: return "control:null-uniform";
    case JitterKind::Pareto: return "control:null-heavy";
    case JitterKind::Bimodal: return "control:null-bimodal";
    }
    return "control:null-narrow";
}

OpSpec specFor(const Signature& s) {
    OpSpec op;
    op.name = s.name;
    op.hostOp = s.hostOp;
    op.stream = s.stream;
    op.workNs = std::llround(s.us * 1000.0);
    op.jitterKind = s.kind;
    op.jitterSigma = s.kind == JitterKind::Normal ? kNarrowSigma : s.kind == JitterKind::Bimodal ? kBimodalSigma : 0.0;
    op.demand = s.demand;
    op.shape.grid = s.grid;
    op.shape.block = s.block;
    op.shape.registers = s.registers;
    op.shape.sharedMemory = s.sharedMemory;
    op.tag = tagFor(s.kind);
    return op;
}

}  // namespace

const std::vector<StreamInfo>& NullWorkload::streams() {
    static const std::vector<StreamInfo> all{
        {kGemmStream, "gemm"}, {kEltwiseStream, "elementwise"}, {kReduceStream, "reduce"}, {kMiscStream, "misc"}};
    return all;
}

Iteration NullWorkload::build(int step) const {
    Iteration it;
    it.index = step;
    const std::vector<StreamInfo>& all = streams();

    // Each stream's kernels in its own order: kLayers repeats of its layer, where a layer
    // launches each of the stream's signatures perLayer times (round-robin within the layer).
    int rounds = 0;
    for (const Signature& s : kSignatures) rounds = std::max(rounds, s.perLayer);
    std::vector<std::vector<const Signature*>> queue(all.size());
    for (std::size_t q = 0; q < all.size(); ++q) {
        for (int layer = 0; layer < kLayers; ++layer)
            for (int round = 0; round < rounds; ++round)
                for (const Signature& s : kSignatures)
                    if (s.stream == all[q].id && round < s.perLayer) queue[q].push_back(&s);
    }

    // The host issues them interleaved: next, the stream with the least work issued so far
    // (ties to the lower stream), so every stream's queue fills early and stays ahead.
    std::vector<std::size_t> next(all.size(), 0);
    std::vector<double> issuedUs(all.size(), 0.0);
    for (;;) {
        std::size_t pick = all.size();
        for (std::size_t q = 0; q < all.size(); ++q)
            if (next[q] < queue[q].size() && (pick == all.size() || issuedUs[q] < issuedUs[pick])) pick = q;
        if (pick == all.size()) break;
        const Signature& s = *queue[pick][next[pick]++];
        issuedUs[pick] += s.us;
        it.ops.push_back(specFor(s));
    }
    return it;
}

}  // namespace contend::sim
