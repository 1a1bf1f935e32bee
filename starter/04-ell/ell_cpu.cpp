// Lab 04, steps 1 and 3: ELL and HYB SpMV on the CPU. See handouts/04-ell.md.
#include "ell_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void ell_spmv(EllView<T> A, const T* x, T* y) {
    // TODO(04-ell step 1): for each row r and slot k < width: c = col_idx[k*pitch + r]; if c >= 0, add vals[k*pitch + r] * x[c]
    kit::todo("04-ell", 1, "cpu::ell_spmv");
}

template <class T>
void hyb_spmv(HybView<T> A, const T* x, T* y) {
    // TODO(04-ell step 3): ell_spmv on A.ell, then for every COO entry k add vals[k] * x[col_idx[k]] to y[row_idx[k]]
    kit::todo("04-ell", 3, "cpu::hyb_spmv");
}

template void ell_spmv<float>(EllView<float>, const float*, float*);
template void ell_spmv<double>(EllView<double>, const double*, double*);
template void hyb_spmv<float>(HybView<float>, const float*, float*);
template void hyb_spmv<double>(HybView<double>, const double*, double*);

}  // namespace kit::cpu
