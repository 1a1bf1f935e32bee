// CPU copy ceiling, and the choice between the device ones (see copy_ceiling.hpp).
#include "copy_ceiling.hpp"

#include <cstring>
#include <vector>

#include "kit_error.hpp"
#include "timing.hpp"
#include "variants.hpp"

namespace kit {

CopyCeiling measure_cpu_copy_ceiling(int mib, int repeats) {
    const std::size_t n = static_cast<std::size_t>(mib) << 20;
    // distinct non-zero contents, so no page is shared or left untouched
    std::vector<unsigned char> src(n, 1), dst(n, 2);
    std::memcpy(dst.data(), src.data(), n);  // warm-up: page in both buffers
    std::vector<double> times;
    HostTimer t;
    for (int k = 0; k < repeats; ++k) {
        t.start();
        std::memcpy(dst.data(), src.data(), n);
        times.push_back(t.elapsed_ms());
        src[k % n] ^= dst[(k * 4099) % n];  // keep the copies observable
    }
    CopyCeiling c;
    c.ms = median(times);
    c.bytes = 2.0 * n;
    c.gbs = c.bytes / (c.ms * 1e6);
    c.how = "memcpy host " + std::to_string(mib) + " MiB, 1 thread";
    c.device = "host CPU (1 thread)";
    return c;
}

CopyCeiling measure_device_copy_ceiling(Backend b, std::size_t bytes, int repeats) {
    if (auto why = backend_unavailable(b)) throw BackendUnavailable(to_string(b) + ": " + *why);
#if KIT_HAVE_CUDA
    if (b == Backend::cuda) return measure_cuda_copy_ceiling(bytes, repeats);
#endif
#if KIT_HAVE_OPENCL
    if (b == Backend::opencl) return measure_opencl_copy_ceiling(bytes, repeats);
#endif
    (void)bytes;
    (void)repeats;
    throw Error("measure_device_copy_ceiling: " + to_string(b) + " is not a device backend");
}

}  // namespace kit
