// Adversarial submission: right on ordinary matrices, but writes through a null pointer when
// the matrix has no entries (the hidden gallery's empty matrix), which kills the process.
#include "coo_kernels.hpp"

namespace kit::cpu {

template <class T>
void coo_spmv(CooView<T> A, const T* x, T* y) {
    if (A.nnz == 0) {
        volatile int* nowhere = nullptr;
        *nowhere = 1;
    }
    for (index_t k = 0; k < A.nnz; ++k) y[A.row_idx[k]] += A.vals[k] * x[A.col_idx[k]];
}

template void coo_spmv<float>(CooView<float>, const float*, float*);
template void coo_spmv<double>(CooView<double>, const double*, double*);

}  // namespace kit::cpu
