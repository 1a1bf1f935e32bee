/// @file opencl_formats.hpp
/// @brief Every format copied to an OpenCL device (CSR, DIA): its arrays in buffers and its
/// sizes as the kernels take them (cl_int), the OpenCL counterpart of device_formats.hpp.
#pragma once

#include "formats/csr.hpp"
#include "formats/dia.hpp"
#include "gpu/opencl_runtime.hpp"

namespace kit::ocl {

/// @brief CSR arrays in OpenCL buffers.
struct ClCsr {
    cl_int rows;     ///< number of rows
    cl_int cols;     ///< number of columns
    Buffer row_ptr;  ///< rows+1 offsets
    Buffer col_idx;  ///< column per entry
    Buffer vals;     ///< value per entry
    /// @brief Uploads a host CSR. @param m [in] host matrix
    template <class T>
    explicit ClCsr(const Csr<T>& m)
        : rows(m.rows), cols(m.cols), row_ptr(m.row_ptr), col_idx(m.col_idx), vals(m.vals) {}
};

/// @brief DIA arrays in OpenCL buffers.
struct ClDia {
    cl_int rows;       ///< number of rows
    cl_int cols;       ///< number of columns
    cl_int diagonals;  ///< stored diagonals
    cl_int pitch;      ///< slots per diagonal
    Buffer offsets;    ///< offset of each diagonal
    Buffer vals;       ///< vals[d * pitch + row], padding = 0
    /// @brief Uploads a host DIA. @param m [in] host matrix
    template <class T>
    explicit ClDia(const Dia<T>& m)
        : rows(m.rows), cols(m.cols), diagonals(m.diagonals()), pitch(m.pitch), offsets(m.offsets), vals(m.vals) {}
};

}  // namespace kit::ocl
