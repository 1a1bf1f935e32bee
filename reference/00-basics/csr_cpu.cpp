// Lab 00, step 1: CSR SpMV on the CPU. See handouts/00-basics.md.
#include "basics_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 1: for each row i, add the products vals[k] * x[col_idx[k]] of its entries to y[i])
    // STARTER: kit::todo("00-basics", 1, "cpu::csr_spmv");
    for (index_t i = 0; i < A.rows; ++i) {
        T sum = 0;  // accumulate in a register, write y once per row
        for (index_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) sum += A.vals[k] * x[A.col_idx[k]];
        y[i] += sum;
    }
    // END SOLUTION
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
