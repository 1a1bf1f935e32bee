// Adversarial submission: right on every matrix except the 4x4 example, where it loops
// forever. The test program times out; re-run alone, the first test hangs again. The other
// tests must still be re-run, each with its own time: Rdb450 earns its points and the CUDA
// tests (no GPU here) are not run, rather than failed for lack of time.
#include "basics_kernels.hpp"

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    volatile bool stuck = A.rows == 4 && A.nnz == 9;
    while (stuck) {
    }
    for (int i = 0; i < A.rows; ++i)
        for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) y[i] += A.vals[k] * x[A.col_idx[k]];
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
