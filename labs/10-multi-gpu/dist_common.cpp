// Lab 10's given host code: column ownership and the rank-local CSR product.
#include <algorithm>

#include "dist_spmv.hpp"

namespace kit::dist {

std::vector<index_t> column_partition(const std::vector<index_t>& row_begin, index_t rows, index_t cols) {
    if (rows == cols) return row_begin;
    const long long parts = static_cast<long long>(row_begin.size()) - 1;
    std::vector<index_t> begin(row_begin.size());
    for (long long p = 0; p <= parts; ++p) begin[p] = static_cast<index_t>(p * cols / (parts > 0 ? parts : 1));
    return begin;
}

int owner_of(const std::vector<index_t>& col_begin, index_t col) {
    // the last p with col_begin[p] <= col (empty ranges before it share its begin)
    return static_cast<int>(std::upper_bound(col_begin.begin(), col_begin.end() - 1, col) - col_begin.begin()) - 1;
}

template <class T>
void csr_rows_spmv(CsrView<T> A, const T* x, T* y) {
    for (index_t i = 0; i < A.rows; ++i) {
        T sum = 0;
        for (index_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) sum += A.vals[k] * x[A.col_idx[k]];
        y[i] += sum;
    }
}

template void csr_rows_spmv(CsrView<float>, const float*, float*);
template void csr_rows_spmv(CsrView<double>, const double*, double*);

}  // namespace kit::dist
