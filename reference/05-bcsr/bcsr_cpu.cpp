// Lab 05, step 1: BCSR SpMV on the CPU. See handouts/05-bcsr.md.
#include "bcsr_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
void bcsr_spmv(BcsrView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 1: each block (r*c values) times x[col .. col+c-1], clipped at rows and cols)
    // STARTER: kit::todo("05-bcsr", 1, "cpu::bcsr_spmv");
    const int rc = A.r * A.c;
    for (index_t ib = 0; ib < A.block_rows; ++ib) {
        T sum[4] = {0, 0, 0, 0};
        for (index_t k = A.row_ptr[ib]; k < A.row_ptr[ib + 1]; ++k) {
            const T* block = A.vals + static_cast<count_t>(k) * rc;
            // A partial block at the right edge: its columns past the end are fill, and x stops there.
            const int width = A.cols - A.col_idx[k] < A.c ? A.cols - A.col_idx[k] : A.c;
            for (int i = 0; i < A.r; ++i)
                for (int j = 0; j < width; ++j) sum[i] += block[i * A.c + j] * x[A.col_idx[k] + j];
        }
        const index_t row0 = ib * A.r;
        for (int i = 0; i < A.r && row0 + i < A.rows; ++i) y[row0 + i] += sum[i];
    }
    // END SOLUTION
}

template void bcsr_spmv<float>(BcsrView<float>, const float*, float*);
template void bcsr_spmv<double>(BcsrView<double>, const double*, double*);

}  // namespace kit::cpu
