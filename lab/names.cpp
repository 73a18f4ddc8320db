#include "names.h"

#include <cstdio>

namespace lab {

namespace {

// The neutral names are numbered by a fixed permutation, so the number says nothing about the
// kind or its place in the kind list.
constexpr std::array<int, kKinds> kNeutralNumber = {7, 3, 11, 5, 2, 13, 8, 4};

KernelNames pytorch(Kind k) {
    switch (k) {
    case Kind::Copy:
        return {
            "void at::native::vectorized_elementwise_kernel<4, at::native::direct_copy_kernel_cuda(at::"
            "TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
            "const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
            "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
            "const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
            "aten::copy_",
            {16384, 1, 1},
            {128, 1, 1},
            22,
            0};
    case Kind::Scale:
        return {
            "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, "
            "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2> >(int, "
            "at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> "
            ">, at::detail::Array<char*, 2>)",
            "aten::mul",
            {16384, 1, 1},
            {128, 1, 1},
            24,
            0};
    case Kind::Triad:
        return {
            "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
            "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, "
            "3>)",
            "aten::add",
            {12288, 1, 1},
            {128, 1, 1},
            26,
            0};
    case Kind::Gather:
        return {
            "void at::native::(anonymous namespace)::indexSelectLargeIndex<float, long, unsigned int, 2, 2, -2, "
            "true>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float, "
            "unsigned int>, at::cuda::detail::TensorInfo<long, unsigned int>, int, int, unsigned int, unsigned "
            "int, long)",
            "aten::index_select",
            {1536, 1, 1},
            {128, 1, 1},
            30,
            0};
    case Kind::L3Sum:
        return {
            "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
            "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
            "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> "
            ">(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, "
            "float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, "
            "4>)",
            "aten::sum",
            {432, 1, 1},
            {32, 16, 1},
            32,
            16};
    case Kind::L2Sum:
        return {
            "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::MeanOps<float, "
            "float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
            "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)",
            "aten::mean",
            {108, 1, 1},
            {32, 4, 1},
            32,
            16};
    case Kind::Fma:
        return {
            "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_"
            "execute_kernel__5x_cublas",
            "aten::mm",
            {8, 8, 1},
            {256, 1, 1},
            122,
            49152};
    case Kind::Lock:
        return {
            "void at::native::_scatter_gather_elementwise_kernel<128, 4, "
            "at::native::_cuda_scatter_gather_internal_kernel<true, float>::operator()<at::native::ReduceAdd>("
            "at::TensorIterator&, long, long, long, at::native::ReduceAdd const&)::{lambda(int)#1}>(int, "
            "at::native::_cuda_scatter_gather_internal_kernel<true, "
            "float>::operator()<at::native::ReduceAdd>(at::TensorIterator&, long, long, long, "
            "at::native::ReduceAdd const&)::{lambda(int)#1})",
            "aten::scatter_add_",
            {2048, 1, 1},
            {128, 1, 1},
            28,
            0};
    }
    return {};
}

}  // namespace

KernelNames namesOf(Kind k, NameStyle style) {
    KernelNames n = pytorch(k);
    if (style == NameStyle::Neutral) {
        const int number = kNeutralNumber[static_cast<std::size_t>(k)];
        char buf[32];
        std::snprintf(buf, sizeof(buf), "lab_kernel_%02d", number);
        n.kernel = buf;
        std::snprintf(buf, sizeof(buf), "lab_op_%02d", number);
        n.hostOp = buf;
        n.grid = {256, 1, 1};  // one launch shape for all: the shape says nothing either
        n.block = {256, 1, 1};
        n.registers = 32;
        n.sharedMemory = 0;
    }
    return n;
}

}  // namespace lab
