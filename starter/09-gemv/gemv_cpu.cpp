// Lab 09, step 1: GEMV on the CPU, both transposes. See handouts/09-gemv.md.
#include "gemv_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void gemv(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    // TODO(09-gemv step 1): y[i] = alpha * (row or column i) . x + beta * y[i]; y unread if beta == 0
    kit::todo("09-gemv", 1, "cpu::gemv");
}

/// @cond
template void gemv<float>(Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv<double>(Transpose, double, DenseView<double>, const double*, double, double*);
/// @endcond

}  // namespace kit::cpu
