/// @file ell_kernels.hpp
/// @brief Lab 04 signatures: ELL and HYB SpMV on the CPU and on CUDA.
///
/// ELL pads every row to the same width and stores the slots column-major, so one thread
/// per row reads consecutive addresses across a warp (see ell.hpp). HYB (see hyb.hpp)
/// runs the same ELL kernel on the first K entries of each row, then a COO kernel on the
/// entries that did not fit.
#pragma once

#include "formats/hyb.hpp"

namespace kit::cpu {
/// @brief y <- y + A x on the CPU, skipping padding slots (column < 0).
/// @param A [in] ELL matrix (host pointers)  @param x [in] A.cols values  @param y [in,out] A.rows values
template <class T>
void ell_spmv(EllView<T> A, const T* x, T* y);

/// @brief y <- y + A x on the CPU: the ELL part, then the COO part.
/// @param A [in] HYB matrix (host pointers)  @param x [in] A.ell.cols values  @param y [in,out] A.ell.rows values
template <class T>
void hyb_spmv(HybView<T> A, const T* x, T* y);
}  // namespace kit::cpu

namespace kit::cuda {
/// @brief One thread per row: each thread computes y[row] += A[row,:] * x over the row's
/// `width` slots, skipping padding.
/// @param A [in] ELL matrix (device pointers)  @param x [in] device x  @param y [in,out] device y
template <class T>
void ell_spmv(EllView<T> A, const T* x, T* y);

/// @brief Two kernels in one stream: the ELL kernel on the ELL part, then a COO kernel in
/// which each thread adds one entry of the COO part to y[row] with atomicAdd.
/// @param A [in] HYB matrix (device pointers)  @param x [in] device x  @param y [in,out] device y
template <class T>
void hyb_spmv(HybView<T> A, const T* x, T* y);
}  // namespace kit::cuda
