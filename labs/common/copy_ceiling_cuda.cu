// CUDA copy ceiling (see copy_ceiling.hpp).
#include <algorithm>

#include "copy_ceiling.hpp"
#include "cuda_run.hpp"

namespace kit {

CopyCeiling measure_cuda_copy_ceiling(std::size_t bytes, int repeats) {
    std::size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // large enough to dwarf L2 (50-60 MB on H100/H200) many times over
    const std::size_t n = bytes ? bytes : std::min<std::size_t>(std::size_t{1} << 30, free_bytes / 4) & ~std::size_t{0xfffff};
    DeviceBuffer<unsigned char> src(n), dst(n);
    CUDA_CHECK(cudaMemset(src.data(), 1, n));
    CUDA_CHECK(cudaMemset(dst.data(), 2, n));
    const std::vector<double> times = time_cuda(repeats, 2, [&] {
        CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), n, cudaMemcpyDeviceToDevice));
    });
    CopyCeiling c;
    c.ms = median(times);
    c.bytes = 2.0 * n;
    c.gbs = c.bytes / (c.ms * 1e6);
    c.how = "cudaMemcpy D2D " + std::to_string(n >> 20) + " MiB";
    c.device = cuda_device_name();
    c.is_gpu = true;
    return c;
}

}  // namespace kit
