#include "formats/bcsr.hpp"

#include <algorithm>
#include <sstream>

#include "core/kit_error.hpp"

namespace kit {
namespace {

void refuse(const CooMatrix& A, int r, int c, count_t blocks, const BcsrLimits& limits, double limit) {
    const count_t stored = blocks * r * c;
    std::ostringstream msg;
    msg << "BCSR " << r << "x" << c << " conversion refused: " << blocks << " blocks x " << r * c << " = " << stored
        << " stored values for " << A.nnz() << " nonzeros (fill " << static_cast<double>(stored) / A.nnz()
        << "), above the limit " << limits.max_fill << " x nnz + " << limits.floor_values << " = "
        << static_cast<count_t>(limit) << ". This matrix has no " << r << "x" << c
        << " block structure: use a smaller block ('spmv-kit info' prints the fill of every r x c) or CSR.";
    throw ConversionRefused(msg.str());
}

}  // namespace

std::vector<count_t> hub_row_ptr(const CooMatrix& A) {
    std::vector<count_t> start(static_cast<std::size_t>(A.rows) + 1, 0);
    for (index_t i : A.row_idx) ++start[static_cast<std::size_t>(i) + 1];
    for (index_t i = 0; i < A.rows; ++i) start[i + 1] += start[i];
    return start;
}

template <class T>
Bcsr<T> Bcsr<T>::from_coo(const CooMatrix& A, int r, int c, const BcsrLimits& limits) {
    if (r < 1 || r > 4 || c < 1 || c > 4)
        throw Error("Bcsr::from_coo: block size " + std::to_string(r) + "x" + std::to_string(c) +
                    " is not supported; r and c must be in 1..4");
    if (!A.is_normalized()) throw Error("Bcsr::from_coo: hub matrix is not normalized (call normalize())");
    const index_t block_rows = static_cast<index_t>((static_cast<count_t>(A.rows) + r - 1) / r);
    const index_t block_cols = static_cast<index_t>((static_cast<count_t>(A.cols) + c - 1) / c);
    const std::vector<count_t> start = hub_row_ptr(A);
    auto first_entry = [&](index_t ib) { return start[std::min<count_t>(static_cast<count_t>(ib) * r, A.rows)]; };

    Bcsr<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    out.r = r;
    out.c = c;
    out.nnz_ = A.nnz();
    out.row_ptr.assign(static_cast<std::size_t>(block_rows) + 1, 0);
    // Pass 1, structure only: the distinct block columns of each block row, sorted. `seen`
    // stamps a block column with the block row that last used it, so it is never cleared.
    std::vector<index_t> seen(static_cast<std::size_t>(block_cols), -1);
    std::vector<index_t> here;
    for (index_t ib = 0; ib < block_rows; ++ib) {
        here.clear();
        for (count_t k = first_entry(ib); k < first_entry(ib + 1); ++k) {
            const index_t bc = A.col_idx[k] / c;
            if (seen[bc] != ib) {
                seen[bc] = ib;
                here.push_back(bc);
            }
        }
        std::sort(here.begin(), here.end());
        for (index_t bc : here) out.col_idx.push_back(bc * c);
        check_index_range("BCSR blocks", static_cast<count_t>(out.col_idx.size()));
        out.row_ptr[ib + 1] = static_cast<index_t>(out.col_idx.size());
    }
    // Refuse before the values are allocated: that is the allocation that could be huge.
    const count_t blocks = static_cast<count_t>(out.col_idx.size());
    const double limit = limits.max_fill * static_cast<double>(A.nnz()) + static_cast<double>(limits.floor_values);
    if (static_cast<double>(blocks * r * c) > limit) refuse(A, r, c, blocks, limits, limit);
    check_index_range("BCSR stored values", blocks * r * c);
    out.vals.assign(static_cast<std::size_t>(blocks * r * c), T(0));
    // Pass 2: `seen` now maps a block column to its block in the current block row.
    for (index_t ib = 0; ib < block_rows; ++ib) {
        for (index_t b = out.row_ptr[ib]; b < out.row_ptr[ib + 1]; ++b) seen[out.col_idx[b] / c] = b;
        for (count_t k = first_entry(ib); k < first_entry(ib + 1); ++k) {
            const count_t b = seen[A.col_idx[k] / c];
            const std::size_t slot = static_cast<std::size_t>(b * r * c + (A.row_idx[k] % r) * c + A.col_idx[k] % c);
            out.vals[slot] = static_cast<T>(A.vals[k]);
        }
    }
    return out;
}

template <class T>
CooMatrix Bcsr<T>::to_coo() const {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (index_t ib = 0; ib < block_rows(); ++ib)
        for (index_t b = row_ptr[ib]; b < row_ptr[ib + 1]; ++b)
            for (int i = 0; i < r; ++i)
                for (int j = 0; j < c; ++j) {
                    const count_t row = static_cast<count_t>(ib) * r + i, column = static_cast<count_t>(col_idx[b]) + j;
                    const T v = vals[static_cast<std::size_t>(static_cast<count_t>(b) * r * c + i * c + j)];
                    if (row < rows && column < cols && v != T(0))
                        A.add(static_cast<index_t>(row), static_cast<index_t>(column), static_cast<double>(v));
                }
    A.normalize();
    return A;
}

template struct Bcsr<float>;
template struct Bcsr<double>;

}  // namespace kit
