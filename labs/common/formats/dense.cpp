#include "formats/dense.hpp"

#include <algorithm>

#include "core/kit_error.hpp"

namespace kit {

std::optional<std::string> dense_refusal(count_t rows, count_t cols, count_t lda, count_t nnz) {
    const count_t stored = lda * cols;
    const std::string shape = std::to_string(rows) + " x " + std::to_string(cols) + " (lda " + std::to_string(lda) +
                              ", " + std::to_string(stored) + " values)";
    if (stored > kMaxDenseEntries)
        return "dense " + shape + " exceeds the limit of " + std::to_string(kMaxDenseEntries) + " values";
    if (stored > kDenseFillFloor && static_cast<double>(stored) > kMaxDenseFill * static_cast<double>(nnz))
        return "dense " + shape + " would store " + std::to_string(nnz ? stored / nnz : stored) +
               " values per nonzero (" + std::to_string(nnz) + " nonzeros); the limit is " +
               std::to_string(static_cast<int>(kMaxDenseFill));
    return std::nullopt;
}

template <class T>
Dense<T> Dense<T>::from_coo(const CooMatrix& A, index_t lda) {
    if (lda == 0) lda = std::max<index_t>(1, A.rows);
    if (lda < std::max<index_t>(1, A.rows))
        throw Error("dense: lda " + std::to_string(lda) + " is below the row count " + std::to_string(A.rows));
    if (auto why = dense_refusal(A.rows, A.cols, lda, A.nnz())) throw ConversionRefused(*why);
    Dense d;
    d.rows = A.rows;
    d.cols = A.cols;
    d.lda = lda;
    d.vals.assign(static_cast<std::size_t>(lda) * A.cols, T(0));
    for (count_t k = 0; k < A.nnz(); ++k)
        d.vals[A.row_idx[k] + static_cast<std::size_t>(A.col_idx[k]) * lda] += static_cast<T>(A.vals[k]);
    return d;
}

template <class T>
Dense<T> Dense<T>::transposed_from_coo(const CooMatrix& A) {
    CooMatrix t;
    t.rows = A.cols;
    t.cols = A.rows;
    t.row_idx = A.col_idx;
    t.col_idx = A.row_idx;
    t.vals = A.vals;
    return from_coo(t);
}

template <class T>
CooMatrix Dense<T>::to_coo() const {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j) {
            const T v = vals[i + static_cast<std::size_t>(j) * lda];
            if (v != T(0)) A.add(i, j, static_cast<double>(v));
        }
    return A;
}

/// @cond
template struct Dense<float>;
template struct Dense<double>;
/// @endcond

}  // namespace kit
