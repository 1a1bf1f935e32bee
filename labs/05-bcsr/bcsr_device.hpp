/// @file bcsr_device.hpp
/// @brief BCSR copied to the GPU, with the scratch array of the two-kernel scheme.
#pragma once

#include "bcsr.hpp"
#include "device_buffer.hpp"

namespace kit {

/// @brief BCSR arrays in GPU memory.
template <class T>
struct DeviceBcsr {
    BcsrView<T> shape;              ///< sizes and block shape (host pointers: do not dereference)
    DeviceBuffer<index_t> ptr;      ///< block-row offsets
    DeviceBuffer<index_t> col;      ///< first column of each block
    DeviceBuffer<T> vals;           ///< r*c values per block
    DeviceBuffer<T> partial;        ///< blocks*r partial sums, written by kernel 1 of the two-kernel scheme
    /// @brief Uploads a host BCSR and allocates the scratch. @param h [in] host matrix
    explicit DeviceBcsr(const Bcsr<T>& h)
        : shape(h.view()), ptr(h.ptr), col(h.col), vals(h.vals),
          partial(static_cast<std::size_t>(h.blocks()) * h.r) {}
    /// @brief View with device pointers.
    BcsrView<T> view() const {
        BcsrView<T> v = shape;
        v.ptr = ptr.data();
        v.col = col.data();
        v.vals = vals.data();
        return v;
    }
};

}  // namespace kit
