// Lab 04, steps 1 and 3: ELL and HYB SpMV on the CPU. See handouts/04-ell.md.
#include "ell_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void ell_spmv(EllView<T> A, const T* x, T* y) {
    // TODO(04-ell step 1): per row r and slot k < width: skip col_idx < 0, add vals * x[col]
    kit::todo("04-ell", 1, "cpu::ell_spmv");
}

template <class T>
void hyb_spmv(HybView<T> A, const T* x, T* y) {
    // TODO(04-ell step 3): ell_spmv on A.ell, then add every entry of the COO part
    kit::todo("04-ell", 3, "cpu::hyb_spmv");
}

template void ell_spmv<float>(EllView<float>, const float*, float*);
template void ell_spmv<double>(EllView<double>, const double*, double*);
template void hyb_spmv<float>(HybView<float>, const float*, float*);
template void hyb_spmv<double>(HybView<double>, const double*, double*);

}  // namespace kit::cpu
