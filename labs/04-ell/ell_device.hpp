/// @file ell_device.hpp
/// @brief DeviceEll and DeviceHyb: ELL and HYB matrices copied to the GPU, with their views.
#pragma once

#include "device_buffer.hpp"
#include "hyb.hpp"

namespace kit {

/// @brief ELL arrays in GPU memory.
template <class T>
struct DeviceEll {
    index_t rows = 0;                ///< number of rows
    index_t cols = 0;                ///< number of columns
    index_t width = 0;               ///< slots per row
    index_t pitch = 0;               ///< slots per ELL column
    DeviceBuffer<index_t> col_idx;   ///< col_idx[k * pitch + row], -1 in padding
    DeviceBuffer<T> vals;            ///< vals[k * pitch + row], 0 in padding
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
    index_t coo_nnz;   ///< entries in the COO part
    DeviceBuffer<index_t> coo_row;  ///< row of each COO entry
    DeviceBuffer<index_t> coo_col;  ///< column of each COO entry
    DeviceBuffer<T> coo_vals;       ///< value of each COO entry
    /// @brief Uploads a host HYB. @param h [in] host matrix
    explicit DeviceHyb(const Hyb<T>& h)
        : ell(h.ell), coo_nnz(static_cast<index_t>(h.coo.vals.size())), coo_row(h.coo.row_idx),
          coo_col(h.coo.col_idx), coo_vals(h.coo.vals) {}
    /// @brief View with device pointers.
    HybView<T> view() const {
        return {ell.view(), {ell.rows, ell.cols, coo_nnz, coo_row.data(), coo_col.data(), coo_vals.data()}};
    }
};

}  // namespace kit
