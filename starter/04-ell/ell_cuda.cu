/// @file
/// Lab 04, steps 2 and 3: ELL and HYB SpMV on the GPU. See handouts/04-ell.md.
#include "gpu/cuda_run.hpp"
#include "ell_kernels.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread computes y[row] += A[row,:] * x for one row. At slot k, thread `row` reads
/// col_idx[k * pitch + row] and vals[k * pitch + row]: a warp reads 32 consecutive
/// entries of each array (coalesced). A negative column marks padding: x is not read there
/// (it would be out of range), but the value is read anyway, since padding holds 0. Reading
/// it unconditionally lets the value load start together with the column load instead of
/// waiting for the branch: on an H200 (7-point stencil, 14.6M nonzeros) that took ELL from
/// 56% to 68% of the copy bandwidth in float, and from 74% to 83% in double.
template <class T>
__global__ void ell_rows(EllView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(04-ell step 2): one thread per row; slots k < width at k*pitch + row; skip columns < 0
}

/// Each thread takes one entry k of HYB's COO part and adds vals[k] * x[col_idx[k]] to
/// y[row_idx[k]] with atomicAdd: several entries of a long row land on the same y[row].
template <class T>
__global__ void coo_part(CooView<T> A, const T* __restrict__ x, T* y) {
    // TODO(04-ell step 3): one thread per entry k < nnz; atomicAdd its product into y[row_idx[k]]
}

}  // namespace kernel

template <class T>
void ell_spmv(EllView<T> A, const T* x, T* y) {
    // TODO(04-ell step 2): launch one thread per row, 256 per block
    kit::todo("04-ell", 2, "cuda::ell_spmv launch");
}

template <class T>
void hyb_spmv(HybView<T> A, const T* x, T* y) {
    // TODO(04-ell step 3): the ELL kernel, then coo_part, one thread per COO entry (none if empty)
    kit::todo("04-ell", 3, "cuda::hyb_spmv launches");
}

/// @cond
template void ell_spmv<float>(EllView<float>, const float*, float*);
template void ell_spmv<double>(EllView<double>, const double*, double*);
template void hyb_spmv<float>(HybView<float>, const float*, float*);
template void hyb_spmv<double>(HybView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
