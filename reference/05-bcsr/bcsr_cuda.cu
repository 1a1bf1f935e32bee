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
    // BEGIN SOLUTION(step 2: one thread per block; R sums of C products, x read only below cols)
    const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k >= A.blocks) return;
    const index_t col = A.col_idx[k];
    T xs[C];
#pragma unroll
    for (int j = 0; j < C; ++j) xs[j] = col + j < A.cols ? __ldg(&x[col + j]) : T(0);
    const T* block = A.vals + k * (R * C);
#pragma unroll
    for (int i = 0; i < R; ++i) {
        T sum = 0;
#pragma unroll
        for (int j = 0; j < C; ++j) sum += block[i * C + j] * xs[j];
        partial[k * R + i] = sum;
    }
    // END SOLUTION
}

/// GOSpMV kernel 2: each thread owns one row. Row `row` is row i = row % R of block row
/// row / R, so its partial sums are partial[k*R + i] for the blocks k of that block row.
template <class T, int R>
__global__ void bcsr_row_sums(BcsrView<T> A, const T* __restrict__ partial, T* __restrict__ y) {
    // BEGIN SOLUTION(step 2: one thread per row: add its partials over the blocks of its block row)
    const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= A.rows) return;
    const index_t ib = static_cast<index_t>(row / R);
    const int i = static_cast<int>(row % R);
    T sum = 0;
    for (index_t k = A.row_ptr[ib]; k < A.row_ptr[ib + 1]; ++k) sum += partial[static_cast<long long>(k) * R + i];
    y[row] += sum;
    // END SOLUTION
}

/// Fused kernel: warp w owns block row w. Lane l takes blocks row_ptr[w]+l, row_ptr[w]+l+32, ...,
/// reads each block's C values of x once and keeps R running sums in registers. A butterfly
/// of shuffles then leaves the warp's R totals in every lane, and lane i < R writes row
/// w*R+i, so the R writes are consecutive. Warps past the last block row run the shuffles
/// with zero sums: no lane may leave before a full-warp shuffle.
template <class T, int R, int C>
__global__ void bcsr_warp(BcsrView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 3: a warp per block row; lanes stride its blocks; R sums; xor-shuffle reduction)
    const long long w = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
    const int lane = threadIdx.x % kWarpSize;
    T sum[R];
#pragma unroll
    for (int i = 0; i < R; ++i) sum[i] = 0;
    if (w < A.block_rows) {
        for (index_t k = A.row_ptr[w] + lane; k < A.row_ptr[w + 1]; k += kWarpSize) {
            const index_t col = A.col_idx[k];
            const T* block = A.vals + static_cast<long long>(k) * (R * C);
#pragma unroll
            for (int j = 0; j < C; ++j) {
                const T xj = col + j < A.cols ? __ldg(&x[col + j]) : T(0);
#pragma unroll
                for (int i = 0; i < R; ++i) sum[i] += block[i * C + j] * xj;
            }
        }
    }
#pragma unroll
    for (int i = 0; i < R; ++i)
        for (int off = kWarpSize / 2; off > 0; off /= 2) sum[i] += __shfl_xor_sync(kFullWarpMask, sum[i], off);
    if (w < A.block_rows) {
#pragma unroll
        for (int i = 0; i < R; ++i)
            if (lane == i && w * R + i < A.rows) y[w * R + i] += sum[i];
    }
    // END SOLUTION
}

}  // namespace kernel

template <class T>
void bcsr_2kernel_spmv(BcsrView<T> A, const T* x, T* y, T* partial) {
    // BEGIN SOLUTION(step 2: with_block_shape: bcsr_block_products, then bcsr_row_sums)
    // STARTER: kit::todo("05-bcsr", 2, "cuda::bcsr_2kernel_spmv launches");
    with_block_shape(A.r, A.c, [&](auto r, auto c) {
        constexpr int R = decltype(r)::value, C = decltype(c)::value;
        kernel::bcsr_block_products<T, R, C><<<grid_for(A.blocks, kernel::kThreads), kernel::kThreads>>>(A, x, partial);
        KIT_CHECK_LAUNCH();
        // Same stream: kernel 2 starts only after kernel 1 has written every partial sum.
        kernel::bcsr_row_sums<T, R><<<grid_for(A.rows, kernel::kThreads), kernel::kThreads>>>(A, partial, y);
        KIT_CHECK_LAUNCH();
    });
    // END SOLUTION
}

template <class T>
void bcsr_warp_spmv(BcsrView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 3: with_block_shape(A.r, A.c, ...): launch bcsr_warp with 32 threads per block row)
    // STARTER: kit::todo("05-bcsr", 3, "cuda::bcsr_warp_spmv launch");
    with_block_shape(A.r, A.c, [&](auto r, auto c) {
        constexpr int R = decltype(r)::value, C = decltype(c)::value;
        const long long threads = static_cast<long long>(A.block_rows) * kWarpSize;
        kernel::bcsr_warp<T, R, C><<<grid_for(threads, kernel::kThreads), kernel::kThreads>>>(A, x, y);
        KIT_CHECK_LAUNCH();
    });
    // END SOLUTION
}

/// @cond
template void bcsr_2kernel_spmv<float>(BcsrView<float>, const float*, float*, float*);
template void bcsr_2kernel_spmv<double>(BcsrView<double>, const double*, double*, double*);
template void bcsr_warp_spmv<float>(BcsrView<float>, const float*, float*);
template void bcsr_warp_spmv<double>(BcsrView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
