/// @file basics_kernels.hpp
/// @brief Lab 00 signatures: the first CSR SpMV on the CPU and on the GPU (the TU Delft exercise).
///
/// Same name, different backends: kit::cpu::csr_spmv and kit::cuda::csr_spmv compute the
/// same y <- y + A x. The student writes both in reference/00-basics (starter/00-basics).
#pragma once

#include "formats/csr.hpp"

namespace kit::cpu {
/// @brief y <- y + A x on the CPU, one row at a time.
/// @param A [in] CSR matrix (host pointers)  @param x [in] A.cols values  @param y [in,out] A.rows values
template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y);
}  // namespace kit::cpu

namespace kit::cuda {
/// @brief y <- y + A x on the GPU: one thread per row.
/// @param A [in] CSR matrix (device pointers)  @param x [in] device x  @param y [in,out] device y
template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y);
}  // namespace kit::cuda
