/// @file
/// Lab 02, steps 1-3: CSR SpMV kernels on the GPU. See handouts/02-csr.md.
#include "csr_kernels.hpp"
#include "cuda_run.hpp"

namespace kit::cuda {
namespace kernel {

/// A group of LANES consecutive threads computes y[row] += A[row,:] * x for one row:
/// lane l reads entries row_start+l, row_start+l+LANES, ... (consecutive lanes read
/// consecutive entries, so the loads coalesce), then the group sums its partial results
/// with shuffles. LANES = 1 is the scalar kernel, LANES = 32 the vector kernel.
template <class T, int LANES>
__global__ void csr_lanes(CsrView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(02-csr step 1): row = global thread / LANES, lane = thread % LANES; strided partial sums; shuffle reduction
}

/// Launches csr_lanes with one group of LANES threads per row.
template <class T, int LANES>
void launch_lanes(CsrView<T> A, const T* x, T* y) {
    constexpr int block = 256;  // a multiple of 32, so groups never straddle warps
    csr_lanes<T, LANES><<<grid_for(static_cast<long long>(A.rows) * LANES, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

}  // namespace kernel

template <class T>
void csr_scalar_spmv(CsrView<T> A, const T* x, T* y) {
    kernel::launch_lanes<T, 1>(A, x, y);
}

template <class T>
void csr_vector_spmv(CsrView<T> A, const T* x, T* y) {
    kernel::launch_lanes<T, 32>(A, x, y);
}

template <class T>
void csr_adaptive_spmv(CsrView<T> A, const T* x, T* y) {
    // TODO(02-csr step 3): pick LANES with choose_lanes(nnz / rows) and launch the matching instance
    kit::todo("02-csr", 3, "cuda::csr_adaptive_spmv dispatch");
}

/// @cond
template void csr_scalar_spmv<float>(CsrView<float>, const float*, float*);
template void csr_scalar_spmv<double>(CsrView<double>, const double*, double*);
template void csr_vector_spmv<float>(CsrView<float>, const float*, float*);
template void csr_vector_spmv<double>(CsrView<double>, const double*, double*);
template void csr_adaptive_spmv<float>(CsrView<float>, const float*, float*);
template void csr_adaptive_spmv<double>(CsrView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
