/// @file
/// Lab 11, step 2: SELL-C-sigma SpMV on the GPU. See handouts/11-sell.md.
#include "gpu/cuda_run.hpp"
#include "sell_kernels.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread computes one row: thread p (p < rows) takes lane p % C of chunk p / C, which
/// holds row perm[p]. At slot k it reads col_idx and vals at chunk_ptr[chunk] + k * C + lane:
/// consecutive lanes read consecutive addresses (coalesced), as in ELL, but each chunk runs
/// only its own width. With C a multiple of 32 every warp lies in one chunk, so its threads
/// loop the same number of times. As in lab 04's kernel, the value is loaded whether or not
/// the slot is padding (padding holds 0), so both loads start together; only x is guarded.
template <class T>
__global__ void sell_rows(SellView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 2: one thread per position p < rows; chunk p / C, lane p % C; slots at chunk_ptr + k*C + lane; y[sell_row_at(A, p)] += sum)
    const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (p >= A.rows) return;
    const index_t chunk = static_cast<index_t>(p / A.C);
    const index_t lane = static_cast<index_t>(p % A.C);
    // The row and its y depend on no slot: loaded first, their two rounds overlap the loop's.
    const index_t row = sell_row_at(A, p);
    const T y_row = y[row];
    const index_t width = A.chunk_width[chunk];
    std::size_t at = static_cast<std::size_t>(A.chunk_ptr[chunk]) + lane;
    T sum = 0;
#pragma unroll 4
    for (index_t k = 0; k < width; ++k, at += static_cast<std::size_t>(A.C)) {
        // Each slot is read once: __ldcs marks its lines first to leave L2, so that x and y,
        // read again, keep theirs (in back-to-back calls, as a solver makes them, too).
        const index_t col = __ldcs(&A.col_idx[at]);
        const T val = __ldcs(&A.vals[at]);
        sum += val * (col >= 0 ? __ldg(&x[col]) : T(0));
    }
    // perm is a permutation, so no two threads write the same y entry: no atomics needed.
    y[row] = y_row + sum;
    // END SOLUTION
}

}  // namespace kernel

template <class T>
void sell_spmv(SellView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 2: launch one thread per row position, 256 per block (none if there are no rows))
    // STARTER: kit::todo("11-sell", 2, "cuda::sell_spmv launch");
    if (A.rows == 0) return;
    constexpr int block = 256;
    kernel::sell_rows<<<grid_for(A.rows, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

/// @cond
template void sell_spmv<float>(SellView<float>, const float*, float*);
template void sell_spmv<double>(SellView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
