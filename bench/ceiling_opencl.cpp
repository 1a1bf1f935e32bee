// OpenCL copy ceiling (see ceiling.hpp).
#include "ceiling.hpp"
#include "opencl_runtime.hpp"

namespace bench {

Ceiling measure_opencl_ceiling(int repeats) {
    kit::ocl::Runtime& rt = kit::ocl::runtime();
    const std::size_t n = (rt.device().is_gpu ? 256u : 64u) << 20;
    const kit::ocl::Buffer src(n, nullptr), dst(n, nullptr);
    const cl_uchar one = 1, two = 2;
    CL_CHECK(clEnqueueFillBuffer(rt.queue(), src.mem(), &one, 1, 0, n, 0, nullptr, nullptr));
    CL_CHECK(clEnqueueFillBuffer(rt.queue(), dst.mem(), &two, 1, 0, n, 0, nullptr, nullptr));
    CL_CHECK(clFinish(rt.queue()));
    std::vector<double> times;
    for (int k = -2; k < repeats; ++k) {  // the first two are warm-up
        cl_event e = nullptr;
        CL_CHECK(clEnqueueCopyBuffer(rt.queue(), src.mem(), dst.mem(), 0, 0, n, 0, nullptr, &e));
        CL_CHECK(clWaitForEvents(1, &e));
        const double ms = kit::ocl::event_ms(e);
        if (k >= 0) times.push_back(ms);
    }
    Ceiling c;
    c.ms = kit::median(times);
    c.bytes = 2.0 * n;
    c.gbs = c.bytes / (c.ms * 1e6);
    c.how = "clEnqueueCopyBuffer " + std::to_string(n >> 20) + " MiB";
    c.device = rt.device().name;
    c.is_gpu = rt.device().is_gpu;
    return c;
}

}  // namespace bench
