/// @file
/// Lab 03, steps 2 and 3: DIA SpMV on the GPU. See handouts/03-dia.md.
#include "gpu/cuda_run.hpp"
#include "dia_kernels.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread computes y[row] += A[row,:] * x for one row. At diagonal d, thread `row`
/// reads vals[d * pitch + row]: the 32 threads of a warp read 32 consecutive slots, and
/// since the pitch is a multiple of 32 every diagonal starts on an aligned address.
template <class T>
__global__ void dia_naive(DiaView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 2: one thread per row; loop over diagonals; skip columns outside [0, cols))
    const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= A.rows) return;
    T sum = 0;
    const T* slot = A.vals + row;
    for (index_t d = 0; d < A.diagonals; ++d, slot += A.pitch) {
        const long long col = row + A.offsets[d];
        if (col >= 0 && col < A.cols) sum += *slot * __ldg(&x[col]);
    }
    y[row] += sum;
    // END SOLUTION
}

/// Each thread computes one row, as in dia_naive, but every thread of the block needs the
/// same offsets[d] at the same time: the block copies them into shared memory once,
/// kDiaOffsetChunk at a time, instead of each thread reading them from global memory.
/// Threads past the last row still take part in the copies and barriers (no early return).
template <class T>
__global__ void dia_shared(DiaView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 3: chunks of kDiaOffsetChunk offsets staged in shared memory between barriers)
    __shared__ index_t offsets[kDiaOffsetChunk];
    const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool has_row = row < A.rows;
    T sum = 0;
    for (index_t first = 0; first < A.diagonals; first += kDiaOffsetChunk) {
        const index_t count = min(kDiaOffsetChunk, A.diagonals - first);
        __syncthreads();  // every thread has finished with the previous chunk
        for (index_t i = threadIdx.x; i < count; i += blockDim.x) offsets[i] = A.offsets[first + i];
        __syncthreads();  // the whole chunk is in shared memory
        if (!has_row) continue;
        const T* slot = A.vals + static_cast<std::size_t>(first) * A.pitch + row;
        for (index_t d = 0; d < count; ++d, slot += A.pitch) {
            const long long col = row + offsets[d];
            if (col >= 0 && col < A.cols) sum += *slot * __ldg(&x[col]);
        }
    }
    if (has_row) y[row] += sum;
    // END SOLUTION
}

}  // namespace kernel

template <class T>
void dia_naive_spmv(DiaView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 2: launch one thread per row, 256 per block)
    // STARTER: kit::todo("03-dia", 2, "cuda::dia_naive_spmv launch");
    constexpr int block = 256;
    kernel::dia_naive<<<grid_for(A.rows, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

template <class T>
void dia_shared_spmv(DiaView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 3: launch one thread per row, 256 per block)
    // STARTER: kit::todo("03-dia", 3, "cuda::dia_shared_spmv launch");
    constexpr int block = 256;
    kernel::dia_shared<<<grid_for(A.rows, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

/// @cond
template void dia_naive_spmv<float>(DiaView<float>, const float*, float*);
template void dia_naive_spmv<double>(DiaView<double>, const double*, double*);
template void dia_shared_spmv<float>(DiaView<float>, const float*, float*);
template void dia_shared_spmv<double>(DiaView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
