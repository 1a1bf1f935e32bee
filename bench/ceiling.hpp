/// @file ceiling.hpp
/// @brief The copy-bandwidth ceiling of each backend, measured in the same run as the kernels.
///
/// A large copy moves every byte once in and once out, with perfect coalescing: no SpMV can
/// stream its bytes faster. The ceiling counts bytes read plus bytes written (2 x the buffer),
/// in decimal GB/s, the same units as the kernels' bytes models, so "% of ceiling" compares
/// like with like. The copy engine or memcpy is used as is; no tuned copy kernel.
#pragma once

#include <string>

namespace bench {

/// @brief One ceiling measurement.
struct Ceiling {
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
Ceiling measure_cpu_ceiling(int mib, int repeats);

#if KIT_HAVE_CUDA
/// @brief cudaMemcpyAsync device to device of up to 1 GiB (a quarter of free memory at most),
/// timed with CUDA events.
/// @param repeats [in] timed copies (median taken)
Ceiling measure_cuda_ceiling(int repeats);
#endif

#if KIT_HAVE_OPENCL
/// @brief clEnqueueCopyBuffer on the kit's OpenCL device, timed with profiling events
/// (256 MiB on a GPU, 64 MiB on a CPU device such as PoCL).
/// @param repeats [in] timed copies (median taken)
Ceiling measure_opencl_ceiling(int repeats);
#endif

}  // namespace bench
