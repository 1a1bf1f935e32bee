/// @file csr5_kernels.hpp
/// @brief Lab 06 signatures: CSR5 SpMV on the CPU (the readable description) and on CUDA.
///
/// Both backends run the same three phases, so the CPU tests check the GPU's logic:
/// 1. **tiles**: every complete tile is reduced on its own. Lane i sums its sigma entries,
///    closing a segment at every bit_flag; a segmented sum across lanes (warp shuffles on
///    the GPU) finishes the segments that cross lanes. Rows that start inside the tile are
///    added to y; the tile's first segment, which may belong to a row begun in an earlier
///    tile, goes to carry[tile] instead, so no two tiles ever write the same y entry.
/// 2. **calibration**: y[tile_row] += carry[tile] for every complete tile (atomics on the GPU:
///    consecutive tiles inside one long row share their tile_row).
/// 3. **tail**: the entries after the last complete tile, row by row as in CSR.
#pragma once

#include "formats/csr5.hpp"

namespace kit::cpu {
/// @brief Phase 1 for one complete tile: adds to y the rows that start inside the tile and
/// returns the tile's carry (the sum of its first segment).
/// @param A [in] CSR5 matrix (host)  @param tile [in] index of a complete tile
/// @param x [in] A.cols values  @param y [in,out] A.rows values
/// @return sum of the tile's first segment, to be added to y[tile_row] by the calibration
template <class T>
T csr5_tile(Csr5View<T> A, index_t tile, const T* x, T* y);

/// @brief y <- y + A x: csr5_tile on every complete tile, the calibration, then the tail.
/// @param A [in] CSR5 matrix (host)  @param x [in] A.cols values  @param y [in,out] A.rows values
template <class T>
void csr5_spmv(Csr5View<T> A, const T* x, T* y);
}  // namespace kit::cpu

namespace kit::cuda {
/// @brief y <- y + A x on the GPU: the tile kernel (omega lanes of a warp per tile), the
/// calibration kernel (one thread per tile) and the tail kernel (one warp per row).
///
/// omega must be a power of two no larger than 32 (a tile is a warp or part of one).
/// A must be a DeviceCsr5 view: the tile kernel reads A.bit_flag (each lane's sigma bit_flag
/// bits, packed end to end; it recomputes y_offset and seg_offset) and A.carry holds
/// A.full_tiles values.
/// @param A [in] CSR5 matrix (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void csr5_spmv(Csr5View<T> A, const T* x, T* y);
}  // namespace kit::cuda
