#include "model/matrix_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/kit_error.hpp"

namespace kit {
namespace {

// Every figure here is computed in memory proportional to the entries, never to the
// declared rows or columns: a 10^9 x 1 matrix with one entry costs a few bytes, not gigabytes.

/// The hub matrix in row-major order: A itself when normalized, else a normalized copy.
const CooMatrix& row_major(const CooMatrix& A, CooMatrix& scratch) {
    if (A.is_normalized()) return A;
    scratch = A;
    scratch.normalize();
    return scratch;
}

/// Distinct block columns among sorted columns, a column's block being block_of(col). The
/// caller's block_of divides by a constant where it can (no division instruction in the loop).
template <class BlockOf>
count_t distinct_block_cols(const index_t* cols, std::size_t n, BlockOf block_of) {
    count_t blocks = 0;
    index_t last = -1;
    for (std::size_t k = 0; k < n; ++k) {
        const index_t b = block_of(cols[k]);
        blocks += b != last;
        last = b;
    }
    return blocks;
}

/// Block columns of width C, a compile-time constant.
template <int C>
count_t distinct_block_cols(const index_t* cols, std::size_t n) {
    return distinct_block_cols(cols, n, [](index_t col) { return col / C; });
}

/// Calls fn(cols, count) once per nonempty block row of r rows of a row-major A, with the
/// block row's columns in ascending order (a column used by several rows repeats). Within a
/// block row the rows are already sorted by column: up to 8 rows are merged one by one,
/// taller block rows are gathered and sorted once. Memory: one block row's columns.
template <class Fn>
void for_each_block_row(const CooMatrix& A, int r, Fn fn) {
    std::vector<index_t> merged, tmp;
    const std::size_t n = A.vals.size();
    const index_t* col = A.col_idx.data();
    const index_t* row = A.row_idx.data();
    for (std::size_t begin = 0; begin < n;) {
        const index_t block_row = row[begin] / r;
        std::size_t end = begin;
        while (end < n && row[end] == row[begin]) ++end;
        if (r == 1 || end == n || row[end] / r != block_row) {
            fn(col + begin, end - begin);
            begin = end;
            continue;
        }
        merged.assign(col + begin, col + end);
        while (end < n && row[end] / r == block_row) {
            std::size_t row_end = end;
            while (row_end < n && row[row_end] == row[end]) ++row_end;
            if (r > 8) {
                merged.insert(merged.end(), col + end, col + row_end);
            } else {
                tmp.resize(merged.size() + (row_end - end));
                std::merge(merged.begin(), merged.end(), col + end, col + row_end, tmp.begin());
                merged.swap(tmp);
            }
            end = row_end;
        }
        if (r > 8) std::sort(merged.begin(), merged.end());
        fn(merged.data(), merged.size());
        begin = end;
    }
}

/// Distinct r x c blocks for c = 1..4 at once, one block row at a time (A row-major).
void count_blocks(const CooMatrix& A, int r, count_t blocks[4]) {
    std::fill(blocks, blocks + 4, 0);
    for_each_block_row(A, r, [&](const index_t* cols, std::size_t count) {
        blocks[0] += distinct_block_cols<1>(cols, count);
        blocks[1] += distinct_block_cols<2>(cols, count);
        blocks[2] += distinct_block_cols<3>(cols, count);
        blocks[3] += distinct_block_cols<4>(cols, count);
    });
}

/// Occupied diagonals (distinct col - row). A bitmap over all rows + cols diagonals is
/// fastest, but is only used when it is no larger than one double per entry; otherwise
/// the offsets are sorted.
index_t count_diagonals_of(const CooMatrix& A) {
    const std::size_t n = A.vals.size();
    const std::uint64_t span = static_cast<std::uint64_t>(A.rows) + static_cast<std::uint64_t>(A.cols);
    if (span / 64 <= n) {
        std::vector<std::uint64_t> used(span / 64 + 1, 0);
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint64_t d =
                static_cast<std::uint64_t>(static_cast<count_t>(A.col_idx[k]) - A.row_idx[k] + A.rows);
            used[d / 64] |= std::uint64_t{1} << (d % 64);
        }
        count_t total = 0;
        for (std::uint64_t w : used) total += __builtin_popcountll(w);
        return static_cast<index_t>(total);
    }
    std::vector<count_t> offsets(n);
    for (std::size_t k = 0; k < n; ++k) offsets[k] = static_cast<count_t>(A.col_idx[k]) - A.row_idx[k];
    std::sort(offsets.begin(), offsets.end());
    return static_cast<index_t>(std::unique(offsets.begin(), offsets.end()) - offsets.begin());
}

}  // namespace

