// Lab 03, step 1: DIA SpMV on the CPU. See handouts/03-dia.md.
#include <algorithm>

#include "dia_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void dia_spmv(DiaView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 1: per diagonal d, rows r whose column r + offsets[d] is in [0, cols))
    // STARTER: kit::todo("03-dia", 1, "cpu::dia_spmv");
    for (index_t d = 0; d < A.diagonals; ++d) {
        const long long offset = A.offsets[d];
        // The rows whose column row + offset lies inside the matrix: the rest is padding.
        const long long begin = std::max(0LL, -offset);
        const long long end = std::min<long long>(A.rows, A.cols - offset);
        const T* diagonal = A.vals + static_cast<std::size_t>(d) * A.pitch;
        for (long long r = begin; r < end; ++r) y[r] += diagonal[r] * x[r + offset];
    }
    // END SOLUTION
}

template void dia_spmv<float>(DiaView<float>, const float*, float*);
template void dia_spmv<double>(DiaView<double>, const double*, double*);

}  // namespace kit::cpu
