/// @file
/// Lab 11, given code: SELL-C-sigma with several threads per row (SELL-P's T), and the wide
/// chunks' kernel. See the handout's step 3, "Threads per row" and "Wide chunks".
#include <algorithm>

#include "gpu/cuda_run.hpp"
#include "sell_kernels.hpp"

namespace kit::cuda {
namespace kernel {

/// Lane `lane`'s share of its row in chunk `chunk`: slots from, from + step, ... below `to`,
/// as the one-thread kernel reads them (the value loaded whatever the slot, only x guarded).
template <class T>
__device__ __forceinline__ T lane_share(const SellView<T>& A, const T* __restrict__ x, long long chunk, index_t lane,
                                        index_t from, index_t to, int step) {
    const std::size_t stride = static_cast<std::size_t>(A.C) * step;
    std::size_t at = static_cast<std::size_t>(A.chunk_ptr[chunk]) + static_cast<std::size_t>(from) * A.C + lane;
    T sum = 0;
#pragma unroll 4
    for (index_t k = from; k < to; k += step, at += stride) {
        const index_t col = __ldcs(&A.col_idx[at]);  // read once: evict first, x and y keep L2
        const T val = __ldcs(&A.vals[at]);
        sum += val * (col >= 0 ? __ldg(&x[col]) : T(0));
    }
    return sum;
}

/// The shares that the `shares - 1` threads after thread t, C apart, left in `partial`.
template <class T>
__device__ __forceinline__ T later_shares(const T* partial, int t, int shares, index_t C) {
    T sum = 0;
    for (int q = 1; q < shares; ++q) sum += partial[t + q * C];
    return sum;
}

/// Threads t of a block form groups of C * T: group g holds chunk blockIdx.x * groups + g, and
/// within it thread j * C + lane takes slots j, j + T, j + 2T, ... of lane `lane`. A warp
/// (C a multiple of 32) then reads C consecutive slots, as in the one-thread kernel, but the
/// T warps of a chunk read T * C consecutive slots together, so a chunk is read T times
/// faster, by T times fewer streams in flight. The T partial sums meet in shared memory.
template <class T, int kThreads>
__global__ void sell_rows_split(SellView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    extern __shared__ unsigned char shared_bytes[];
    T* partial = reinterpret_cast<T*>(shared_bytes);
    const int group_size = A.C * kThreads;
    const int t = static_cast<int>(threadIdx.x);
    const int j = (t % group_size) / A.C;
    const index_t lane = t % A.C;
    const long long chunk = static_cast<long long>(blockIdx.x) * (blockDim.x / group_size) + t / group_size;
    const long long p = chunk * A.C + lane;
    // Thread j = 0 writes the row. Its row and y depend on no slot, so it loads them before the
    // loop, as step 2's kernel does: their rounds overlap the loop's instead of following it.
    const bool writes = j == 0 && p < A.rows;  // p < rows puts the chunk below A.chunks
    const index_t row = writes ? sell_row_at(A, p) : 0;
    const T y_row = writes ? y[row] : T(0);
    const T sum = chunk < A.chunks ? lane_share(A, x, chunk, lane, j, A.chunk_width[chunk], kThreads) : T(0);
    partial[t] = sum;
    __syncthreads();
    if (writes) y[row] = y_row + (sum + later_shares(partial, t, kThreads, A.C));  // the row's sum, then y
}

/// Launches sell_rows_split: blocks of kSellSplitBlock threads holding kSellSplitBlock / (C * T)
/// chunks when C * T divides it, else one chunk of C * T threads (at most kSellMaxC) a block; shared memory
/// for one partial sum a thread.
template <class T, int kThreads>
void launch_split(SellView<T> A, const T* x, T* y) {
    const int group_size = A.C * kThreads;  // <= kSellMaxC, checked by sell_resolve
    const int most = static_cast<int>(kSellSplitBlock);
    const int block = (group_size <= most && most % group_size == 0) ? most : group_size;
    const auto shared = static_cast<std::size_t>(block) * sizeof(T);
    sell_rows_split<T, kThreads><<<grid_for(A.chunks, block / group_size), block, shared>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

/// The wide chunks (sell_wide_plan): block b takes segment b, slots [from, from + A.wide_slots)
/// of its chunk's C rows. Thread j * C + lane of the block's C * G threads takes slots from + j,
/// from + j + G, ... of lane `lane`, so each round of the block reads G * C consecutive slots;
/// the G partial sums meet in shared memory and one atomicAdd a row adds them to y, since the
/// other segments of the row add theirs too.
template <class T>
__global__ void sell_wide_rows(SellView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    extern __shared__ unsigned char shared_bytes[];
    T* partial = reinterpret_cast<T*>(shared_bytes);
    const index_t chunk = A.wide_chunk[blockIdx.x];
    const index_t from = A.wide_from[blockIdx.x];
    const index_t width = static_cast<index_t>((A.chunk_ptr[chunk + 1] - A.chunk_ptr[chunk]) / A.C);
    const index_t to = min(width, from + A.wide_slots);
    const int groups = static_cast<int>(blockDim.x) / A.C;
    const int t = static_cast<int>(threadIdx.x);
    const int j = t / A.C;
    const index_t lane = t % A.C;
    const T sum = lane_share(A, x, chunk, lane, from + j, to, groups);
    partial[t] = sum;
    __syncthreads();
    const long long p = static_cast<long long>(chunk) * A.C + lane;
    if (j != 0 || p >= A.rows) return;
    atomicAdd(&y[sell_row_at(A, p)], sum + later_shares(partial, t, groups, A.C));
}

/// Launches sell_wide_rows after the row kernels (the same stream, so their plain writes to y
/// are done first): C * G threads a block, G = kSellSplitBlock / C groups (1 for C >= 256).
template <class T>
void launch_wide(SellView<T> A, const T* x, T* y) {
    if (A.wide_segments == 0) return;
    const int groups = std::max<int>(1, static_cast<int>(kSellSplitBlock / A.C));
    const int block = A.C * groups;  // <= kSellMaxC
    const auto shared = static_cast<std::size_t>(block) * sizeof(T);
    sell_wide_rows<T><<<A.wide_segments, block, shared>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

}  // namespace kernel

template <class T>
void sell_spmv_threads(SellView<T> A, const T* x, T* y) {
    if (A.rows == 0) return;
    switch (A.threads) {
        case 2:
            kernel::launch_split<T, 2>(A, x, y);
            break;
        case 4:
            kernel::launch_split<T, 4>(A, x, y);
            break;
        case 8:
            kernel::launch_split<T, 8>(A, x, y);
            break;
        default:
            sell_spmv(A, x, y);  // one thread per row: the step 2 kernel
    }
    kernel::launch_wide(A, x, y);
}

/// @cond
template void sell_spmv_threads<float>(SellView<float>, const float*, float*);
template void sell_spmv_threads<double>(SellView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
