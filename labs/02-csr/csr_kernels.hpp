/// @file csr_kernels.hpp
/// @brief Lab 02 signatures: the CSR kernels of the lab (CUDA, CPU), their lane heuristic,
/// the merge-path search, and (in a .cl file) the OpenCL scalar kernel.
///
/// Three CUDA variants come from one kernel in which a group of LANES consecutive
/// threads shares a row (LANES a power of two, 1..32):
/// - scalar: LANES = 1,  one thread per row (Bell and Garland's csr_scalar)
/// - vector: LANES = 32, one warp per row, reduced with shuffles (csr_vector)
/// - lanes:  LANES chosen from the mean row length by choose_lanes(). This is not
///   CSR-Adaptive (Greathouse and Daga, SC'14), which bins rows into blocks and gives
///   each block CSR-Stream or CSR-Vector; the handout explains the difference.
///
/// The fourth, merge-based (Merrill and Garland, SC'16), splits the merge of the row ends
/// with the nonzero indices into equal shares, so a long row is split between threads:
///
/// @code
///     4x4 example: row_end = row_ptr[1..] = [2 4 7 9], nonzero indices 0..8
///     merge path (R = a row end consumed, N = a nonzero consumed), 13 items:
///         N0 N1 R0 N2 N3 R1 N4 N5 N6 R2 N7 N8 R3
///     diagonal d = items consumed so far; its coordinate is (rows finished, nonzeros consumed):
///         d = 4 -> (1, 3),  d = 8 -> (2, 6),  d = 12 -> (3, 9)
/// @endcode
#pragma once

#include <algorithm>

#include "formats/csr.hpp"

