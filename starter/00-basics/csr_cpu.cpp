// Lab 00, step 1: CSR SpMV on the CPU. See handouts/00-basics.md.
#include "basics_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    // TODO(00-basics step 1): for each row i, add the products vals[k] * x[col_idx[k]] of its entries to y[i]
    kit::todo("00-basics", 1, "cpu::csr_spmv");
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
