// Adversarial submission: asks for 100 GB, 256 MB at a time, touching every page.
#include <cstring>
#include <vector>

#include "coo_kernels.hpp"

namespace kit::cpu {

namespace {
std::vector<char*> hoard;
}

template <class T>
void coo_spmv(CooView<T> A, const T* x, T* y) {
    const std::size_t chunk = std::size_t(256) << 20;
    for (std::size_t total = 0; total < (std::size_t(100) << 30); total += chunk) {
        char* block = new char[chunk];
        std::memset(block, 1, chunk);
        hoard.push_back(block);
    }
    for (index_t k = 0; k < A.nnz; ++k) y[A.row_idx[k]] += A.vals[k] * x[A.col_idx[k]];
}

template void coo_spmv<float>(CooView<float>, const float*, float*);
template void coo_spmv<double>(CooView<double>, const double*, double*);

}  // namespace kit::cpu
