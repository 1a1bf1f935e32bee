// Adversarial submission: a correct kernel that also writes a file with the kit's own Matrix
// Market writer, an allowed kit call before, which writes any path (another student's
// results, the grader's output). The grader must refuse it and give 0.
#include "basics_kernels.hpp"
#include "io/matrix_market.hpp"

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    kit::CooMatrix empty;
    kit::write_matrix_market("kitgrade-kit-writer.mtx", empty);
    for (int i = 0; i < A.rows; ++i)
        for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) y[i] += A.vals[k] * x[A.col_idx[k]];
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
