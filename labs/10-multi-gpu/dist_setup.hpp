/// @file dist_setup.hpp
/// @brief Lab 10's given set-up on a communicator: every rank reads the same matrix, takes its
/// blocks (step 1) and its plan (step 2, from every rank's halo, gathered with MPI), and at the
/// end every rank gathers the whole y. Shared by the CPU (MPI) and GPU (NCCL) variants.
#pragma once
#include <string>
#include <vector>

#include "dist_mpi.hpp"
#include "formats/coo.hpp"

namespace kit::dist {

/// @brief One rank's part of a distributed problem.
template <class T>
struct RankProblem {
    int rank = 0;                    ///< this rank in the communicator
    int ranks = 1;                   ///< ranks in the communicator
    std::vector<index_t> row_begin;  ///< row partition
    std::vector<index_t> col_begin;  ///< column partition
    RankBlock<T> block;              ///< this rank's blocks (step 1)
    CommPlan plan;                   ///< this rank's plan (step 2)
    std::vector<T> x_local;          ///< the x entries this rank owns
    std::vector<T> y_local;          ///< the y rows this rank owns, initial values
};

/// @brief Builds this rank's part of A, x and y on `comm` (a collective call).
/// @param A [in] the whole matrix (the same on every rank)  @param x [in] x  @param y [in] initial y
/// @param comm [in] communicator
template <class T>
RankProblem<T> setup_rank(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                          MPI_Comm comm);

/// @brief Every rank's y rows, gathered on every rank (a collective call), widened to double.
/// @param rp [in] this rank's problem (its partition)  @param y_local [in] this rank's rows of y
/// @param comm [in] communicator
template <class T>
std::vector<double> gather_y(const RankProblem<T>& rp, const std::vector<T>& y_local, MPI_Comm comm);

/// @brief The note a distributed run reports: ranks, and the halo entries of the ranks summed.
/// @param rp [in] this rank's problem  @param comm [in] communicator
template <class T>
std::string halo_note(const RankProblem<T>& rp, MPI_Comm comm);

/// @brief The bytes one distributed multiply moves, all ranks together (dist_csr_bytes; a
/// collective call). @param rp [in] this rank's problem  @param comm [in] communicator
template <class T>
count_t model_bytes(const RankProblem<T>& rp, MPI_Comm comm);

}  // namespace kit::dist
