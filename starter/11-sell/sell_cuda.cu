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
    // TODO(11-sell step 2): one thread per position p < rows; chunk p / C, lane p % C; slots at chunk_ptr + k*C + lane; y[sell_row_at(A, p)] += sum
}

}  // namespace kernel

template <class T>
void sell_spmv(SellView<T> A, const T* x, T* y) {
    // TODO(11-sell step 2): launch one thread per row position, 256 per block (none if there are no rows)
    kit::todo("11-sell", 2, "cuda::sell_spmv launch");
}

/// @cond
template void sell_spmv<float>(SellView<float>, const float*, float*);
template void sell_spmv<double>(SellView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
