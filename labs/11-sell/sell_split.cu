/// @file
/// Lab 11, given code: SELL-C-sigma with several threads per row (SELL-P's T). See the
/// handout's step 3, "Threads per row".
#include "gpu/cuda_run.hpp"
#include "sell_kernels.hpp"

namespace kit::cuda {
namespace kernel {

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
    T sum = 0;
    if (chunk < A.chunks) {
        const index_t width = A.chunk_width[chunk];
        const std::size_t stride = static_cast<std::size_t>(A.C) * kThreads;
        std::size_t at = static_cast<std::size_t>(A.chunk_ptr[chunk]) + static_cast<std::size_t>(j) * A.C + lane;
#pragma unroll 4
        for (index_t k = j; k < width; k += kThreads, at += stride) {
            const index_t col = A.col_idx[at];
            const T val = A.vals[at];
            sum += val * (col >= 0 ? __ldg(&x[col]) : T(0));
        }
    }
    partial[t] = sum;
    __syncthreads();
    if (j != 0 || p >= A.rows) return;
    for (int q = 1; q < kThreads; ++q) sum += partial[t + q * A.C];
    y[A.perm[p]] += sum;
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

}  // namespace kernel

template <class T>
void sell_spmv_threads(SellView<T> A, const T* x, T* y) {
    if (A.rows == 0) return;
    switch (A.threads) {
        case 2: return kernel::launch_split<T, 2>(A, x, y);
        case 4: return kernel::launch_split<T, 4>(A, x, y);
        case 8: return kernel::launch_split<T, 8>(A, x, y);
        default: return sell_spmv(A, x, y);  // one thread per row: the step 2 kernel
    }
}

/// @cond
template void sell_spmv_threads<float>(SellView<float>, const float*, float*);
template void sell_spmv_threads<double>(SellView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
