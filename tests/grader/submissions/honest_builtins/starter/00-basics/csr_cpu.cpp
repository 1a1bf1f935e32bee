// An honest submission the grader once refused: a correct kernel that uses a compiler builtin
// (__builtin_popcountll calls libgcc's __popcountdi2 without -mpopcnt) and copies a
// std::shared_ptr (libstdc++ reads __libc_single_threaded). It must get full CPU marks.
#include <memory>
#include <vector>

#include "basics_kernels.hpp"

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    auto rows = std::make_shared<std::vector<int>>();
    const auto copy = rows;  // a shared_ptr copy
    for (int i = 0; i < A.rows; ++i) {
        // an odd way to count a row's entries, to need the builtin
        const unsigned long long mask = (1ull << (A.row_ptr[i + 1] - A.row_ptr[i]) % 64) - 1;
        copy->push_back(__builtin_popcountll(mask));
        for (int k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) y[i] += A.vals[k] * x[A.col_idx[k]];
    }
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
