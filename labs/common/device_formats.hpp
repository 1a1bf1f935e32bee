/// @file device_formats.hpp
/// @brief Every format copied to the GPU (COO, CSR, DIA, ELL, HYB), with the views kernels take.
#pragma once

#include "coo.hpp"
#include "csr.hpp"
#include "dia.hpp"
#include "hyb.hpp"
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

/// @brief DIA arrays in GPU memory.
template <class T>
struct DeviceDia {
    index_t rows = 0;                ///< number of rows
    index_t cols = 0;                ///< number of columns
    index_t pitch = 0;               ///< slots per diagonal
    DeviceBuffer<index_t> offsets;   ///< offset of each diagonal
    DeviceBuffer<T> data;            ///< data[d * pitch + row], padding = 0
    /// @brief Uploads a host DIA. @param h [in] host matrix
    explicit DeviceDia(const Dia<T>& h)
        : rows(h.rows), cols(h.cols), pitch(h.pitch), offsets(h.offsets), data(h.data) {}
    /// @brief View with device pointers.
    DiaView<T> view() const {
        return {rows, cols, static_cast<index_t>(offsets.size()), pitch, offsets.data(), data.data()};
    }
};

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
    DeviceCoo<T> coo;  ///< the entries past K
    /// @brief Uploads a host HYB. @param h [in] host matrix
    explicit DeviceHyb(const Hyb<T>& h) : ell(h.ell), coo(h.coo) {}
    /// @brief View with device pointers.
    HybView<T> view() const { return {ell.view(), coo.view()}; }
};

}  // namespace kit
