// Lab 01, step 1: COO SpMV on the CPU. See handouts/01-coo.md.
#include "coo_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void coo_spmv(CooView<T> A, const T* x, T* y) {
    // TODO(01-coo step 1): for every entry k, add vals[k] * x[col_idx[k]] to y[row_idx[k]]
    kit::todo("01-coo", 1, "cpu::coo_spmv");
}

template void coo_spmv<float>(CooView<float>, const float*, float*);
template void coo_spmv<double>(CooView<double>, const double*, double*);

}  // namespace kit::cpu
