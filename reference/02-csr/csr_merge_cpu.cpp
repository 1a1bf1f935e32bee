/// @file
/// Lab 02, step 4 (host part): the merge-path search and merge-based SpMV on the CPU.
/// The GPU kernel in csr_cuda.cu uses the same decomposition; see handouts/02-csr.md.
#include <algorithm>
#include <string>
#include <vector>

#include "csr_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit {

MergeCoord merge_path_search(long long diagonal, const index_t* row_end, index_t rows, index_t nnz) {
    if (diagonal < 0 || diagonal > static_cast<long long>(rows) + nnz)
        throw Error("merge_path_search: diagonal " + std::to_string(diagonal) + " is outside [0, rows + nnz] = [0, " +
                    std::to_string(static_cast<long long>(rows) + nnz) + "]");
    // BEGIN SOLUTION(step 4: binary search for the number of row ends before the diagonal)
    // STARTER: kit::todo("02-csr", 4, "merge_path_search");
    // The answer is the number of rows i whose end comes first in the merge: row_end[i] <=
    // (index of the nonzero the path would take instead) = diagonal - i - 1. That test is
    // true for small i and false from the answer on, so bisect [lo, hi).
    long long lo = std::max(0LL, diagonal - nnz);
    long long hi = std::min<long long>(diagonal, rows);
    while (lo < hi) {
        const long long pivot = lo + (hi - lo) / 2;
        if (row_end[pivot] <= diagonal - pivot - 1)
            lo = pivot + 1;
        else
            hi = pivot;
    }
    return {static_cast<index_t>(lo), static_cast<index_t>(diagonal - lo)};
    // END SOLUTION
}

namespace cpu {

template <class T>
void csr_merge_spmv(CsrView<T> A, const T* x, T* y, int shares) {
    if (shares < 1) throw Error("csr_merge_spmv: shares must be at least 1, got " + std::to_string(shares));
    // BEGIN SOLUTION(step 4: each share walks its part of the merge path; carries added at the end)
    // STARTER: kit::todo("02-csr", 4, "cpu::csr_merge_spmv");
    const long long items = static_cast<long long>(A.rows) + A.nnz;
    const long long per_share = (items + shares - 1) / shares;
    const index_t* row_end = A.row_ptr + 1;
    // One carry per share: the row left open at the share's end and its partial sum.
    std::vector<index_t> carry_row(shares);
    std::vector<T> carry_sum(shares);
    for (int s = 0; s < shares; ++s) {  // on the GPU, these iterations run side by side
        const long long d0 = std::min(items, s * per_share);
        const long long d1 = std::min(items, d0 + per_share);
        MergeCoord at = merge_path_search(d0, row_end, A.rows, A.nnz);
        const MergeCoord end = merge_path_search(d1, row_end, A.rows, A.nnz);
        T sum = 0;
        // Finish every row whose end lies in this share. Its first row may have begun in an
        // earlier share: that part arrives with the earlier share's carry.
        for (; at.row < end.row; ++at.row) {
            for (; at.nz < row_end[at.row]; ++at.nz) sum += A.vals[at.nz] * x[A.col_idx[at.nz]];
            y[at.row] += sum;
            sum = 0;
        }
        // The nonzeros of the row still open at the end of the share.
        for (; at.nz < end.nz; ++at.nz) sum += A.vals[at.nz] * x[A.col_idx[at.nz]];
        carry_row[s] = end.row;
        carry_sum[s] = sum;
    }
    // The fix-up: a row cut by a share boundary gets each cut-off part once.
    for (int s = 0; s < shares; ++s)
        if (carry_row[s] < A.rows) y[carry_row[s]] += carry_sum[s];
    // END SOLUTION
}

/// @cond
template void csr_merge_spmv<float>(CsrView<float>, const float*, float*, int);
template void csr_merge_spmv<double>(CsrView<double>, const double*, double*, int);
/// @endcond

}  // namespace cpu
}  // namespace kit
