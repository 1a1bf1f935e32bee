// Adversarial submission: a correct kernel that also opens a file and reads the environment,
// which SpMV code never needs (a way to find and rewrite the results file). The grader must
// refuse to run it, whatever the kernel computes.
#include <cstdio>
#include <cstdlib>

#include "basics_kernels.hpp"

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    if (const char* where = std::getenv("HOME")) {
        if (FILE* f = std::fopen(where, "r")) std::fclose(f);
    }
    for (int i = 0; i < A.rows; ++i)
        for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) y[i] += A.vals[k] * x[A.col_idx[k]];
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
