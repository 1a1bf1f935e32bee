// Lab 11, step 1: SELL-C-sigma SpMV on the CPU. See handouts/11-sell.md.
#include "core/kit_error.hpp"
#include "sell_kernels.hpp"

namespace kit::cpu {

template <class T>
void sell_spmv(SellView<T> A, const T* x, T* y) {
    // TODO(11-sell step 1): per position p < rows: chunk p / C, lane p % C; slots k < width at chunk_ptr + k*C + lane; skip col < 0; y[perm[p]] += sum
    kit::todo("11-sell", 1, "cpu::sell_spmv");
}

template void sell_spmv<float>(SellView<float>, const float*, float*);
template void sell_spmv<double>(SellView<double>, const double*, double*);

}  // namespace kit::cpu
