// Lab 10 step 1: rows split by nonzeros, and a rank's rows split into local and remote blocks.
#include <algorithm>

#include "core/kit_error.hpp"
#include "dist_spmv.hpp"

namespace kit::dist {

std::vector<index_t> partition_rows_by_nnz(const std::vector<index_t>& row_ptr, index_t rows, int parts) {
    if (parts < 1) throw Error("partition_rows_by_nnz: parts must be at least 1, not " + std::to_string(parts));
    // BEGIN SOLUTION(step 1: boundary p is the first row whose row_ptr reaches floor(p * nnz / parts))
    // STARTER: kit::todo("10-multi-gpu", 1, "partition_rows_by_nnz: cut the rows where row_ptr reaches p*nnz/P");
    std::vector<index_t> begin(parts + 1, rows);
    begin[0] = 0;
    const long long nnz = rows > 0 ? row_ptr[rows] : 0;
    for (int p = 1; p < parts; ++p) {
        const long long target = p * nnz / parts;
        // the first row r >= begin[p-1] with row_ptr[r] >= target (row_ptr is non-decreasing)
        const auto it = std::lower_bound(row_ptr.begin() + begin[p - 1], row_ptr.begin() + rows, target);
        begin[p] = static_cast<index_t>(it - row_ptr.begin());
    }
    return begin;
    // END SOLUTION
}

template <class T>
RankBlock<T> split_rank_block(const Csr<T>& A, const std::vector<index_t>& row_begin,
                              const std::vector<index_t>& col_begin, int rank) {
    RankBlock<T> b;
    b.row_begin = row_begin.at(rank);
    b.col_begin = col_begin.at(rank);
    // BEGIN SOLUTION(step 1: local columns minus col_begin; remote columns renumbered into the sorted halo)
    // STARTER: kit::todo("10-multi-gpu", 1, "split_rank_block: local block, remote block and halo_cols");
    const index_t r0 = row_begin[rank], r1 = row_begin[rank + 1];
    const index_t c0 = col_begin[rank], c1 = col_begin[rank + 1];
    const auto owned = [&](index_t c) { return c >= c0 && c < c1; };
    for (index_t k = A.row_ptr[r0]; k < A.row_ptr[r1]; ++k)
        if (!owned(A.col_idx[k])) b.halo_cols.push_back(A.col_idx[k]);
    std::sort(b.halo_cols.begin(), b.halo_cols.end());
    b.halo_cols.erase(std::unique(b.halo_cols.begin(), b.halo_cols.end()), b.halo_cols.end());
    b.local.rows = b.remote.rows = r1 - r0;
    b.local.cols = c1 - c0;
    b.remote.cols = static_cast<index_t>(b.halo_cols.size());
    b.local.row_ptr.assign(1, 0);
    b.remote.row_ptr.assign(1, 0);
    for (index_t i = r0; i < r1; ++i) {
        for (index_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
            const index_t c = A.col_idx[k];
            Csr<T>& to = owned(c) ? b.local : b.remote;
            to.col_idx.push_back(owned(c) ? c - c0
                                          : static_cast<index_t>(std::lower_bound(b.halo_cols.begin(),
                                                                                  b.halo_cols.end(), c) -
                                                                 b.halo_cols.begin()));
            to.vals.push_back(A.vals[k]);
        }
        b.local.row_ptr.push_back(b.local.nnz());
        b.remote.row_ptr.push_back(b.remote.nnz());
    }
    // END SOLUTION
    return b;
}

template RankBlock<float> split_rank_block(const Csr<float>&, const std::vector<index_t>&,
                                           const std::vector<index_t>&, int);
template RankBlock<double> split_rank_block(const Csr<double>&, const std::vector<index_t>&,
                                            const std::vector<index_t>&, int);

}  // namespace kit::dist
