// Lab 01, step 1: COO SpMV on the CPU. See handouts/01-coo.md.
#include "coo_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void coo_spmv(CooView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 1: for every entry k, add vals[k] * x[col_idx[k]] to y[row_idx[k]])
    // STARTER: kit::todo("01-coo", 1, "cpu::coo_spmv");
    for (index_t k = 0; k < A.nnz; ++k) y[A.row_idx[k]] += A.vals[k] * x[A.col_idx[k]];
    // END SOLUTION
}

template void coo_spmv<float>(CooView<float>, const float*, float*);
template void coo_spmv<double>(CooView<double>, const double*, double*);

}  // namespace kit::cpu
