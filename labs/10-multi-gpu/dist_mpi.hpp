/// @file dist_mpi.hpp
/// @brief Lab 10 step 3: the CPU multiply across MPI ranks (built only where MPI is found:
/// the files that include this header end in _mpi.cpp).
#pragma once
#include <mpi.h>

#include <type_traits>

#include "dist_spmv.hpp"

namespace kit::dist {

/// @brief The MPI datatype of a value type. @return MPI_FLOAT, MPI_DOUBLE or MPI_INT
template <class T>
MPI_Datatype mpi_type() {
    if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
    else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
    else return MPI_INT;
}

/// @brief Step 3: y_local += A_rank x on this rank: posts a receive per recv peer into the halo,
/// packs and sends x_local[send_idx] to each send peer, multiplies the local block while the
/// messages travel, waits, then adds the remote block times the halo.
/// @param blk [in] this rank's blocks  @param plan [in] this rank's plan
/// @param x_local [in] the x entries this rank owns  @param y_local [in,out] the y rows it owns
/// @param comm [in] the communicator the plan was built for
template <class T>
void halo_spmv_mpi(const RankBlock<T>& blk, const CommPlan& plan, const T* x_local, T* y_local, MPI_Comm comm);

/// @brief Starts MPI if nobody has (a program not started by mpirun runs as one rank) and
/// finalises it at exit. Tests and spmv-kit call it before their first collective.
void ensure_mpi();

}  // namespace kit::dist
