// Lab 09, step 1: GEMV on the CPU, both transposes. See handouts/09-gemv.md.
#include "gemv_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void gemv(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    // BEGIN SOLUTION(step 1: y[i] = alpha * (row or column i) . x + beta * y[i]; y unread if beta == 0)
    // STARTER: kit::todo("09-gemv", 1, "cpu::gemv");
    const index_t ny = gemv_y_length(op, A), nx = gemv_x_length(op, A);
    for (index_t i = 0; i < ny; ++i) {
        T sum = 0;
        for (index_t k = 0; k < nx; ++k) {
            // A(i, k) without transpose, A(k, i) with it
            const std::size_t at =
                op == Transpose::no ? i + static_cast<std::size_t>(k) * A.lda : k + static_cast<std::size_t>(i) * A.lda;
            sum += A.vals[at] * x[k];
        }
        y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
    }
    // END SOLUTION
}

/// @cond
template void gemv<float>(Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv<double>(Transpose, double, DenseView<double>, const double*, double, double*);
/// @endcond

}  // namespace kit::cpu
