// Lab 11, step 1: SELL-C-sigma SpMV on the CPU. See handouts/11-sell.md.
#include "core/kit_error.hpp"
#include "sell_kernels.hpp"

namespace kit::cpu {

template <class T>
void sell_spmv(SellView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 1: per position p < rows: chunk p / C, lane p % C; slots k < width at chunk_ptr + k*C + lane; skip col < 0; y[perm[p]] += sum)
    // STARTER: kit::todo("11-sell", 1, "cpu::sell_spmv");
    for (index_t p = 0; p < A.rows; ++p) {
        const index_t chunk = p / A.C, lane = p % A.C;
        std::size_t at = static_cast<std::size_t>(A.chunk_ptr[chunk]) + lane;
        T sum = 0;
        for (index_t k = 0; k < A.chunk_width[chunk]; ++k, at += static_cast<std::size_t>(A.C)) {
            const index_t c = A.col_idx[at];
            if (c >= 0) sum += A.vals[at] * x[c];  // a negative column marks padding
        }
        y[A.perm[p]] += sum;  // position p holds row perm[p]: the sort must not reorder y
    }
    // END SOLUTION
}

template void sell_spmv<float>(SellView<float>, const float*, float*);
template void sell_spmv<double>(SellView<double>, const double*, double*);

}  // namespace kit::cpu
