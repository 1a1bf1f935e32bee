/// @file bytes_model.hpp
/// @brief How many bytes an SpMV y <- y + A x must move, per format. One place for every format.
///
/// All models count, in decimal bytes (GB = 1e9 B):
/// - the matrix arrays exactly as the format stores them (padding included, since the
///   kernel reads it),
/// - x once per column (the ideal: every x value read from DRAM once, later reuses hit cache),
/// - y read once and written once.
///
/// GB/s = bytes / time. A kernel above the copy-bandwidth ceiling in this model is
/// reusing cache for the matrix too (small matrices), or the model is wrong.
#pragma once

#include "core/types.hpp"

namespace kit {

/// @brief Bytes of the vectors: x read once per column, y read and written once.
/// @param rows        [in] rows of A
/// @param cols        [in] columns of A
/// @param value_bytes [in] sizeof(T)
inline count_t vector_bytes(count_t rows, count_t cols, count_t value_bytes) {
    return cols * value_bytes + 2 * rows * value_bytes;
}

/// @brief COO: row, column (4 B each) and value per entry, plus the vectors.
/// @param rows [in] rows  @param cols [in] columns  @param nnz [in] entries
/// @param value_bytes [in] sizeof(T)
inline count_t coo_bytes(count_t rows, count_t cols, count_t nnz, count_t value_bytes) {
    return nnz * (4 + 4 + value_bytes) + vector_bytes(rows, cols, value_bytes);
}

/// @brief CSR: row_ptr (rows+1 x 4 B), column (4 B) and value per entry, plus the vectors.
/// @param rows [in] rows  @param cols [in] columns  @param nnz [in] entries
/// @param value_bytes [in] sizeof(T)
inline count_t csr_bytes(count_t rows, count_t cols, count_t nnz, count_t value_bytes) {
    return (rows + 1) * 4 + nnz * (4 + value_bytes) + vector_bytes(rows, cols, value_bytes);
}

/// @brief Rows split over P ranks (lab 10), each rank's rows held as a local and a remote CSR
/// block: both blocks' row_ptr, a column and a value per entry, the vectors, and per halo
/// entry the sender's gather (its index and x value read, the send buffer written) and the
/// remote product's read of it. The transport's own copies (MPI, NCCL) are the link's traffic,
/// which lab 10's bench_multi measures apart.
/// @param rows [in] rows  @param cols [in] columns  @param nnz [in] entries  @param ranks [in] P
/// @param halo_entries [in] halo entries of all ranks  @param value_bytes [in] sizeof(T)
inline count_t dist_csr_bytes(count_t rows, count_t cols, count_t nnz, count_t ranks, count_t halo_entries,
                              count_t value_bytes) {
    return 2 * (rows + ranks) * 4 + nnz * (4 + value_bytes) + vector_bytes(rows, cols, value_bytes) +
           halo_entries * (4 + 3 * value_bytes);
}

/// @brief CSR with its merge path partitioned into tiles (lab 02's merge-based kernel): the CSR
/// arrays and vectors, plus the two tile coordinates (row and nonzero, 4 B each) every tile reads.
/// @param rows [in] rows  @param cols [in] columns  @param nnz [in] entries  @param tiles [in] tiles
/// @param value_bytes [in] sizeof(T)
inline count_t csr_merge_bytes(count_t rows, count_t cols, count_t nnz, count_t tiles, count_t value_bytes) {
    return csr_bytes(rows, cols, nnz, value_bytes) + 2 * tiles * (4 + 4);
}

/// @brief DIA: the offsets (4 B each), every stored slot of the diagonal array (padding
/// included: the kernel reads it), plus the vectors.
/// @param rows [in] rows  @param cols [in] columns  @param diagonals [in] stored diagonals
/// @param pitch [in] slots per diagonal (>= rows)  @param value_bytes [in] sizeof(T)
inline count_t dia_bytes(count_t rows, count_t cols, count_t diagonals, count_t pitch, count_t value_bytes) {
    return diagonals * 4 + diagonals * pitch * value_bytes + vector_bytes(rows, cols, value_bytes);
}

/// @brief ELL: column index (4 B) and value per slot, padding included, plus the vectors.
/// @param rows [in] rows  @param cols [in] columns  @param width [in] slots per row
/// @param pitch [in] slots per column of the ELL arrays (>= rows)  @param value_bytes [in] sizeof(T)
inline count_t ell_bytes(count_t rows, count_t cols, count_t width, count_t pitch, count_t value_bytes) {
    return width * pitch * (4 + value_bytes) + vector_bytes(rows, cols, value_bytes);
}

/// @brief HYB: its ELL part plus its COO part, with the vectors counted once.
/// @param rows [in] rows  @param cols [in] columns  @param width [in] ELL slots per row
/// @param pitch [in] ELL pitch  @param coo_nnz [in] entries in the COO part  @param value_bytes [in] sizeof(T)
inline count_t hyb_bytes(count_t rows, count_t cols, count_t width, count_t pitch, count_t coo_nnz,
                         count_t value_bytes) {
    return width * pitch * (4 + value_bytes) + coo_nnz * (4 + 4 + value_bytes) + vector_bytes(rows, cols, value_bytes);
}

/// @brief BCSR with r x c blocks: block-row pointers, one column index per block, r*c
/// values per block (fill included), plus the vectors.
/// @param rows [in] rows  @param cols [in] columns  @param blocks [in] stored blocks
/// @param r [in] block rows  @param c [in] block columns  @param value_bytes [in] sizeof(T)
inline count_t bcsr_bytes(count_t rows, count_t cols, count_t blocks, count_t r, count_t c, count_t value_bytes) {
    const count_t block_rows = (rows + r - 1) / r;
    return (block_rows + 1) * 4 + blocks * 4 + blocks * r * c * value_bytes + vector_bytes(rows, cols, value_bytes);
}

/// @brief BCSR run by the two-kernel scheme: bcsr_bytes, plus the r partial sums of each block
/// that the first kernel writes and the second reads back.
/// @param rows [in] rows  @param cols [in] columns  @param blocks [in] stored blocks
/// @param r [in] block rows  @param c [in] block columns  @param value_bytes [in] sizeof(T)
inline count_t bcsr_2kernel_bytes(count_t rows, count_t cols, count_t blocks, count_t r, count_t c,
                                  count_t value_bytes) {
    return bcsr_bytes(rows, cols, blocks, r, c, value_bytes) + 2 * blocks * r * value_bytes;
}

/// @brief CSR5: the CSR arrays, tile_ptr (4 B per tile + 1), the tile descriptors as read
/// (`descriptor_bits` per lane of each complete tile: 64 for the whole word, sigma where only
/// the packed bit_flags are read), plus the empty_offset_ptr and empty_offset lists (4 B per
/// entry) of tiles that hold empty rows.
/// @param rows [in] rows  @param cols [in] columns  @param nnz [in] entries  @param tiles [in] tiles
/// @param descriptor_lanes [in] lanes of the complete tiles  @param descriptor_bits [in] bits read per lane
/// @param empty_offset_entries [in] entries of both lists  @param value_bytes [in] sizeof(T)
inline count_t csr5_bytes(count_t rows, count_t cols, count_t nnz, count_t tiles, count_t descriptor_lanes,
                          count_t descriptor_bits, count_t empty_offset_entries, count_t value_bytes) {
    return csr_bytes(rows, cols, nnz, value_bytes) + (tiles + 1) * 4 + (descriptor_lanes * descriptor_bits + 7) / 8 +
           empty_offset_entries * 4;
}

/// @brief SELL-C-sigma: column index (4 B) and value per stored slot (padding included: the
/// kernel reads it), each chunk's offset and width (4 B each, plus the closing offset), the
/// row permutation (4 B per row: y is written through it), plus the vectors.
/// @param rows [in] rows  @param cols [in] columns  @param chunks [in] chunks
/// @param slots [in] stored slots, padding included  @param value_bytes [in] sizeof(T)
inline count_t sell_bytes(count_t rows, count_t cols, count_t chunks, count_t slots, count_t value_bytes) {
    return slots * (4 + value_bytes) + (2 * chunks + 1) * 4 + rows * 4 + vector_bytes(rows, cols, value_bytes);
}

/// @brief Dense (GEMV): all rows*cols values, however many are zero (padding rows of lda > rows
/// are not read), plus the vectors: x read once, y read and written once.
/// @param rows [in] rows of the matrix as stored  @param cols [in] columns as stored
/// @param value_bytes [in] sizeof(T)
inline count_t dense_bytes(count_t rows, count_t cols, count_t value_bytes) {
    return rows * cols * value_bytes + vector_bytes(rows, cols, value_bytes);
}

/// @brief Dense bytes of a dense container (rows, cols). @param m [in] matrix
/// @param value_bytes [in] sizeof(T)
/// @param transposed [in] true when m stores A^T and the GEMV multiplies by its transpose:
/// then x has m.rows values and y m.cols
template <class Matrix>
count_t dense_bytes_of(const Matrix& m, count_t value_bytes, bool transposed = false) {
    return transposed ? dense_bytes(m.cols, m.rows, value_bytes) : dense_bytes(m.rows, m.cols, value_bytes);
}

/// @brief CSR bytes of a CSR container (anything with rows, cols and nnz()). @param m [in] matrix
/// @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t csr_bytes_of(const Matrix& m, count_t value_bytes) {
    return csr_bytes(m.rows, m.cols, m.nnz(), value_bytes);
}

