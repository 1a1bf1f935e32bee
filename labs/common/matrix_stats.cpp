#include "matrix_stats.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kit {

double bcsr_fill_ratio(const CooMatrix& A, int r, int c) {
    if (A.nnz() == 0) return 1.0;
    std::vector<std::pair<index_t, index_t>> blocks;
    blocks.reserve(A.val.size());
    for (std::size_t k = 0; k < A.val.size(); ++k) blocks.emplace_back(A.row[k] / r, A.col[k] / c);
    std::sort(blocks.begin(), blocks.end());
    const auto distinct = std::unique(blocks.begin(), blocks.end()) - blocks.begin();
    return static_cast<double>(distinct) * r * c / static_cast<double>(A.nnz());
}

MatrixStats compute_stats(const CooMatrix& A) {
    MatrixStats s;
    s.rows = A.rows;
    s.cols = A.cols;
    s.nnz = A.nnz();
    std::vector<index_t> len(A.rows, 0);
    for (index_t r : A.row) ++len[r];
    if (A.rows > 0) {
        s.min_row = *std::min_element(len.begin(), len.end());
        s.max_row = *std::max_element(len.begin(), len.end());
        s.mean_row = static_cast<double>(s.nnz) / A.rows;
        double var = 0;
        for (index_t l : len) var += (l - s.mean_row) * (l - s.mean_row);
        s.stddev_row = std::sqrt(var / A.rows);
        s.empty_rows = static_cast<index_t>(std::count(len.begin(), len.end(), 0));
    }
    std::vector<char> diag_used(static_cast<std::size_t>(A.rows) + A.cols, 0);
    for (std::size_t k = 0; k < A.val.size(); ++k) diag_used[static_cast<std::size_t>(A.col[k]) - A.row[k] + A.rows] = 1;
    s.diagonals = static_cast<index_t>(std::count(diag_used.begin(), diag_used.end(), 1));
    const double nnz = s.nnz > 0 ? static_cast<double>(s.nnz) : 1.0;
    s.ell_fill = static_cast<double>(A.rows) * s.max_row / nnz;
    s.dia_fill = static_cast<double>(A.rows) * s.diagonals / nnz;
    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c) s.bcsr_fill[r - 1][c - 1] = bcsr_fill_ratio(A, r, c);
    return s;
}

}  // namespace kit
