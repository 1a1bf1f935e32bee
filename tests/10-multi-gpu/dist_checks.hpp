/// @file dist_checks.hpp
/// @brief Lab 10's test checks of the pure steps (1 and 2), shared by the public and hidden
/// tiers: the observed results as plain arrays, and the properties they must have.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dist_spmv.hpp"
#include "formats/coo.hpp"
#include "formats/csr.hpp"
#include "observe.hpp"

namespace kit::testing {

/// @brief A rank's blocks as recorded (values widened to double).
struct BlockArrays {
    index_t row_begin = 0;                            ///< first row owned
    index_t col_begin = 0;                            ///< first column owned
    index_t local_cols = 0;                           ///< local block's columns
    std::vector<index_t> local_ptr, local_col;        ///< local block's row_ptr and col_idx
    std::vector<double> local_val;                    ///< local block's values
    std::vector<index_t> remote_ptr, remote_col;      ///< remote block's row_ptr and col_idx
    std::vector<double> remote_val;                   ///< remote block's values
    std::vector<index_t> halo;                        ///< halo_cols
};

/// @brief The arrays of a RankBlock. @param b [in] blocks
BlockArrays arrays_of(const dist::RankBlock<double>& b);

/// @brief An even row partition (p * rows / P), so that steps 1b and 2 are tested on their own.
/// @param rows [in] rows  @param parts [in] P
std::vector<index_t> even_rows(index_t rows, int parts);

/// @brief Step 1a's properties: P+1 non-decreasing offsets from 0 to rows, each range holding at
/// most nnz/P + 1 + (longest row) entries. @param A [in] CSR  @param parts [in] P  @param r [in] result
::testing::AssertionResult valid_partition(const Csr<double>& A, int parts, const std::vector<index_t>& r);

/// @brief Step 1b's properties: the blocks hold exactly the rank's entries, local columns in
/// range, a sorted halo of remote columns only, each used. @param A [in] CSR
/// @param row_begin [in] rows  @param col_begin [in] columns  @param rank [in] rank  @param b [in] result
::testing::AssertionResult valid_block(const Csr<double>& A, const std::vector<index_t>& row_begin,
                                       const std::vector<index_t>& col_begin, int rank, const BlockArrays& b);

/// @brief Every column outside the rank's range that its rows reference, ascending (the test's own halo).
/// @param A [in] CSR  @param row_begin [in] rows  @param col_begin [in] columns  @param rank [in] rank
std::vector<index_t> expected_halo(const Csr<double>& A, const std::vector<index_t>& row_begin,
                                   const std::vector<index_t>& col_begin, int rank);

/// @brief Step 2's properties, over all ranks: receive runs by owner, sends matching the peers' halos.
/// @param halos [in] every rank's halo  @param col_begin [in] columns  @param plans [in] every rank's plan
::testing::AssertionResult valid_plans(const std::vector<std::vector<index_t>>& halos,
                                       const std::vector<index_t>& col_begin, const std::vector<dist::CommPlan>& plans);

/// @brief Step 1b on A for P = 1..max_parts, on even row partitions: observed calls, then checks.
/// @param A [in] matrix  @param max_parts [in] largest P
::testing::AssertionResult blocks_hold(const CooMatrix& A, int max_parts);

/// @brief Step 2 on A for P = 1..max_parts, from the test's own halos. @param A [in] matrix  @param max_parts [in] largest P
::testing::AssertionResult plans_hold(const CooMatrix& A, int max_parts);

/// @brief Step 1a on A for P = 1..max_parts. @param A [in] matrix  @param max_parts [in] largest P
::testing::AssertionResult partitions_hold(const CooMatrix& A, int max_parts);

}  // namespace kit::testing

KIT_OBSERVABLE(kit::testing::BlockArrays, row_begin, col_begin, local_cols, local_ptr, local_col, local_val, remote_ptr,
               remote_col, remote_val, halo)
KIT_OBSERVABLE(kit::dist::CommPlan, recv_peers, recv_offsets, send_peers, send_offsets, send_idx)

#include "dist_checks_impl.hpp"

/// Skips a test of the MPI steps in a build without MPI, saying what to install.
#if KIT_HAVE_MPI
#define KIT_REQUIRE_MPI() (void)0
#else
#define KIT_REQUIRE_MPI() \
    GTEST_SKIP() << "MPI not found at build time: install Open MPI (libopenmpi-dev openmpi-bin; make deps-info)"
#endif

/// Skips a test of the NCCL step in a build without CUDA, MPI or NCCL, or without a GPU.
#if KIT_HAVE_NCCL
#define KIT_REQUIRE_NCCL() KIT_REQUIRE_BACKEND(::kit::Backend::cuda)
#else
#define KIT_REQUIRE_NCCL() \
    GTEST_SKIP() << "NCCL step not built: it needs CUDA, MPI and NCCL at build time (make deps-info)"
#endif