/// @brief COO bytes of a COO container. @param m [in] matrix  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t coo_bytes_of(const Matrix& m, count_t value_bytes) {
    return coo_bytes(m.rows, m.cols, static_cast<count_t>(m.vals.size()), value_bytes);
}

/// @brief DIA bytes of a DIA container (rows, cols, diagonals(), pitch).
/// @param m [in] matrix  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t dia_bytes_of(const Matrix& m, count_t value_bytes) {
    return dia_bytes(m.rows, m.cols, m.diagonals(), m.pitch, value_bytes);
}

/// @brief ELL bytes of an ELL container (rows, cols, width, pitch).
/// @param m [in] matrix  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t ell_bytes_of(const Matrix& m, count_t value_bytes) {
    return ell_bytes(m.rows, m.cols, m.width, m.pitch, value_bytes);
}

/// @brief HYB bytes of a HYB container (its ell and coo parts).
/// @param m [in] matrix  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t hyb_bytes_of(const Matrix& m, count_t value_bytes) {
    return hyb_bytes(m.rows, m.cols, m.ell.width, m.ell.pitch, static_cast<count_t>(m.coo.vals.size()), value_bytes);
}

/// @brief BCSR bytes of a BCSR container (rows, cols, blocks(), r, c).
/// @param m [in] matrix  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t bcsr_bytes_of(const Matrix& m, count_t value_bytes) {
    return bcsr_bytes(m.rows, m.cols, m.blocks(), m.r, m.c, value_bytes);
}

