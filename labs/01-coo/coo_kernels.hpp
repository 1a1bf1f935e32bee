/// @file coo_kernels.hpp
/// @brief Lab 01 signatures: COO SpMV on the CPU and two CUDA kernels.
///
/// COO is the hub format: three arrays of length nnz (row, column, value), sorted by row.
/// Its GPU kernels parallelise over entries, not rows, so a long row cannot stall a thread;
/// the price is that several threads add into the same y[row].
#pragma once

#include "formats/coo.hpp"

namespace kit::cpu {
/// @brief y <- y + A x on the CPU, one loop over the entries.
/// @param A [in] COO matrix (host pointers)  @param x [in] A.cols values  @param y [in,out] A.rows values
template <class T>
void coo_spmv(CooView<T> A, const T* x, T* y);
}  // namespace kit::cpu

namespace kit::cuda {
/// @brief y <- y + A x: one thread per entry, each adding its product to y[row] with atomicAdd.
/// @param A [in] COO matrix (device pointers)  @param x [in] device x  @param y [in,out] device y
template <class T>
void coo_atomic_spmv(CooView<T> A, const T* x, T* y);

/// @brief y <- y + A x: each warp owns an interval of entries and reduces the products of
/// equal rows with a segmented sum in registers (warp shuffles), so only the last entry of
/// each row segment touches y.
/// @param A [in] COO matrix sorted by row (device pointers)  @param x [in] device x  @param y [in,out] device y
template <class T>
void coo_segmented_spmv(CooView<T> A, const T* x, T* y);
}  // namespace kit::cuda
