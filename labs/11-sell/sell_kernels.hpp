/// @file sell_kernels.hpp
/// @brief Lab 11 signatures: SELL-C-sigma SpMV on the CPU and on CUDA.
///
/// Both compute y <- y + A x for A stored as SELL-C-sigma (sell.hpp): position p = c * C + lane
/// of chunk c holds row perm[p], whose slot k lives at chunk_ptr[c] + k * C + lane. Padding
/// slots (column < 0, value 0) fill each row up to its chunk's width, and the last chunk's
/// lanes p >= rows hold no row at all.
#pragma once

#include "formats/sell.hpp"

namespace kit::cpu {
/// @brief y <- y + A x on the CPU: chunk by chunk, lane by lane, over the chunk's width
/// slots, skipping padding, each sum added to y[perm[p]].
/// @param A [in] SELL-C-sigma matrix (host pointers)  @param x [in] A.cols values
/// @param y [in,out] A.rows values
template <class T>
void sell_spmv(SellView<T> A, const T* x, T* y);
}  // namespace kit::cpu

namespace kit::cuda {
#ifdef __CUDACC__
/// @brief The row of A stored at position p: p itself when the rows are in place (sigma = 1),
/// which spares the kernel the permutation's 4 bytes a row, else perm[p].
/// @param A [in] SELL-C-sigma matrix (device pointers)  @param p [in] position, p < A.rows
template <class T>
__device__ __forceinline__ index_t sell_row_at(const SellView<T>& A, long long p) {
    return A.rows_in_place ? static_cast<index_t>(p) : A.perm[p];
}
#endif

/// @brief One thread per position p < rows: each thread computes the row perm[p] over its
/// chunk's width slots (at chunk_ptr[c] + k * C + lane: consecutive lanes read consecutive
/// addresses) and adds it to y[perm[p]]. Correct for any C; with C a multiple of 32 a warp
/// never spans two chunks, so its threads run the same number of slots.
/// @param A [in] SELL-C-sigma matrix (device pointers)  @param x [in] device x
/// @param y [in,out] device y
template <class T>
void sell_spmv(SellView<T> A, const T* x, T* y);

/// @brief y <- y + A x with A.threads threads per row (given code, sell_split.cu): each of a
/// row's T threads takes every T-th slot and the partial sums meet in shared memory; with
/// A.threads = 1 it is sell_spmv. Long rows then stream their chunk T times faster. The wide
/// chunks (sell_wide_plan, A.wide_segments > 0; the row kernels see width 0 there) follow in a
/// second launch, a thread block per segment (A.wide_slots slots of C rows), adding to y atomically.
/// @param A [in] SELL-C-sigma matrix (device pointers)  @param x [in] device x
/// @param y [in,out] device y
template <class T>
void sell_spmv_threads(SellView<T> A, const T* x, T* y);
}  // namespace kit::cuda
