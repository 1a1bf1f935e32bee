/// @file cl_check.hpp
/// @brief CL_CHECK: turn OpenCL error codes into exceptions naming the call, file and line.
#pragma once

/// The kit targets OpenCL 1.2: what PoCL and NVIDIA both provide.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>

#include "core/kit_error.hpp"

namespace kit {

/// @brief An OpenCL call failed.
struct OpenCLError : Error {
    using Error::Error;
};

/// @brief Symbolic name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES".
/// @param code [in] the error code
const char* cl_error_name(cl_int code);

/// @brief Throws OpenCLError when `code` is not CL_SUCCESS.
/// @param code [in] result  @param call [in] call text  @param file [in] file  @param line [in] line
inline void cl_check(cl_int code, const char* call, const char* file, int line) {
    if (code != CL_SUCCESS)
        throw OpenCLError(std::string(file) + ":" + std::to_string(line) + ": " + call +
                          " failed: " + cl_error_name(code) + " (" + std::to_string(code) + ")");
}

}  // namespace kit

/// Wraps an OpenCL call returning cl_int (or an error code variable); throws kit::OpenCLError.
#define CL_CHECK(call) ::kit::cl_check((call), #call, __FILE__, __LINE__)
