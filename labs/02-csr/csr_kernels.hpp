/// @file csr_kernels.hpp
/// @brief Lab 02 signatures: three CUDA CSR kernels, their lane heuristic, and the OpenCL scalar kernel.
///
/// All three CUDA variants come from one kernel in which a group of LANES consecutive
/// threads shares a row (LANES a power of two, 1..32):
/// - scalar:   LANES = 1,  one thread per row (Bell and Garland's csr_scalar)
/// - vector:   LANES = 32, one warp per row, reduced with shuffles (csr_vector)
/// - adaptive: LANES chosen from the mean row length by choose_lanes()
#pragma once

#include "csr.hpp"

namespace kit {

/// @brief Threads per row for the adaptive kernel: the smallest power of two that is at
/// least the mean row length, clamped to [2, 32].
///
/// Rationale: with LANES close to the row length every lane loads about one entry, so
/// few lanes idle (too many lanes for short rows) and the row is not serialised (too few
/// lanes for long rows). 2 is the floor because 1 lane is the scalar kernel.
/// @param mean_row_length [in] nnz / rows (0 for an empty matrix)
/// @return 2, 4, 8, 16 or 32
int choose_lanes(double mean_row_length);

namespace cuda {
/// @brief Scalar kernel: each thread computes y[row] += A[row,:] * x.
/// @param A [in] CSR (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void csr_scalar_spmv(CsrView<T> A, const T* x, T* y);
/// @brief Vector kernel: each warp computes one row; lanes stride the row, then reduce with shuffles.
/// @param A [in] CSR (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void csr_vector_spmv(CsrView<T> A, const T* x, T* y);
/// @brief Adaptive kernel: choose_lanes(nnz/rows) threads per row.
/// @param A [in] CSR (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void csr_adaptive_spmv(CsrView<T> A, const T* x, T* y);
}  // namespace cuda

}  // namespace kit
