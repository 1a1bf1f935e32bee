// Lab 07, step 0: the plain DIA loop on the CPU, the C code the OpenCL kernels start from.
// See handouts/07-dia-opencl.md.
#include "dia_path.hpp"

namespace kit::cpu {

template <class T>
void dia_loop_spmv(DiaView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 0: for each row, each diagonal d whose column row + offsets[d] is in range)
    // STARTER: kit::todo("07-dia-opencl", 0, "cpu::dia_loop_spmv");
    // Row outer, diagonal inner: the loop order of the kernels, where one work-item owns a row.
    for (index_t row = 0; row < A.rows; ++row) {
        T sum = 0;
        for (index_t d = 0; d < A.diagonals; ++d) {
            const index_t col = row + A.offsets[d];
            if (col >= 0 && col < A.cols) sum += A.vals[static_cast<std::size_t>(d) * A.pitch + row] * x[col];
        }
        y[row] += sum;
    }
    // END SOLUTION
}

template void dia_loop_spmv<float>(DiaView<float>, const float*, float*);
template void dia_loop_spmv<double>(DiaView<double>, const double*, double*);

}  // namespace kit::cpu
