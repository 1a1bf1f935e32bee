// Availability, name and shape of the CUDA device, for the registry, the test skips and calibrate.
#include <dlfcn.h>

#include <optional>
#include <string>

#include "gpu/cuda_run.hpp"

namespace kit {

namespace {

/// True if the NVIDIA driver's library can be loaded: without it the runtime reports "driver
/// version is insufficient", which on a machine with no driver at all misleads.
bool driver_library_present() {
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (lib) dlclose(lib);
    return lib != nullptr;
}

}  // namespace

std::optional<std::string> cuda_unavailable() {
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) {
        cudaGetLastError();  // clear the sticky error so later checks start clean
        if (code == cudaErrorNoDevice || (code == cudaErrorInsufficientDriver && !driver_library_present()))
            return std::string("no CUDA device found: this machine has no NVIDIA GPU driver (run on a GPU node, "
                               "see jobs/)");
        if (code == cudaErrorInsufficientDriver)
            return std::string("the NVIDIA driver is older than the CUDA runtime the kit was built with: update the "
                               "driver, or build with the CUDA Toolkit that matches it (nvidia-smi shows its version)");
        return std::string("no usable CUDA device (run on a GPU node, see jobs/); the CUDA runtime says: ") +
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
    // Three attribute queries, not cudaGetDeviceProperties: cheap enough for every upload.
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CudaShape shape;
    CUDA_CHECK(cudaDeviceGetAttribute(&shape.sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&shape.threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&shape.warp, cudaDevAttrWarpSize, dev));
    return shape;
}

}  // namespace kit
