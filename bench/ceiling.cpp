// CPU copy ceiling (see ceiling.hpp).
#include "ceiling.hpp"

#include <cstring>
#include <vector>

#include "timing.hpp"

namespace bench {

Ceiling measure_cpu_ceiling(int mib, int repeats) {
    const std::size_t n = static_cast<std::size_t>(mib) << 20;
    // distinct non-zero contents, so no page is shared or left untouched
    std::vector<unsigned char> src(n, 1), dst(n, 2);
    std::memcpy(dst.data(), src.data(), n);  // warm-up: page in both buffers
    std::vector<double> times;
    kit::HostTimer t;
    for (int k = 0; k < repeats; ++k) {
        t.start();
        std::memcpy(dst.data(), src.data(), n);
        times.push_back(t.elapsed_ms());
        src[k % n] ^= dst[(k * 4099) % n];  // keep the copies observable
    }
    Ceiling c;
    c.ms = kit::median(times);
    c.bytes = 2.0 * n;
    c.gbs = c.bytes / (c.ms * 1e6);
    c.how = "memcpy host " + std::to_string(mib) + " MiB, 1 thread";
    c.device = "host CPU (1 thread)";
    return c;
}

}  // namespace bench
