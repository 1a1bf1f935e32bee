// Adversarial submission: a correct kernel that also removes a file through a function it
// declares weak, so that nm lists the call as 'w' (a weak undefined symbol), not 'U'. A weak
// reference is a call all the same: the grader must refuse it and give 0.
#include "basics_kernels.hpp"

extern "C" int unlink(const char* path) __attribute__((weak));

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    if (unlink) unlink("kitgrade-weak-declared-call.txt");
    for (int i = 0; i < A.rows; ++i)
        for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) y[i] += A.vals[k] * x[A.col_idx[k]];
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
