/// @file dist_spmv.hpp
/// @brief Lab 10 signatures: SpMV with the rows split over P ranks (PETSc's MPIAIJ layout).
///
/// Rank p owns rows [row_begin[p], row_begin[p+1]) of A and y, and entries
/// [col_begin[p], col_begin[p+1]) of x. Its rows split into a local block (the columns it
/// owns, renumbered from 0) and a remote block whose columns are renumbered into a compact
/// halo: the x entries it needs from other ranks, ascending by global column.
///
/// @code
///     4x4 example on P = 2 ranks (2 + 2 rows by nonzeros: rows 0-1 hold 4, rows 2-3 hold 5):
///         A = [ 1 7 | 0 0 ]      rank 0: local  [1 7; 0 2]   remote [0; 8]  halo = [2]  (x2)
///             [ 0 2 | 8 0 ]
///             [-----+-----]      rank 1: local  [3 9; 0 4]   remote [5 0; 0 6]  halo = [0 1]
///             [ 5 0 | 3 9 ]
///             [ 0 6 | 0 4 ]      plan: rank 0 sends x0, x1 to rank 1; rank 1 sends x2 to rank 0
/// @endcode
///
/// Steps: (1) partition_rows_by_nnz and split_rank_block, (2) build_comm_plan, both pure
/// functions; (3) halo_spmv_mpi, the exchange with MPI_Isend/MPI_Irecv overlapping the local
/// product; (4) halo_spmv_nccl, the same on one GPU per rank with NCCL (dist_nccl.hpp).
#pragma once
#include <vector>

#include "formats/csr.hpp"

namespace kit::dist {

/// @brief Step 1a: cuts rows 0..rows-1 into `parts` contiguous ranges holding about nnz/parts
/// entries each. Boundary p (0 < p < parts) is the first row r with row_ptr[r] >= p*nnz/parts
/// (rounded down), so each range holds at most nnz/parts + 1 + (longest row) entries; ranges
/// may be empty (more parts than rows). Throws kit::Error if parts < 1.
/// @param row_ptr [in] rows+1 CSR offsets  @param rows [in] number of rows  @param parts [in] P
/// @return parts+1 row offsets: 0 = r[0] <= r[1] <= ... <= r[parts] = rows
std::vector<index_t> partition_rows_by_nnz(const std::vector<index_t>& row_ptr, index_t rows, int parts);

/// @brief The kit's column ownership: a square matrix's x follows its rows (so the local block
/// is the diagonal block); a rectangular one's columns are cut into equal counts.
/// @param row_begin [in] the row partition (P+1 offsets)  @param rows [in] rows  @param cols [in] columns
/// @return P+1 column offsets
std::vector<index_t> column_partition(const std::vector<index_t>& row_begin, index_t rows, index_t cols);

/// @brief The rank that owns global column `col`. @param col_begin [in] P+1 offsets  @param col [in] column
int owner_of(const std::vector<index_t>& col_begin, index_t col);

/// @brief One rank's share of A.
template <class T>
struct RankBlock {
    index_t row_begin = 0;            ///< first global row owned
    index_t col_begin = 0;            ///< first global column owned
    Csr<T> local;                     ///< owned rows x owned columns, columns minus col_begin
    Csr<T> remote;                    ///< owned rows x halo entries, columns index halo_cols
    std::vector<index_t> halo_cols;   ///< global column of each halo entry, strictly ascending
};

/// @brief Step 1b: splits rank `rank`'s rows of A into its local and remote blocks. Each row's
/// entries keep their order; a remote entry's column becomes its index in halo_cols, which
/// holds every column the rows reference outside [col_begin[rank], col_begin[rank+1]) once.
/// @param A [in] the whole matrix  @param row_begin [in] row partition  @param col_begin [in] column partition
/// @param rank [in] 0..P-1
template <class T>
RankBlock<T> split_rank_block(const Csr<T>& A, const std::vector<index_t>& row_begin,
                              const std::vector<index_t>& col_begin, int rank);

/// @brief Who sends what to whom, for one rank: built once, used by every multiply.
struct CommPlan {
    std::vector<int> recv_peers;        ///< ranks this rank receives from, ascending, none twice, none empty
    std::vector<index_t> recv_offsets;  ///< halo entries [recv_offsets[k], recv_offsets[k+1]) come from recv_peers[k]
    std::vector<int> send_peers;        ///< ranks this rank sends to, ascending, none twice, none empty
    std::vector<index_t> send_offsets;  ///< send_idx[send_offsets[k] .. send_offsets[k+1]) go to send_peers[k]
    std::vector<index_t> send_idx;      ///< local x index (global column - col_begin[rank]) of each value sent
};

/// @brief Step 2: this rank's plan from every rank's halo. Rank q's halo is sorted, so the
/// entries owned by one rank lie together: rank `rank` receives them from their owner in that
/// order, and sends to q the x entries q's halo holds from it, in q's order.
/// @param halos [in] halo_cols of every rank (P lists)  @param col_begin [in] column partition
/// @param rank [in] this rank
CommPlan build_comm_plan(const std::vector<std::vector<index_t>>& halos, const std::vector<index_t>& col_begin,
                         int rank);

/// @brief The given rank-local product: y[i] += sum of A[i,k] x[col(k)] over row i (one loop
/// over rows, an inner loop over the row's entries, the kit's CPU CSR kernel).
/// @param A [in] CSR (host)  @param x [in] x indexed by A's columns  @param y [in,out] y
template <class T>
void csr_rows_spmv(CsrView<T> A, const T* x, T* y);

}  // namespace kit::dist
