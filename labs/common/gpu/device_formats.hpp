/// @file device_formats.hpp
/// @brief Every format copied to the GPU (COO, CSR, CSR with its merge path, dense, DIA, ELL, HYB,
/// BCSR, CSR5, SELL-C-sigma), with the views kernels take.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/bcsr.hpp"
#include "formats/coo.hpp"
#include "formats/csr.hpp"
#include "formats/csr5.hpp"
#include "formats/dense.hpp"
#include "formats/dia.hpp"
#include "formats/hyb.hpp"
#include "formats/sell.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_buffer.hpp"

namespace kit {

/// @brief CSR arrays in GPU memory.
template <class T>
struct DeviceCsr {
    index_t rows = 0;               ///< number of rows
    index_t cols = 0;               ///< number of columns
    DeviceBuffer<index_t> row_ptr;  ///< rows+1 offsets
    DeviceBuffer<index_t> col_idx;  ///< column per entry
    DeviceBuffer<T> vals;           ///< value per entry
    /// @brief Uploads a host CSR. @param h [in] host matrix
    explicit DeviceCsr(const Csr<T>& h)
        : rows(h.rows), cols(h.cols), row_ptr(h.row_ptr), col_idx(h.col_idx), vals(h.vals) {}
    /// @brief View with device pointers.
    CsrView<T> view() const {
        return {rows, cols, static_cast<index_t>(vals.size()), row_ptr.data(), col_idx.data(), vals.data()};
    }
};

/// @brief CSR on the GPU with its merge path (Merrill and Garland) cut into tiles: the coordinate
/// of every tile boundary is found once, at upload, as cuSPARSE's preprocessing is, so that no
/// call searches it again.
///
/// The kernel's lab decides the tiling (lab 02: cuda::MergeTiling): `Tiling::Coord` is a point
/// on the merge path, `Tiling::tiles<T>(rows, nnz)` the number of tiles, and
/// `Tiling::partition(CsrView<T>, Coord*)` writes the tiles + 1 boundaries on the GPU.
template <class T, class Tiling>
struct DeviceCsrMerge {
    using Coord = typename Tiling::Coord;  ///< a point on the merge path
    DeviceCsr<T> csr;                      ///< the matrix
    DeviceBuffer<Coord> tile_start;        ///< coordinate of each tile boundary
    /// @brief Uploads a host CSR and partitions its merge path. @param h [in] host matrix
    explicit DeviceCsrMerge(const Csr<T>& h)
        : csr(h), tile_start(static_cast<std::size_t>(Tiling::template tiles<T>(h.rows, h.nnz())) + 1) {
        Tiling::partition(csr.view(), tile_start.data());
    }
    /// @brief What the merge kernel takes: the matrix and its partition.
    struct View {
        CsrView<T> A;             ///< the matrix (device pointers)
        const Coord* tile_start;  ///< tiles + 1 boundaries (device)
    };
    /// @brief View with device pointers.
    View view() const { return {csr.view(), tile_start.data()}; }
};

/// @brief A column-major dense matrix in GPU memory (lab 09's GEMV).
template <class T>
struct DeviceDense {
    index_t rows = 0;      ///< rows
    index_t cols = 0;      ///< columns
    index_t lda = 0;       ///< leading dimension
    DeviceBuffer<T> vals;  ///< lda * cols values
    /// @brief Uploads a host dense matrix. @param h [in] host matrix
    explicit DeviceDense(const Dense<T>& h) : rows(h.rows), cols(h.cols), lda(h.lda), vals(h.vals) {}
    /// @brief View with device pointers.
    DenseView<T> view() const { return {rows, cols, lda, vals.data()}; }
};

/// @brief COO arrays in GPU memory.
template <class T>
struct DeviceCoo {
    index_t rows = 0;               ///< number of rows
    index_t cols = 0;               ///< number of columns
    DeviceBuffer<index_t> row_idx;  ///< row per entry
    DeviceBuffer<index_t> col_idx;  ///< column per entry
    DeviceBuffer<T> vals;           ///< value per entry
    /// @brief Uploads a host COO. @param h [in] host matrix
    explicit DeviceCoo(const Coo<T>& h)
        : rows(h.rows), cols(h.cols), row_idx(h.row_idx), col_idx(h.col_idx), vals(h.vals) {}
    /// @brief View with device pointers.
    CooView<T> view() const {
        return {rows, cols, static_cast<index_t>(vals.size()), row_idx.data(), col_idx.data(), vals.data()};
    }
};

/// @brief DIA arrays in GPU memory.
template <class T>
struct DeviceDia {
    index_t rows = 0;               ///< number of rows
    index_t cols = 0;               ///< number of columns
    index_t pitch = 0;              ///< slots per diagonal
    DeviceBuffer<index_t> offsets;  ///< offset of each diagonal
    DeviceBuffer<T> vals;           ///< vals[d * pitch + row], padding = 0
    /// @brief Uploads a host DIA. @param h [in] host matrix
    explicit DeviceDia(const Dia<T>& h)
        : rows(h.rows), cols(h.cols), pitch(h.pitch), offsets(h.offsets), vals(h.vals) {}
    /// @brief View with device pointers.
    DiaView<T> view() const {
        return {rows, cols, static_cast<index_t>(offsets.size()), pitch, offsets.data(), vals.data()};
    }
};

/// @brief ELL arrays in GPU memory.
template <class T>
struct DeviceEll {
    index_t rows = 0;               ///< number of rows
    index_t cols = 0;               ///< number of columns
    index_t width = 0;              ///< slots per row
    index_t pitch = 0;              ///< slots per ELL column
    DeviceBuffer<index_t> col_idx;  ///< col_idx[k * pitch + row], -1 in padding
    DeviceBuffer<T> vals;           ///< vals[k * pitch + row], 0 in padding
    /// @brief Uploads a host ELL. @param h [in] host matrix
    explicit DeviceEll(const Ell<T>& h)
        : rows(h.rows), cols(h.cols), width(h.width), pitch(h.pitch), col_idx(h.col_idx), vals(h.vals) {}
    /// @brief View with device pointers.
    EllView<T> view() const { return {rows, cols, width, pitch, col_idx.data(), vals.data()}; }
};

/// @brief HYB in GPU memory: its ELL part and its COO part.
template <class T>
struct DeviceHyb {
    DeviceEll<T> ell;  ///< first K entries of each row
    DeviceCoo<T> coo;  ///< the entries past K
    /// @brief Uploads a host HYB. @param h [in] host matrix
    explicit DeviceHyb(const Hyb<T>& h) : ell(h.ell), coo(h.coo) {}
    /// @brief View with device pointers.
    HybView<T> view() const { return {ell.view(), coo.view()}; }
};

/// @brief BCSR arrays in GPU memory, with the scratch array of the two-kernel scheme.
template <class T>
struct DeviceBcsr {
    BcsrView<T> shape;              ///< sizes and block shape (host pointers: do not dereference)
    DeviceBuffer<index_t> row_ptr;  ///< block-row offsets
    DeviceBuffer<index_t> col_idx;  ///< first column of each block
    DeviceBuffer<T> vals;           ///< r*c values per block
    DeviceBuffer<T> partial;        ///< blocks*r partial sums, written by kernel 1 of the two-kernel scheme
    /// @brief Uploads a host BCSR and allocates the scratch. @param h [in] host matrix
    explicit DeviceBcsr(const Bcsr<T>& h)
        : shape(h.view()),
          row_ptr(h.row_ptr),
          col_idx(h.col_idx),
          vals(h.vals),
          partial(static_cast<std::size_t>(h.blocks()) * h.r) {}
    /// @brief View with device pointers.
    BcsrView<T> view() const {
        BcsrView<T> v = shape;
        v.row_ptr = row_ptr.data();
        v.col_idx = col_idx.data();
        v.vals = vals.data();
        return v;
    }
};

/// @brief CSR5 arrays in GPU memory, plus the scratch the tile kernel writes its carries to.
///
/// Of each lane's 64-bit tile_desc word only its sigma bit_flag bits are uploaded, packed end
/// to end (csr5_pack_bit_flags): the tile kernel derives y_offset and seg_offset from the
/// bit_flags of its lanes, so it reads one bit per entry instead of 8 bytes a lane.
template <class T>
struct DeviceCsr5 {
    Csr5View<T> shape;                       ///< sizes and parameters (host pointers: do not dereference)
    DeviceBuffer<index_t> row_ptr;           ///< CSR row offsets
    DeviceBuffer<index_t> empty_offset_ptr;  ///< per tile: start of its empty_offset list
    DeviceBuffer<index_t> empty_offset;      ///< segment -> row offsets of tiles with empty rows
    DeviceBuffer<index_t> col_idx;           ///< columns, transposed within each complete tile
    DeviceBuffer<std::uint32_t> tile_ptr;    ///< first row of each tile, with the empty-rows flag
    DeviceBuffer<std::uint32_t> bit_flag;    ///< every lane's bit_flag, sigma bits each, end to end
    DeviceBuffer<T> vals;                    ///< values, in the same order as col_idx
    DeviceBuffer<T> carry;                   ///< one carry per complete tile (scratch)
    /// @brief Uploads a host CSR5 and allocates the carries. @param h [in] host matrix
    explicit DeviceCsr5(const Csr5<T>& h)
        : shape(h.view()),
          row_ptr(h.row_ptr),
          empty_offset_ptr(h.empty_offset_ptr),
          empty_offset(h.empty_offset),
          col_idx(h.col_idx),
          tile_ptr(h.tile_ptr),
          bit_flag(csr5_pack_bit_flags(h.tile_desc, h.sigma)),
          vals(h.vals),
          carry(static_cast<std::size_t>(h.full_tiles())) {}
    /// @brief View with device pointers; the SpMV overwrites the carry scratch on every call
    /// (so the view is taken from a non-const matrix). tile_desc is null: use bit_flag.
    Csr5View<T> view() {
        Csr5View<T> v = shape;
        v.row_ptr = row_ptr.data();
        v.tile_ptr = tile_ptr.data();
        v.tile_desc = nullptr;
        v.empty_offset_ptr = empty_offset_ptr.data();
        v.empty_offset = empty_offset.data();
        v.col_idx = col_idx.data();
        v.vals = vals.data();
        v.bit_flag = bit_flag.data();
        v.carry = carry.data();
        return v;
    }
};

/// @brief SELL-C-sigma arrays in GPU memory, with the wide chunks set apart (sell_wide_plan, for
/// this GPU's resident threads): the view's chunk_width is 0 there, and its wide segments list
/// them for the wide kernel.
template <class T>
struct DeviceSell {
    index_t rows = 0;                   ///< number of rows
    index_t cols = 0;                   ///< number of columns
    index_t C = 0;                      ///< rows per chunk
    index_t threads = 1;                ///< CUDA threads that share each row
    DeviceBuffer<index_t> chunk_ptr;    ///< chunks + 1 slot offsets
    DeviceBuffer<index_t> chunk_width;  ///< slots per row of each chunk as the row kernels see it (0: wide)
    DeviceBuffer<index_t> perm;         ///< the row stored at each position
    index_t rows_in_place = 0;          ///< Sell::rows_in_place()
    DeviceBuffer<index_t> col_idx;      ///< columns, column-major within each chunk; -1 in padding
    DeviceBuffer<T> vals;               ///< values, 0 in padding
    DeviceBuffer<index_t> wide_chunk;   ///< per segment: its chunk (its size is the segment count)
    DeviceBuffer<index_t> wide_from;    ///< per segment: its first slot
    index_t wide_slots = 0;             ///< slots of a row per segment
    /// @brief Uploads a host SELL-C-sigma matrix. @param h [in] host matrix
    explicit DeviceSell(const Sell<T>& h)
        : DeviceSell(
              h, sell_wide_plan(h.chunk_width, h.threads, h.slots(), h.rows, cuda_device_shape().resident_threads())) {}
    /// @brief View with device pointers.
    SellView<T> view() const {
        return {rows,
                cols,
                C,
                threads,
                static_cast<index_t>(chunk_width.size()),
                chunk_ptr.data(),
                chunk_width.data(),
                perm.data(),
                rows_in_place,
                col_idx.data(),
                vals.data(),
                static_cast<index_t>(wide_chunk.size()),
                wide_chunk.data(),
                wide_from.data(),
                wide_slots};
    }

private:
    DeviceSell(const Sell<T>& h, const SellWidePlan& plan)
        : rows(h.rows),
          cols(h.cols),
          C(h.C),
          threads(h.threads),
          chunk_ptr(h.chunk_ptr),
          chunk_width(plan.row_widths),
          perm(h.perm),
          rows_in_place(h.rows_in_place()),
          col_idx(h.col_idx),
          vals(h.vals),
          wide_chunk(plan.wide_chunk),
          wide_from(plan.wide_from),
          wide_slots(plan.segment) {}
};

}  // namespace kit
