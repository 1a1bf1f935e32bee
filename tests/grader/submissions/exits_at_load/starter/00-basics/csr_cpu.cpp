// Adversarial submission: exits with status 0 before main() runs (from a static constructor),
// so no test ever starts.
#include <cstdlib>

#include "basics_kernels.hpp"

namespace {
struct LeaveAtOnce {
    LeaveAtOnce() { std::exit(0); }
} leave_at_once;
}  // namespace

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    for (index_t i = 0; i < A.rows; ++i)
        for (index_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) y[i] += A.vals[k] * x[A.col_idx[k]];
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
