/// @file
/// Lab 01, steps 2 and 3: COO SpMV on the GPU. See handouts/01-coo.md.
#include "coo_kernels.hpp"
#include "gpu/cuda_run.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread computes one product vals[k] * x[col_idx[k]] and adds it to y[row_idx[k]] atomically.
template <class T>
__global__ void coo_atomic(CooView<T> A, const T* __restrict__ x, T* y) {
    // TODO(01-coo step 2): one thread per entry k; atomicAdd its product into y[row_idx[k]]
}

/// Each warp owns entries [begin, end) and walks them 32 at a time. Lane i holds entry
/// base+i; a segmented inclusive scan (key = row) sums equal rows inside the warp; the last
/// lane of each row segment adds the segment's sum to y. The running sum of a row that
/// continues into the next chunk is carried in registers, so a long row costs one atomic
/// per warp, not one per entry.
template <class T>
__global__ void coo_segmented(CooView<T> A, const T* __restrict__ x, T* y, index_t per_warp) {
    // TODO(01-coo step 3): segmented warp reduction over rows with __shfl_up_sync, carry between chunks
}

}  // namespace kernel

template <class T>
void coo_atomic_spmv(CooView<T> A, const T* x, T* y) {
    // TODO(01-coo step 2): launch one thread per entry, 256 per block
    kit::todo("01-coo", 2, "cuda::coo_atomic_spmv launch");
}

template <class T>
void coo_segmented_spmv(CooView<T> A, const T* x, T* y) {
    // TODO(01-coo step 3): give each warp an interval of entries (a multiple of 32) and launch
    kit::todo("01-coo", 3, "cuda::coo_segmented_spmv launch");
}

/// @cond
template void coo_atomic_spmv<float>(CooView<float>, const float*, float*);
template void coo_atomic_spmv<double>(CooView<double>, const double*, double*);
template void coo_segmented_spmv<float>(CooView<float>, const float*, float*);
template void coo_segmented_spmv<double>(CooView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
