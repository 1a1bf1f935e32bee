// Lab 04, steps 1 and 3: ELL and HYB SpMV on the CPU. See handouts/04-ell.md.
#include "ell_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void ell_spmv(EllView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 1: per row r and slot k < width: skip col_idx < 0, add vals * x[col])
    // STARTER: kit::todo("04-ell", 1, "cpu::ell_spmv");
    for (index_t r = 0; r < A.rows; ++r) {
        T sum = 0;
        for (index_t k = 0; k < A.width; ++k) {
            const std::size_t at = static_cast<std::size_t>(k) * A.pitch + r;
            const index_t c = A.col_idx[at];
            if (c >= 0) sum += A.vals[at] * x[c];  // a negative column marks padding
        }
        y[r] += sum;
    }
    // END SOLUTION
}

template <class T>
void hyb_spmv(HybView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 3: ell_spmv on A.ell, then add every entry of the COO part)
    // STARTER: kit::todo("04-ell", 3, "cpu::hyb_spmv");
    ell_spmv(A.ell, x, y);
    for (index_t k = 0; k < A.coo.nnz; ++k) y[A.coo.row_idx[k]] += A.coo.vals[k] * x[A.coo.col_idx[k]];
    // END SOLUTION
}

template void ell_spmv<float>(EllView<float>, const float*, float*);
template void ell_spmv<double>(EllView<double>, const double*, double*);
template void hyb_spmv<float>(HybView<float>, const float*, float*);
template void hyb_spmv<double>(HybView<double>, const double*, double*);

}  // namespace kit::cpu