/// @brief CSR merge bytes of a CSR container cut into `tiles` tiles (csr_merge_bytes).
/// @param m [in] matrix  @param tiles [in] tiles of its merge path  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t csr_merge_bytes_of(const Matrix& m, count_t tiles, count_t value_bytes) {
    return csr_merge_bytes(m.rows, m.cols, m.nnz(), tiles, value_bytes);
}

/// @brief Two-kernel BCSR bytes of a BCSR container (bcsr_2kernel_bytes).
/// @param m [in] matrix  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t bcsr_2kernel_bytes_of(const Matrix& m, count_t value_bytes) {
    return bcsr_2kernel_bytes(m.rows, m.cols, m.blocks(), m.r, m.c, value_bytes);
}

/// @brief CSR5 bytes of a CSR5 container, its descriptors read `descriptor_bits` per lane.
/// @param m [in] matrix  @param value_bytes [in] sizeof(T)
/// @param descriptor_bits [in] 64: the whole tile_desc word (CPU); m.sigma: the packed bit_flags (GPU)
template <class Matrix>
count_t csr5_bytes_of(const Matrix& m, count_t value_bytes, count_t descriptor_bits = 64) {
    return csr5_bytes(m.rows, m.cols, m.nnz(), m.tiles(), static_cast<count_t>(m.tile_desc.size()), descriptor_bits,
                      static_cast<count_t>(m.empty_offset_ptr.size() + m.empty_offset.size()), value_bytes);
}

/// @brief SELL-C-sigma bytes of a SELL container (rows, cols, chunks(), slots()), less the
/// permutation when its rows are in place (rows_in_place(): the kernels then write y[p]
/// without reading it).
/// @param m [in] matrix  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t sell_bytes_of(const Matrix& m, count_t value_bytes) {
    const count_t perm_bytes = m.rows_in_place() ? static_cast<count_t>(m.rows) * 4 : 0;
    return sell_bytes(m.rows, m.cols, m.chunks(), m.slots(), value_bytes) - perm_bytes;
}

/// @brief Floating-point operations of one SpMV: a multiply and an add per entry.
/// @param nnz [in] entries of A (padding not counted: it is wasted work, not useful flops)
inline count_t spmv_flops(count_t nnz) { return 2 * nnz; }

}  // namespace kit
