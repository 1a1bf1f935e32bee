/// @file
/// Lab 00, step 2: your first CUDA kernel, CSR SpMV with one thread per row. See handouts/00-basics.md.
#include "basics_kernels.hpp"
#include "gpu/cuda_run.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread computes y[row] += A[row,:] * x for one row.
template <class T>
__global__ void csr_spmv(CsrView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(00-basics step 2): compute this thread's row, guard row < A.rows, loop over its entries
}

}  // namespace kernel

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    // TODO(00-basics step 2): launch enough blocks of 128 threads to give every row a thread
    kit::todo("00-basics", 2, "cuda::csr_spmv launch");
}

/// @cond
template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
