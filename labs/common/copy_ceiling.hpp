/// @file copy_ceiling.hpp
/// @brief The copy-bandwidth ceiling of each backend, measured in the same run as the kernels.
///
/// A large copy moves every byte once in and once out, with perfect coalescing: no SpMV can
/// stream its bytes faster. The ceiling counts bytes read plus bytes written (2 x the buffer),
/// in decimal GB/s, the same units as the kernels' bytes models, so "% of ceiling" compares
/// like with like. The copy engine or memcpy is used as is; no tuned copy kernel.
#pragma once

#include <cstddef>
#include <string>

#include "types.hpp"

namespace kit {

/// @brief One ceiling measurement.
struct CopyCeiling {
    double gbs = 0;         ///< (bytes read + bytes written) / median time, in 1e9 B/s
    double bytes = 0;       ///< bytes read + written by one copy
    double ms = 0;          ///< median time of one copy
    std::string how;        ///< what was timed, e.g. "cudaMemcpy D2D 1024 MiB"
    std::string device;     ///< where it ran
    bool is_gpu = false;    ///< the device is a GPU (its kernels count for the targets)
};

/// @brief std::memcpy between two host buffers, one thread (the CPU kernels use one thread).
/// @param mib     [in] buffer size in MiB
/// @param repeats [in] timed copies (median taken)
CopyCeiling measure_cpu_copy_ceiling(int mib, int repeats);

#if KIT_HAVE_CUDA
/// @brief cudaMemcpyAsync device to device, timed with CUDA events.
/// @param bytes   [in] buffer size (0: up to 1 GiB, a quarter of free memory at most)
/// @param repeats [in] timed copies (median taken)
CopyCeiling measure_cuda_copy_ceiling(std::size_t bytes, int repeats);
#endif

#if KIT_HAVE_OPENCL
/// @brief clEnqueueCopyBuffer on the kit's OpenCL device, timed with profiling events.
/// @param bytes   [in] buffer size (0: 256 MiB on a GPU, 64 MiB on a CPU device such as PoCL)
/// @param repeats [in] timed copies (median taken)
CopyCeiling measure_opencl_copy_ceiling(std::size_t bytes, int repeats);
#endif

/// @brief The ceiling of the CUDA or OpenCL device; throws BackendUnavailable where that
/// backend is not built in or has no device.
/// @param b [in] Backend::cuda or Backend::opencl  @param bytes [in] buffer size (0: default)
/// @param repeats [in] timed copies (median taken)
CopyCeiling measure_device_copy_ceiling(Backend b, std::size_t bytes, int repeats);

}  // namespace kit
