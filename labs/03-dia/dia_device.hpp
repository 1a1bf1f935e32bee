/// @file dia_device.hpp
/// @brief DeviceDia: a DIA matrix copied to the GPU, with the view kernels take.
#pragma once

#include "device_buffer.hpp"
#include "dia.hpp"

namespace kit {

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

}  // namespace kit