count_t nonempty_blocks(const CooMatrix& A_in, int r, int c) {
    if (r < 1 || c < 1)
        throw Error("nonempty_blocks: block sizes must be at least 1, got " + std::to_string(r) + " x " +
                    std::to_string(c));
    CooMatrix scratch;
    const CooMatrix& A = row_major(A_in, scratch);
    if (c <= 4) {
        count_t blocks[4];
        count_blocks(A, r, blocks);
        return blocks[c - 1];
    }
    count_t blocks = 0;
    for_each_block_row(A, r, [&](const index_t* cols, std::size_t count) {
        blocks += distinct_block_cols(cols, count, [c](index_t col) { return col / c; });
    });
    return blocks;
}

index_t occupied_diagonals(const CooMatrix& A) { return count_diagonals_of(A); }

double bcsr_fill_ratio(const CooMatrix& A, int r, int c) {
    if (A.nnz() == 0) return 1.0;
    return static_cast<double>(nonempty_blocks(A, r, c)) * r * c / static_cast<double>(A.nnz());
}

MatrixStats compute_stats(const CooMatrix& A_in) {
    CooMatrix scratch;
    const CooMatrix& A = row_major(A_in, scratch);
    MatrixStats s;
    s.rows = A.rows;
    s.cols = A.cols;
    s.nnz = A.nnz();
    // Row lengths from the runs of the sorted row array; empty rows are counted, not stored.
    count_t nonempty = 0;
    index_t shortest = 0, longest = 0;
    double sum_sq_dev = 0;
    const double mean = A.rows > 0 ? static_cast<double>(s.nnz) / A.rows : 0.0;
    for (std::size_t k = 0; k < A.vals.size();) {
        std::size_t e = k;
        while (e < A.vals.size() && A.row_idx[e] == A.row_idx[k]) ++e;
        const auto len = static_cast<index_t>(e - k);
        shortest = nonempty == 0 ? len : std::min(shortest, len);
        longest = std::max(longest, len);
        sum_sq_dev += (len - mean) * (len - mean);
        ++nonempty;
        k = e;
    }
    if (A.rows > 0) {
        s.empty_rows = static_cast<index_t>(A.rows - nonempty);
        s.min_row = s.empty_rows > 0 ? 0 : shortest;
        s.max_row = longest;
        s.mean_row = mean;
        sum_sq_dev += static_cast<double>(s.empty_rows) * mean * mean;
        s.stddev_row = std::sqrt(sum_sq_dev / A.rows);
    }
    s.diagonals = count_diagonals_of(A);
    const double nnz = s.nnz > 0 ? static_cast<double>(s.nnz) : 1.0;
    s.ell_fill = static_cast<double>(A.rows) * s.max_row / nnz;
    s.dia_fill = static_cast<double>(A.rows) * s.diagonals / nnz;
    for (int r = 1; r <= 4; ++r) {
        count_t blocks[4];
        count_blocks(A, r, blocks);
        for (int c = 1; c <= 4; ++c)
            s.bcsr_fill[r - 1][c - 1] = s.nnz > 0 ? static_cast<double>(blocks[c - 1]) * r * c / nnz : 1.0;
    }
    return s;
}

}  // namespace kit
