/// @file
/// Lab 09, steps 2 to 5: the GEMV kernels (device code) that gemv_cuda.cu launches, after
/// Abdelfattah, Keyes and Ltaief. See handouts/09-gemv.md.
#pragma once

#include "gpu/cuda_run.hpp"
#include "gemv_kernels.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread owns one element of y: thread i computes alpha * (row i of op(A)) . x + beta y[i].
/// Without transpose row i of A is strided by lda, but at each step k the 32 threads of a warp
/// read A(i..i+31, k): one coalesced transaction. With transpose thread j walks column j, and
/// the warp's 32 reads at step k are lda apart.
template <class T, bool Trans>
__global__ void gemv_thread(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y) {
    // TODO(09-gemv step 2): one thread per element of y; y = alpha*sum (+ beta*y unless beta == 0)
}

}  // namespace kernel

/// Where the slices of a split march leave their partial sums (step 4). partial holds one
/// value per slice and element of y (slice-major), arrivals one counter per thread block of a
/// slice (block row, or block column transposed), all zero between calls.
template <class T>
struct SliceScratch {
    T* partial = nullptr;          ///< slices x ny partial sums
    unsigned* arrivals = nullptr;  ///< one counter per block row (block column)
    index_t ny = 0;                ///< elements of y
};

namespace kernel {

/// Step 4: the slices of one block row meet. Every slice stores its partial sums; the last
/// slice to arrive (an atomic ticket per block row, after a fence that publishes the stores)
/// adds the partial sums in slice order, so y does not depend on which slice ran first,
/// writes y = alpha sum + beta y, and resets the ticket for the next call. One kernel, no
/// pass over y before it, and the same result on every run.
/// Called by every thread of the block: `owns` says whether the thread holds output `out`,
/// y_old is y[out] as read when the kernel started (nothing writes y before the last slice).
template <class T>
__device__ void finish_slices(T s, bool owns, index_t out, index_t block, T alpha, T beta, T y_old, T* y,
                              SliceScratch<T> scratch) {
    // TODO(09-gemv step 4): partial, fence, ticket; the last slice sums in slice order, resets the ticket
}

/// Writes the block's outputs: directly when the march is not split (step 3), else through
/// finish_slices (step 4). Called by every thread of the block. y_old is y[out], read when
/// the kernel started (see gemv_n_blocked).
template <class T>
__device__ void store_outputs(T s, bool owns, index_t out, index_t block, T alpha, T beta, T y_old, T* y,
                              SliceScratch<T> scratch) {
    if (gridDim.y > 1) return finish_slices(s, owns, out, block, alpha, beta, y_old, y, scratch);
    if (owns) y[out] = beta == T(0) ? alpha * s : alpha * s + beta * y_old;
}

/// y <- beta y, one thread per element (0 when beta is 0, without reading y): op(A) x is
/// empty when the inner dimension is 0.
template <class T>
__global__ void scale_y(T beta, T* y, index_t n) {
    const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = beta == T(0) ? T(0) : beta * y[i];
}

/// Values of T in one 16-byte load: 4 floats (float4) or 2 doubles (double2).
template <class T>
constexpr int kVec = 16 / static_cast<int>(sizeof(T));

/// A(r .. r+V-1, c), V = kVec<T> neighbours in one column, into v. fast: one 16-byte load (the
/// caller knows the V rows are inside A and 16-byte aligned). Otherwise V scalar loads, zero
/// where `in` is false or the row is past the last: the matrix padded with zeros in registers.
__device__ inline void load_rows(const float* p, bool fast, bool in, index_t rows_left, float (&v)[4]) {
    if (fast) {
        const float4 q = __ldg(reinterpret_cast<const float4*>(p));
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
        return;
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = in && i < rows_left ? p[i] : 0.0f;
}
/// The double form of load_rows: V = 2 rows, one double2 load on the fast path.
__device__ inline void load_rows(const double* p, bool fast, bool in, index_t rows_left, double (&v)[2]) {
    if (fast) {
        const double2 q = __ldg(reinterpret_cast<const double2*>(p));
        v[0] = q.x, v[1] = q.y;
        return;
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) v[i] = in && i < rows_left ? p[i] : 0.0;
}

/// gemv_n_blocked's march: thread (tx, ty) adds into sum its V rows row0 .. row0 + V-1 times
/// x over the block columns of its slice, two chunks each, double-buffered.
template <class T, int BS, int TY, bool RowEdge>
__device__ __forceinline__ void gemv_n_march(DenseView<T> A, const T* __restrict__ x, index_t row0, index_t per_slice,
                                             bool vec, T (&sum)[kVec<T>]) {
    // TODO(09-gemv step 3): march over the slice's block columns, two chunks each, with prefetch
}

/// gemv_n_blocked's reduction: the TY partial sums of each row of the block row, added through
/// shared memory. Returns row t's sum to thread t < BS. Called by every thread.
template <class T, int BS, int TY>
__device__ __forceinline__ T gemv_n_reduce(const T (&sum)[kVec<T>]) {
    // TODO(09-gemv step 3): the partial sums through shared memory, added over threadIdx.y
    return 0;
}

/// Non-transposed. BS = gemv_block_size, V = kVec<T>; TX x TY threads with TX = BS / V
/// (thread_y = TY), EPT = BS / (2 TY). Thread block (blockIdx.x) owns block row
/// b = first_block + blockIdx.x, rows [b BS, b BS + BS); blockIdx.y picks the slice of block
/// columns [s per_slice, (s+1) per_slice) it marches over. Each block is read in two chunks of
/// BS/2 columns; in a chunk starting at column c0, thread (tx, ty) loads the V rows
/// b BS + V tx .. b BS + V tx + V-1 of columns c0 + ty + k TY, k < EPT, one 16-byte load each,
/// so TX neighbouring threads read BS consecutive values of one column. The second chunk is
/// loaded into registers before the first is used, and the next block's first chunk before
/// the second is used. Thread (tx, ty) holds V partial sums, of rows b BS + V tx + v; the
/// TY partial sums of a row are added through shared memory. RowEdge: the block row may pass
/// the last row (those loads are scalar and checked). vec: lda is a multiple of V and A 16-byte
/// aligned, so every column starts on a 16-byte boundary (else every load is scalar).
template <class T, int BS, int TY, bool RowEdge>
__global__ void __launch_bounds__(BS / kVec<T> * TY)
    gemv_n_blocked(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y, index_t first_block,
                   index_t per_slice, SliceScratch<T> scratch, bool vec) {
    // TODO(09-gemv step 3): read y early, gemv_n_march, gemv_n_reduce, store_outputs
}

/// gemv_t_blocked's march: thread (tx, ty) accumulates, for the 2 EPT columns it reads in the
/// block column starting at col_base, acc0 (left chunk) and acc1 (right chunk) over its V rows
/// of every block row of its slice, from the staggered start on, double-buffered.
template <class T, int BS, int TY, bool ColEdge>
__device__ __forceinline__ void gemv_t_march(DenseView<T> A, const T* __restrict__ x, index_t col_base,
                                             index_t per_slice, bool vec, T (&acc0)[BS / (2 * TY)],
                                             T (&acc1)[BS / (2 * TY)]) {
    // TODO(09-gemv step 3): march down the slice's block rows from a staggered start, with prefetch
}

/// gemv_t_blocked's reduction: the partial sums of one column (all tx of a thread row) are
/// added by shuffles inside each warp, then across the TX/32 warps of a thread row (when
/// TX > 32) in shared memory. Returns column t's sum to thread t < BS. Called by every thread.
template <class T, int BS, int TY>
__device__ __forceinline__ T gemv_t_reduce(T (&acc0)[BS / (2 * TY)], T (&acc1)[BS / (2 * TY)]) {
    // TODO(09-gemv step 3): __shfl_xor_sync within each warp, then shared memory across warps
    return 0;
}

/// Transposed, TX x TY threads as in gemv_n_blocked. Thread block (blockIdx.x) owns block
/// column b = first_block + blockIdx.x, columns [b BS, b BS + BS), and marches down the block
/// rows of its slice (blockIdx.y), starting at the (blockIdx.x mod count)-th of them and wrapping
/// around: thread blocks of one slice then read different rows at any moment, not all the same
/// row of columns lda apart (with lda a power of two those addresses can crowd the same
/// memory channels). The start changes only the order of a thread block's additions, so y
/// is the same on every run. In block row I, chunk h (the left or right BS/2 columns), thread (tx, ty)
/// loads rows I BS + V tx .. + V-1 of columns b BS + h BS/2 + ty + k TY, k < EPT, one 16-byte
/// load each: again TX threads read BS consecutive values of one column. Double buffering as in
/// gemv_n_blocked. Each thread accumulates 2 EPT columns over the march, each over its V rows;
/// the partial sums of one column (all tx) are reduced by shuffles inside each warp, then
/// across the TX/32 warps of a thread row (when TX > 32) in shared memory. ColEdge: the block
/// column may pass the last column (zeros in registers). The last block row may pass the last
/// row: its loads are scalar and checked.
template <class T, int BS, int TY, bool ColEdge>
__global__ void __launch_bounds__(BS / kVec<T> * TY)
    gemv_t_blocked(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y, index_t first_block,
                   index_t per_slice, SliceScratch<T> scratch, bool vec) {
    // TODO(09-gemv step 3): read y early, gemv_t_march, gemv_t_reduce, store_outputs
}

/// Step 5, transposed: one warp per group of C neighbouring columns, c0 = C warp .. c0 + C-1,
/// the shape cuBLAS's transposed kernel has on this GPU. Lane l reads rows r + V l .. r + V l +
/// V-1 of each of its columns, r stepping by 32 V (the warp reads 32 V consecutive values of a
/// column: coalesced), and issues U = 8 / C such loads per column, with the matching x, before
/// it uses any: 8 loads in flight, as the paper's elements_per_thread <= 8. No output is shared
/// between warps, so nothing is split and nothing has to meet (step 4's finish is gone); with
/// n / C warps the grid fills the GPU from small n on. vec: columns and x start on 16-byte
/// boundaries (else every load is scalar); rows past the last load zeros, as in load_rows.
template <class T, int C>
__global__ void __launch_bounds__(128)
    gemv_t_warp_columns(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y, bool vec) {
    // TODO(09-gemv step 5): a warp per C columns, 8 loads in flight; xor-shuffle sums; lane c writes
}

}  // namespace kernel

}  // namespace kit::cuda
