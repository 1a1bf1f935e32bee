// Availability, name and shape of the CUDA device, for the registry, the test skips and calibrate.
#include <optional>
#include <string>

#include "gpu/cuda_run.hpp"

namespace kit {

std::optional<std::string> cuda_unavailable() {
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) {
        cudaGetLastError();  // clear the sticky error so later checks start clean
        // No GPU at all reads, from the runtime, like a version mismatch ("driver version is
        // insufficient"): say what the user sees first, the runtime's words after.
        return std::string("no CUDA device found (run on a GPU node, see jobs/); the CUDA runtime says: ") +
               cudaGetErrorString(code);
    }
    if (count == 0) return std::string("no CUDA device found (none visible: check CUDA_VISIBLE_DEVICES)");
    return std::nullopt;
}

namespace {

cudaDeviceProp current_device_properties() {
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    return prop;
}

}  // namespace

std::string cuda_device_name() { return current_device_properties().name; }

CudaShape cuda_device_shape() {
    const cudaDeviceProp prop = current_device_properties();
    return {prop.multiProcessorCount, prop.maxThreadsPerMultiProcessor, prop.warpSize};
}

}  // namespace kit
