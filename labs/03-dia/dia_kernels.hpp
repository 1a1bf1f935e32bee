/// @file dia_kernels.hpp
/// @brief Lab 03 signatures: DIA SpMV on the CPU and two CUDA kernels.
///
/// DIA stores each occupied diagonal as a column of `pitch` slots (see dia.hpp). With one
/// thread per row, the threads of a warp read consecutive slots of the same diagonal, so
/// every matrix load is coalesced and no column index is stored at all: the column is
/// row + offset. The price is padding wherever a diagonal is not full.
#pragma once

#include "formats/dia.hpp"

namespace kit::cpu {
/// @brief y <- y + A x on the CPU: for each diagonal, every row it crosses inside the matrix.
/// @param A [in] DIA matrix (host pointers)  @param x [in] A.cols values  @param y [in,out] A.rows values
template <class T>
void dia_spmv(DiaView<T> A, const T* x, T* y);
}  // namespace kit::cpu

namespace kit::cuda {
/// @brief Naive kernel (Bell and Garland): each thread computes y[row] += A[row,:] * x,
/// reading offsets[d] from global memory and vals[d * pitch + row] for every diagonal d.
/// @param A [in] DIA matrix (device pointers)  @param x [in] device x  @param y [in,out] device y
template <class T>
void dia_naive_spmv(DiaView<T> A, const T* x, T* y);

/// @brief Shared-memory kernel: as the naive one, but each block first copies the offsets,
/// kDiaOffsetChunk at a time, into shared memory, so any number of diagonals works.
/// @param A [in] DIA matrix (device pointers)  @param x [in] device x  @param y [in,out] device y
template <class T>
void dia_shared_spmv(DiaView<T> A, const T* x, T* y);
}  // namespace kit::cuda
