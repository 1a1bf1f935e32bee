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
    // TODO(03-dia step 2): one thread per row; loop over diagonals; skip columns outside [0, cols)
}

/// Each thread computes one row, as in dia_naive, but every thread of the block needs the
/// same offsets[d] at the same time: the block copies them into shared memory once,
/// kDiaOffsetChunk at a time, instead of each thread reading them from global memory.
/// Threads past the last row still take part in the copies and barriers (no early return).
template <class T>
__global__ void dia_shared(DiaView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(03-dia step 3): chunks of kDiaOffsetChunk offsets staged in shared memory between barriers
}

}  // namespace kernel

template <class T>
void dia_naive_spmv(DiaView<T> A, const T* x, T* y) {
    // TODO(03-dia step 2): launch one thread per row, 256 per block
    kit::todo("03-dia", 2, "cuda::dia_naive_spmv launch");
}

template <class T>
void dia_shared_spmv(DiaView<T> A, const T* x, T* y) {
    // TODO(03-dia step 3): launch one thread per row, 256 per block
    kit::todo("03-dia", 3, "cuda::dia_shared_spmv launch");
}

/// @cond
template void dia_naive_spmv<float>(DiaView<float>, const float*, float*);
template void dia_naive_spmv<double>(DiaView<double>, const double*, double*);
template void dia_shared_spmv<float>(DiaView<float>, const float*, float*);
template void dia_shared_spmv<double>(DiaView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