namespace kit {

/// @brief Threads per row for the csr-lanes kernel: the smallest power of two that is at
/// least the mean row length, clamped to [2, 32].
///
/// Rationale: with LANES close to the row length every lane loads about one entry, so
/// few lanes idle (too many lanes for short rows) and the row is not serialised (too few
/// lanes for long rows). 2 is the floor because 1 lane is the scalar kernel.
/// @param mean_row_length [in] nnz / rows (0 for an empty matrix)
/// @return 2, 4, 8, 16 or 32
int choose_lanes(double mean_row_length);

/// @brief A point on the merge path: how many row ends and nonzeros come before it.
struct MergeCoord {
    index_t row;  ///< row ends consumed (rows finished); also the row the next nonzero belongs to
    index_t nz;   ///< nonzeros consumed; the index of the next nonzero
};

/// @brief Merge-path search: where diagonal `diagonal` crosses the merge of the row ends
/// with the nonzero indices 0..nnz-1.
///
/// The merge takes row end `row_end[i]` before nonzero `k` when row_end[i] <= k (row i holds
/// no more nonzeros), else nonzero k. The coordinate (row, nz) of a diagonal has row + nz ==
/// diagonal; it is found by a binary search on row in [max(0, diagonal - nnz), min(diagonal, rows)].
/// Throws kit::Error if diagonal lies outside [0, rows + nnz].
/// @param diagonal [in] items of the merge before the point, 0..rows+nnz
/// @param row_end  [in] rows values: row_end[i] = row_ptr[i+1]
/// @param rows     [in] number of rows
/// @param nnz      [in] number of nonzeros
/// @return the coordinate of the diagonal
MergeCoord merge_path_search(long long diagonal, const index_t* row_end, index_t rows, index_t nnz);

namespace cpu {
/// @brief Merge-based SpMV on the host, the GPU decomposition written as a loop: the merge
/// path (rows + nnz items) is cut into `shares` equal shares; share s starts at the
/// coordinate of diagonal s * ceil((rows + nnz) / shares), adds its nonzeros into running row
/// sums, writes the rows whose end it consumes, and leaves the partial sum of the row open at
/// its end as a carry, added to y after every share has run. Throws kit::Error if shares < 1.
/// @param A [in] CSR (host)  @param x [in] x  @param y [in,out] y  @param shares [in] number of shares (>= 1)
template <class T>
void csr_merge_spmv(CsrView<T> A, const T* x, T* y, int shares);
}  // namespace cpu

namespace cuda {
/// @brief Scalar kernel: each thread computes y[row] += A[row,:] * x.
/// @param A [in] CSR (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void csr_scalar_spmv(CsrView<T> A, const T* x, T* y);
/// @brief Vector kernel: each warp computes one row; lanes stride the row, then reduce with shuffles.
/// @param A [in] CSR (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void csr_vector_spmv(CsrView<T> A, const T* x, T* y);
/// @brief Lanes kernel: choose_lanes(nnz/rows) threads per row (CSR-Vector with the group
/// size taken from the mean row length; not CSR-Adaptive).
/// @param A [in] CSR (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void csr_lanes_spmv(CsrView<T> A, const T* x, T* y);
/// @brief The shape of the merge kernel: THREADS threads per block, ITEMS merge-path items per
/// thread, staged CHUNK slots at a time or, when PACKED, in 16-byte packs; a tile of TILE =
/// THREADS * ITEMS items per block. Measured on an H100 (handout, step 4b). Every shape keeps a
/// thread at 32 registers, so that 16 blocks of 128 threads fit on one SM. In double, 7 items
/// (a tile of 896 items, 11 KB of shared memory) leave the SM enough L1 cache for the reads of
/// x, and the slots go one at a time: all 7 columns and values at once take 40 registers. In
/// float, 9 items (a tile of 1152 items, 9 KB) staged in packs of 4 values and 4 columns;
/// packs of 2 doubles were slower than the plain loop.
template <class T>
struct MergeShape {
    static constexpr int threads = 128;                   ///< THREADS
    static constexpr int items = sizeof(T) == 8 ? 7 : 9;  ///< ITEMS
    static constexpr int chunk = sizeof(T) == 8 ? 1 : 4;  ///< CHUNK (when not PACKED)
    static constexpr bool packed = sizeof(T) == 4;        ///< PACKED: stage the products with 16-byte loads
    static constexpr int tile = threads * items;          ///< TILE
};
/// @brief Tiles (blocks of the merge kernel) of a matrix: ceil((rows + nnz) / TILE), at least 1.
/// @param rows [in] rows  @param nnz [in] nonzeros
template <class T>
index_t csr_merge_tiles(index_t rows, index_t nnz) {
    const long long items = static_cast<long long>(rows) + nnz;
    return static_cast<index_t>(std::max(1LL, (items + MergeShape<T>::tile - 1) / MergeShape<T>::tile));
}
/// @brief The partition of the merge path (given): the coordinate of every tile boundary,
/// tile_start[b] for diagonal min(b * TILE, rows + nnz), b = 0 .. tiles. It depends on the
/// matrix only, so it is computed once, when the matrix is uploaded, as cuSPARSE's
/// preprocessing does for its CSR SpMV; every call then reads two coordinates per block.
/// @param A [in] CSR (device)  @param tile_start [out] device array of csr_merge_tiles + 1 coordinates
template <class T>
void csr_merge_partition(CsrView<T> A, MergeCoord* tile_start);
/// @brief The tiling of csr_merge_spmv, as DeviceCsrMerge (gpu/device_formats.hpp) takes it:
/// csr_merge_tiles tiles of MergeShape<T>::tile items, partitioned by csr_merge_partition.
struct MergeTiling {
    using Coord = MergeCoord;  ///< a point on the merge path
    /// @brief csr_merge_tiles. @param rows [in] rows  @param nnz [in] nonzeros
    template <class T>
    static index_t tiles(index_t rows, index_t nnz) {
        return csr_merge_tiles<T>(rows, nnz);
    }
    /// @brief csr_merge_partition. @param A [in] CSR (device)  @param tile_start [out] tiles + 1 coordinates
    template <class T>
    static void partition(CsrView<T> A, MergeCoord* tile_start) {
        csr_merge_partition(A, tile_start);
    }
};
/// @brief Merge-based kernel: each block takes an equal share of the merge path (row ends and
/// nonzeros), each thread an equal part of the block's share; rows cut by a block boundary
/// are finished with atomicAdd, rows cut inside a block with a segmented scan of the carries.
/// @param A [in] CSR (device)  @param tile_start [in] the partition (csr_merge_partition)
/// @param x [in] device x  @param y [in,out] device y
template <class T>
void csr_merge_spmv(CsrView<T> A, const MergeCoord* tile_start, const T* x, T* y);
}  // namespace cuda

}  // namespace kit
