/// @file
/// Lab 00, step 2: your first CUDA kernel, CSR SpMV with one thread per row. See handouts/00-basics.md.
#include "basics_kernels.hpp"
#include "gpu/cuda_run.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread computes y[row] += A[row,:] * x for one row.
template <class T>
__global__ void csr_spmv(CsrView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 2: compute this thread's row, guard row < A.rows, loop over its entries)
    const index_t row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= A.rows) return;  // the last block can be partly outside the matrix
    T sum = 0;
    for (index_t k = A.row_ptr[row]; k < A.row_ptr[row + 1]; ++k) sum += A.vals[k] * x[A.col_idx[k]];
    y[row] += sum;
    // END SOLUTION
}

}  // namespace kernel

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 2: launch enough blocks of 128 threads to give every row a thread)
    // STARTER: kit::todo("00-basics", 2, "cuda::csr_spmv launch");
    constexpr int block = 128;
    kernel::csr_spmv<<<grid_for(A.rows, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

/// @cond
template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
