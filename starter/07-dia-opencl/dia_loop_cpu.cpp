// Lab 07, step 0: the plain DIA loop on the CPU, the C code the OpenCL kernels start from.
// See handouts/07-dia-opencl.md.
#include "dia_path.hpp"

namespace kit::cpu {

template <class T>
void dia_loop_spmv(DiaView<T> A, const T* x, T* y) {
    // TODO(07-dia-opencl step 0): for each row, each diagonal d whose column row + offsets[d] is in range
    kit::todo("07-dia-opencl", 0, "cpu::dia_loop_spmv");
}

template void dia_loop_spmv<float>(DiaView<float>, const float*, float*);
template void dia_loop_spmv<double>(DiaView<double>, const double*, double*);

}  // namespace kit::cpu
