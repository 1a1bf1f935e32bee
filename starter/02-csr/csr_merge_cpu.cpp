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
    // TODO(02-csr step 4): binary search for the number of row ends before the diagonal
    kit::todo("02-csr", 4, "merge_path_search");
}

namespace cpu {

template <class T>
void csr_merge_spmv(CsrView<T> A, const T* x, T* y, int shares) {
    if (shares < 1) throw Error("csr_merge_spmv: shares must be at least 1, got " + std::to_string(shares));
    // TODO(02-csr step 4): each share walks its part of the merge path; carries added at the end
    kit::todo("02-csr", 4, "cpu::csr_merge_spmv");
}

/// @cond
template void csr_merge_spmv<float>(CsrView<float>, const float*, float*, int);
template void csr_merge_spmv<double>(CsrView<double>, const double*, double*, int);
/// @endcond

}  // namespace cpu
}  // namespace kit
