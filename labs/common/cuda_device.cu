// Availability and name of the CUDA device, for the registry and the test skips.
#include <optional>
#include <string>

#include "cuda_run.hpp"

namespace kit {

std::optional<std::string> cuda_unavailable() {
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) {
        cudaGetLastError();  // clear the sticky error so later checks start clean
        return std::string("no CUDA device: cudaGetDeviceCount says ") + cudaGetErrorString(code) +
               "; run on a GPU node (see jobs/)";
    }
    if (count == 0) return std::string("no CUDA device visible (check CUDA_VISIBLE_DEVICES)");
    return std::nullopt;
}

std::string cuda_device_name() {
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    return prop.name;
}

}  // namespace kit
