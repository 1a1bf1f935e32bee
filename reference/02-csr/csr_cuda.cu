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
    // BEGIN SOLUTION(step 1: row = global thread / LANES, lane = thread % LANES; strided partial sums; shuffle reduction)
    const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long row = thread / LANES;
    const int lane = threadIdx.x % LANES;
    // Rows past the end still take part in the shuffles (with sum 0), so no thread leaves early.
    T sum = 0;
    if (row < A.rows) {
        const index_t end = A.row_ptr[row + 1];
        for (index_t k = A.row_ptr[row] + lane; k < end; k += LANES) sum += A.vals[k] * __ldg(&x[A.col_idx[k]]);
    }
    for (int off = LANES / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off, LANES);
    if (lane == 0 && row < A.rows) y[row] += sum;
    // END SOLUTION
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
    // BEGIN SOLUTION(step 3: pick LANES with choose_lanes(nnz / rows) and launch the matching instance)
    // STARTER: kit::todo("02-csr", 3, "cuda::csr_adaptive_spmv dispatch");
    const double mean = A.rows > 0 ? static_cast<double>(A.nnz) / A.rows : 0.0;
    switch (choose_lanes(mean)) {
        case 2: kernel::launch_lanes<T, 2>(A, x, y); break;
        case 4: kernel::launch_lanes<T, 4>(A, x, y); break;
        case 8: kernel::launch_lanes<T, 8>(A, x, y); break;
        case 16: kernel::launch_lanes<T, 16>(A, x, y); break;
        default: kernel::launch_lanes<T, 32>(A, x, y); break;
    }
    // END SOLUTION
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
