/// @file device_formats.hpp
/// @brief COO and CSR copied to the GPU, with the views kernels take.
#pragma once

#include "coo.hpp"
#include "csr.hpp"
#include "device_buffer.hpp"

namespace kit {

/// @brief CSR arrays in GPU memory.
template <class T>
struct DeviceCsr {
    index_t rows = 0;                   ///< number of rows
    index_t cols = 0;                   ///< number of columns
    DeviceBuffer<index_t> row_ptr;      ///< rows+1 offsets
    DeviceBuffer<index_t> col_idx;      ///< column per entry
    DeviceBuffer<T> vals;               ///< value per entry
    /// @brief Uploads a host CSR. @param h [in] host matrix
    explicit DeviceCsr(const Csr<T>& h)
        : rows(h.rows), cols(h.cols), row_ptr(h.row_ptr), col_idx(h.col_idx), vals(h.vals) {}
    /// @brief View with device pointers.
    CsrView<T> view() const {
        return {rows, cols, static_cast<index_t>(vals.size()), row_ptr.data(), col_idx.data(), vals.data()};
    }
};

/// @brief COO arrays in GPU memory.
template <class T>
struct DeviceCoo {
    index_t rows = 0;                   ///< number of rows
    index_t cols = 0;                   ///< number of columns
    DeviceBuffer<index_t> row_idx;      ///< row per entry
    DeviceBuffer<index_t> col_idx;      ///< column per entry
    DeviceBuffer<T> vals;               ///< value per entry
    /// @brief Uploads a host COO. @param h [in] host matrix
    explicit DeviceCoo(const Coo<T>& h)
        : rows(h.rows), cols(h.cols), row_idx(h.row_idx), col_idx(h.col_idx), vals(h.vals) {}
    /// @brief View with device pointers.
    CooView<T> view() const {
        return {rows, cols, static_cast<index_t>(vals.size()), row_idx.data(), col_idx.data(), vals.data()};
    }
};

}  // namespace kit
