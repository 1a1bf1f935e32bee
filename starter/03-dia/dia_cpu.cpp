// Lab 03, step 1: DIA SpMV on the CPU. See handouts/03-dia.md.
#include <algorithm>

#include "dia_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void dia_spmv(DiaView<T> A, const T* x, T* y) {
    // TODO(03-dia step 1): per diagonal d, rows r whose column r + offsets[d] is in [0, cols)
    kit::todo("03-dia", 1, "cpu::dia_spmv");
}

template void dia_spmv<float>(DiaView<float>, const float*, float*);
template void dia_spmv<double>(DiaView<double>, const double*, double*);

}  // namespace kit::cpu
