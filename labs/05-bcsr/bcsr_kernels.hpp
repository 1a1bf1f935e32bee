/// @file bcsr_kernels.hpp
/// @brief Lab 05 signatures: BCSR SpMV on the CPU, the GOSpMV two-kernel scheme and a fused
/// warp-per-block-row kernel on CUDA, and the dispatch from a run-time r x c to a template.
///
/// Every kernel computes y <- y + A x for A stored as r x c BCSR (bcsr.hpp). Fill values
/// are zeros, so multiplying them is harmless; but a partial block at the right or bottom
/// edge reaches past the matrix, and x or y must never be touched there.
#pragma once

#include <type_traits>

#include "formats/bcsr.hpp"
#include "core/kit_error.hpp"

namespace kit {

/// @brief Calls f(std::integral_constant<int, R>{}, std::integral_constant<int, C>{}) for the
/// run-time block shape r x c, so kernels get R and C as compile-time constants (their loops
/// over a block unroll and the partial sums live in registers). Throws kit::Error outside 1..4.
/// @param r [in] rows per block  @param c [in] columns per block  @param f [in] generic callable
template <class F>
void with_block_shape(int r, int c, F&& f) {
    auto columns = [&](auto R) {
        switch (c) {
            case 1:
                f(R, std::integral_constant<int, 1>{});
                return;
            case 2:
                f(R, std::integral_constant<int, 2>{});
                return;
            case 3:
                f(R, std::integral_constant<int, 3>{});
                return;
            case 4:
                f(R, std::integral_constant<int, 4>{});
                return;
        }
        throw Error("BCSR block size " + std::to_string(r) + "x" + std::to_string(c) + ": c must be in 1..4");
    };
    switch (r) {
        case 1:
            columns(std::integral_constant<int, 1>{});
            return;
        case 2:
            columns(std::integral_constant<int, 2>{});
            return;
        case 3:
            columns(std::integral_constant<int, 3>{});
            return;
        case 4:
            columns(std::integral_constant<int, 4>{});
            return;
    }
    throw Error("BCSR block size " + std::to_string(r) + "x" + std::to_string(c) + ": r must be in 1..4");
}

namespace cpu {
/// @brief y <- y + A x on the CPU: one pass over the block rows, each block multiplied by
/// the c values of x it covers. Any r, c in 1..4 (run-time values).
/// @param A [in] BCSR matrix (host pointers)  @param x [in] A.cols values  @param y [in,out] A.rows values
template <class T>
void bcsr_spmv(BcsrView<T> A, const T* x, T* y);
}  // namespace cpu

namespace cuda {
/// @brief The GOSpMV two-kernel scheme. Kernel 1: each thread multiplies one block by x and
/// writes its r partial sums to partial[k*r .. k*r+r-1]. Kernel 2: each thread adds the
/// partial sums of one row into y[row].
/// @param A [in] BCSR matrix (device pointers)  @param x [in] device x  @param y [in,out] device y
/// @param partial [out] device scratch of A.blocks * A.r values
template <class T>
void bcsr_2kernel_spmv(BcsrView<T> A, const T* x, T* y, T* partial);

/// @brief Fused kernel: each warp owns one block row; its lanes take the row's blocks in
/// turn (lane l: blocks l, l+32, ...), read each block's c values of x once, keep r partial
/// sums in registers, and the warp reduces them with shuffles before r lanes write y.
/// @param A [in] BCSR matrix (device pointers)  @param x [in] device x  @param y [in,out] device y
template <class T>
void bcsr_warp_spmv(BcsrView<T> A, const T* x, T* y);
}  // namespace cuda

}  // namespace kit
