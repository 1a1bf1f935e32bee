/// @file bandwidth_ceiling.hpp
/// @brief The bandwidth ceiling of each backend, measured in the same run as the kernels.
///
/// Three ways of moving memory are timed on each backend, and the highest is the ceiling
/// every "% of ceiling" figure refers to (the table says which one it was):
/// - **read**: a kernel that only reads a large buffer (16-byte loads, a grid-stride loop).
///   SpMV mostly reads, and on today's GPUs a read stream runs faster than a copy;
/// - **copy kernel**: a kernel that copies a large buffer, counting bytes read plus written;
/// - **copy API**: cudaMemcpy device to device, clEnqueueCopyBuffer, or memcpy on the host.
///
/// All figures are decimal GB/s (1e9 B/s), the units of the bytes models. Buffers are far
/// larger than any cache, so the figures are DRAM figures. A kernel above 100% of this
/// ceiling is being served from cache: the tables mark it, never celebrate it.
#pragma once

#include <cstddef>
#include <string>

#include "core/types.hpp"

namespace kit {

/// @brief One backend's ceiling: the three measurements and the highest of them.
struct BandwidthCeiling {
    double gbs = 0;              ///< the ceiling: the highest of the three, GB/s
    std::string how;             ///< which one it was and how big, e.g. "read kernel 1024 MiB"
    double read_gbs = 0;         ///< read-only kernel (bytes read / time)
    double copy_kernel_gbs = 0;  ///< copy kernel ((bytes read + written) / time)
    double copy_api_gbs = 0;     ///< the API's copy ((bytes read + written) / time)
    std::string device;          ///< where it ran
    bool is_gpu = false;         ///< the device is a GPU (its kernels count for the targets)
};

/// @brief Fills gbs and how from the three measurements. @param c [in,out] ceiling
/// @param mib [in] buffer size in MiB, for the description
void choose_ceiling(BandwidthCeiling& c, std::size_t mib);

/// @brief The host ceiling with one thread (the CPU kernels use one): a read loop, a copy
/// loop and std::memcpy.
/// @param mib [in] buffer size in MiB  @param repeats [in] timed passes (median taken)
BandwidthCeiling measure_cpu_ceiling(int mib, int repeats);

#if KIT_HAVE_CUDA
/// @brief The CUDA ceiling: read kernel, copy kernel and cudaMemcpyAsync D2D, timed with events.
/// @param bytes [in] buffer size (0: up to 1 GiB, a quarter of free memory at most)
/// @param repeats [in] timed passes (median taken)
BandwidthCeiling measure_cuda_ceiling(std::size_t bytes, int repeats);
#endif

#if KIT_HAVE_OPENCL
/// @brief The OpenCL ceiling: read kernel, copy kernel and clEnqueueCopyBuffer, timed with
/// profiling events.
/// @param bytes [in] buffer size (0: 512 MiB on a GPU, 64 MiB on a CPU device such as PoCL)
/// @param repeats [in] timed passes (median taken)
BandwidthCeiling measure_opencl_ceiling(std::size_t bytes, int repeats);
#endif

/// @brief The ceiling of the CUDA or OpenCL device; throws BackendUnavailable where that
/// backend is not built in or has no device.
/// @param b [in] Backend::cuda or Backend::opencl  @param bytes [in] buffer size (0: default)
/// @param repeats [in] timed passes (median taken)
BandwidthCeiling measure_device_ceiling(Backend b, std::size_t bytes, int repeats);

}  // namespace kit
