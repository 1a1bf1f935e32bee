// Lab 10 step 1: rows split by nonzeros, and a rank's rows split into local and remote blocks.
#include <algorithm>

#include "core/kit_error.hpp"
#include "dist_spmv.hpp"

namespace kit::dist {

std::vector<index_t> partition_rows_by_nnz(const std::vector<index_t>& row_ptr, index_t rows, int parts) {
    if (parts < 1) throw Error("partition_rows_by_nnz: parts must be at least 1, not " + std::to_string(parts));
    // TODO(10-multi-gpu step 1): boundary p is the first row whose row_ptr reaches floor(p * nnz / parts)
    kit::todo("10-multi-gpu", 1, "partition_rows_by_nnz: cut the rows where row_ptr reaches p*nnz/P");
}

template <class T>
RankBlock<T> split_rank_block(const Csr<T>& A, const std::vector<index_t>& row_begin,
                              const std::vector<index_t>& col_begin, int rank) {
    RankBlock<T> b;
    b.row_begin = row_begin.at(rank);
    b.col_begin = col_begin.at(rank);
    // TODO(10-multi-gpu step 1): local columns minus col_begin; remote columns renumbered into the sorted halo
    kit::todo("10-multi-gpu", 1, "split_rank_block: local block, remote block and halo_cols");
    return b;
}

template RankBlock<float> split_rank_block(const Csr<float>&, const std::vector<index_t>&,
                                           const std::vector<index_t>&, int);
template RankBlock<double> split_rank_block(const Csr<double>&, const std::vector<index_t>&,
                                            const std::vector<index_t>&, int);

}  // namespace kit::dist
