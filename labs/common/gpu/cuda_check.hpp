/// @file cuda_check.hpp
/// @brief CUDA_CHECK and KIT_CHECK_LAUNCH: turn CUDA error codes into exceptions.
///
/// Unlike the samples' checkCudaErrors, these never call exit(): library code throws
/// and `main` decides the exit code, so a failing test reports and the next one runs.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "core/kit_error.hpp"

namespace kit {

/// @brief A CUDA runtime call failed.
struct CudaError : Error {
    using Error::Error;
};

/// @brief Throws CudaError naming the call, file and line when `code` is not cudaSuccess.
/// @param code [in] result of the call  @param call [in] the call's text
/// @param file [in] source file  @param line [in] source line
inline void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
    if (code != cudaSuccess)
        throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call +
                        " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")");
}

}  // namespace kit

/// Wraps a CUDA runtime call; throws kit::CudaError on failure.
#define CUDA_CHECK(call) ::kit::cuda_check((call), #call, __FILE__, __LINE__)
/// Checks the last kernel launch (bad configuration, missing kernel image, ...).
#define KIT_CHECK_LAUNCH() ::kit::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
