// Host ceiling, and the choice between the three measurements (see bandwidth_ceiling.hpp).
#include "measure/bandwidth_ceiling.hpp"

#include <cstring>
#include <vector>

#include "core/kit_error.hpp"
#include "core/timing.hpp"
#include "registry/variants.hpp"

namespace kit {

void choose_ceiling(BandwidthCeiling& c, std::size_t mib) {
    const std::string size = " " + std::to_string(mib) + " MiB";
    c.gbs = c.read_gbs;
    c.how = "read kernel" + size;
    if (c.copy_kernel_gbs > c.gbs) {
        c.gbs = c.copy_kernel_gbs;
        c.how = "copy kernel" + size;
    }
    if (c.copy_api_gbs > c.gbs) {
        c.gbs = c.copy_api_gbs;
        c.how = "copy API" + size;
    }
}

BandwidthCeiling measure_cpu_ceiling(int mib, int repeats) {
    const std::size_t n = static_cast<std::size_t>(mib) << 20;
    const std::size_t words = n / sizeof(double);
    // distinct non-zero contents, so no page is shared or left untouched
    std::vector<double> src(words, 1.0), dst(words, 2.0);
    std::memcpy(dst.data(), src.data(), n);  // warm-up: page in both buffers
    double sink = 0;
    auto time_median = [&](auto&& pass) {
        std::vector<double> times;
        HostTimer t;
        for (int k = 0; k < repeats; ++k) {
            t.start();
            pass();
            times.push_back(t.elapsed_ms());
        }
        return median(times);
    };
    const double read_ms = time_median([&] {
        double s = 0;
        for (std::size_t i = 0; i < words; ++i) s += src[i];
        sink += s;
    });
    const double loop_ms = time_median([&] {
        for (std::size_t i = 0; i < words; ++i) dst[i] = src[i];
        sink += dst[words / 2];
    });
    const double memcpy_ms = time_median([&] {
        std::memcpy(dst.data(), src.data(), n);
        sink += dst[words / 3];
    });
    BandwidthCeiling c;
    c.read_gbs = n / (read_ms * 1e6);
    c.copy_kernel_gbs = 2.0 * n / (loop_ms * 1e6);
    c.copy_api_gbs = 2.0 * n / (memcpy_ms * 1e6);
    choose_ceiling(c, static_cast<std::size_t>(mib));
    c.how += ", 1 thread" + std::string(sink == 0.5 ? " " : "");  // sink keeps the loops observable
    c.device = "host CPU (1 thread)";
    return c;
}

BandwidthCeiling measure_device_ceiling(Backend b, std::size_t bytes, int repeats) {
    if (auto why = backend_unavailable(b)) throw BackendUnavailable(to_string(b) + ": " + *why);
#if KIT_HAVE_CUDA
    if (b == Backend::cuda) return measure_cuda_ceiling(bytes, repeats);
#endif
#if KIT_HAVE_OPENCL
    if (b == Backend::opencl) return measure_opencl_ceiling(bytes, repeats);
#endif
    (void)bytes;
    (void)repeats;
    throw Error("measure_device_ceiling: " + to_string(b) + " is not a device backend");
}

}  // namespace kit
