/// @file
/// Lab 01, steps 2 and 3: COO SpMV on the GPU. See handouts/01-coo.md.
#include "coo_kernels.hpp"
#include "gpu/cuda_run.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread computes one product vals[k] * x[col_idx[k]] and adds it to y[row_idx[k]] atomically.
template <class T>
__global__ void coo_atomic(CooView<T> A, const T* __restrict__ x, T* y) {
    // BEGIN SOLUTION(step 2: one thread per entry k; atomicAdd its product into y[row_idx[k]])
    const index_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < A.nnz) atomicAdd(&y[A.row_idx[k]], A.vals[k] * x[A.col_idx[k]]);
    // END SOLUTION
}

/// Each warp owns entries [begin, end) and walks them 32 at a time. Lane i holds entry
/// base+i; a segmented inclusive scan (key = row) sums equal rows inside the warp; the last
/// lane of each row segment adds the segment's sum to y. The running sum of a row that
/// continues into the next chunk is carried in registers, so a long row costs one atomic
/// per warp, not one per entry.
template <class T>
__global__ void coo_segmented(CooView<T> A, const T* __restrict__ x, T* y, index_t per_warp) {
    // BEGIN SOLUTION(step 3: segmented warp reduction over rows with __shfl_up_sync, carry between chunks)
    const int lane = threadIdx.x % kWarpSize;
    const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
    const long long begin = warp * per_warp;
    const long long end = begin + per_warp < A.nnz ? begin + per_warp : A.nnz;
    if (begin >= end) return;  // whole warp leaves together, so the shuffles below stay full-warp
    index_t carry_row = -1;
    T carry = 0;
    for (long long base = begin; base < end; base += kWarpSize) {
        const long long k = base + lane;
        const bool valid = k < end;
        index_t row = valid ? A.row_idx[k] : -1;
        T sum = valid ? A.vals[k] * x[A.col_idx[k]] : T(0);
        if (lane == 0 && row == carry_row) sum += carry;  // the previous chunk's unfinished row
        for (int off = 1; off < kWarpSize; off *= 2) {
            const T up = __shfl_up_sync(kFullWarpMask, sum, off);
            const index_t up_row = __shfl_up_sync(kFullWarpMask, row, off);
            if (lane >= off && up_row == row) sum += up;
        }
        const index_t next_row = __shfl_down_sync(kFullWarpMask, row, 1);
        const bool segment_end = valid && (lane == kWarpSize - 1 || next_row != row);
        // The last lane's segment may continue in the next chunk: carry it instead of writing.
        const bool continues = lane == kWarpSize - 1 && base + kWarpSize < end && A.row_idx[base + kWarpSize] == row;
        if (segment_end && !continues) atomicAdd(&y[row], sum);
        carry = __shfl_sync(kFullWarpMask, sum, kWarpSize - 1);
        carry_row = __shfl_sync(kFullWarpMask, continues ? row : -1, kWarpSize - 1);
    }
    // END SOLUTION
}

}  // namespace kernel

template <class T>
void coo_atomic_spmv(CooView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 2: launch one thread per entry, 256 per block)
    // STARTER: kit::todo("01-coo", 2, "cuda::coo_atomic_spmv launch");
    if (A.nnz == 0) return;
    constexpr int block = 256;
    kernel::coo_atomic<<<grid_for(A.nnz, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

template <class T>
void coo_segmented_spmv(CooView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 3: give each warp an interval of entries (a multiple of 32) and launch)
    // STARTER: kit::todo("01-coo", 3, "cuda::coo_segmented_spmv launch");
    if (A.nnz == 0) return;
    constexpr int block = 256;
    // 8 chunks of 32 per warp: long enough to amortise the carry, short enough to fill the GPU
    constexpr index_t per_warp = 8 * kWarpSize;
    const long long warps = (static_cast<long long>(A.nnz) + per_warp - 1) / per_warp;
    kernel::coo_segmented<<<grid_for(warps * kWarpSize, block), block>>>(A, x, y, per_warp);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

/// @cond
template void coo_atomic_spmv<float>(CooView<float>, const float*, float*);
template void coo_atomic_spmv<double>(CooView<double>, const double*, double*);
template void coo_segmented_spmv<float>(CooView<float>, const float*, float*);
template void coo_segmented_spmv<double>(CooView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
