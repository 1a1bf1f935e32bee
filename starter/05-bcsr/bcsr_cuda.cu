/// @file
/// Lab 05, steps 2 and 3: BCSR SpMV on the GPU. See handouts/05-bcsr.md.
#include "bcsr_kernels.hpp"
#include "gpu/cuda_run.hpp"

namespace kit::cuda {
namespace kernel {

constexpr int kThreads = 256;  ///< threads per CUDA block: a multiple of 32, so warps never straddle

/// GOSpMV kernel 1: each thread k multiplies block k by x and writes its R partial sums,
/// one per row of the block, to partial[k*R .. k*R+R-1]. Blocks are independent, so every
/// thread has the same small amount of work whatever the row lengths.
template <class T, int R, int C>
__global__ void bcsr_block_products(BcsrView<T> A, const T* __restrict__ x, T* __restrict__ partial) {
    // TODO(05-bcsr step 2): one thread per block; R sums of C products, x read only below cols
}

/// GOSpMV kernel 2: each thread owns one row. Row `row` is row i = row % R of block row
/// row / R, so its partial sums are partial[k*R + i] for the blocks k of that block row.
template <class T, int R>
__global__ void bcsr_row_sums(BcsrView<T> A, const T* __restrict__ partial, T* __restrict__ y) {
    // TODO(05-bcsr step 2): one thread per row: add its partials over the blocks of its block row
}

/// Fused kernel: warp w owns block row w. Lane l takes blocks row_ptr[w]+l, row_ptr[w]+l+32, ...,
/// reads each block's C values of x once and keeps R running sums in registers. A butterfly
/// of shuffles then leaves the warp's R totals in every lane, and lane i < R writes row
/// w*R+i, so the R writes are consecutive. Warps past the last block row run the shuffles
/// with zero sums: no lane may leave before a full-warp shuffle.
template <class T, int R, int C>
__global__ void bcsr_warp(BcsrView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(05-bcsr step 3): a warp per block row; lanes stride its blocks; R sums; xor-shuffle reduction
}

}  // namespace kernel

template <class T>
void bcsr_2kernel_spmv(BcsrView<T> A, const T* x, T* y, T* partial) {
    // TODO(05-bcsr step 2): with_block_shape: bcsr_block_products, then bcsr_row_sums
    kit::todo("05-bcsr", 2, "cuda::bcsr_2kernel_spmv launches");
}

template <class T>
void bcsr_warp_spmv(BcsrView<T> A, const T* x, T* y) {
    // TODO(05-bcsr step 3): with_block_shape(A.r, A.c, ...): launch bcsr_warp with 32 threads per block row
    kit::todo("05-bcsr", 3, "cuda::bcsr_warp_spmv launch");
}

/// @cond
template void bcsr_2kernel_spmv<float>(BcsrView<float>, const float*, float*, float*);
template void bcsr_2kernel_spmv<double>(BcsrView<double>, const double*, double*, double*);
template void bcsr_warp_spmv<float>(BcsrView<float>, const float*, float*);
template void bcsr_warp_spmv<double>(BcsrView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
