// Lab 05, step 1: BCSR SpMV on the CPU. See handouts/05-bcsr.md.
#include "bcsr_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void bcsr_spmv(BcsrView<T> A, const T* x, T* y) {
    // TODO(05-bcsr step 1): each block (r*c values) times x[col .. col+c-1], clipped at rows and cols
    kit::todo("05-bcsr", 1, "cpu::bcsr_spmv");
}

template void bcsr_spmv<float>(BcsrView<float>, const float*, float*);
template void bcsr_spmv<double>(BcsrView<double>, const double*, double*);

}  // namespace kit::cpu
