// OpenCL copy ceiling (see copy_ceiling.hpp).
#include "copy_ceiling.hpp"
#include "opencl_runtime.hpp"

namespace kit {

CopyCeiling measure_opencl_copy_ceiling(std::size_t bytes, int repeats) {
    ocl::Runtime& rt = ocl::runtime();
    const std::size_t n = bytes ? bytes : std::size_t{rt.device().is_gpu ? 256u : 64u} << 20;
    const ocl::Buffer src(n, nullptr), dst(n, nullptr);
    const cl_uchar one = 1, two = 2;
    CL_CHECK(clEnqueueFillBuffer(rt.queue(), src.mem(), &one, 1, 0, n, 0, nullptr, nullptr));
    CL_CHECK(clEnqueueFillBuffer(rt.queue(), dst.mem(), &two, 1, 0, n, 0, nullptr, nullptr));
    CL_CHECK(clFinish(rt.queue()));
    std::vector<double> times;
    for (int k = -2; k < repeats; ++k) {  // the first two are warm-up
        cl_event e = nullptr;
        CL_CHECK(clEnqueueCopyBuffer(rt.queue(), src.mem(), dst.mem(), 0, 0, n, 0, nullptr, &e));
        CL_CHECK(clWaitForEvents(1, &e));
        const double ms = ocl::event_ms(e);
        if (k >= 0) times.push_back(ms);
    }
    CopyCeiling c;
    c.ms = median(times);
    c.bytes = 2.0 * n;
    c.gbs = c.bytes / (c.ms * 1e6);
    c.how = "clEnqueueCopyBuffer " + std::to_string(n >> 20) + " MiB";
    c.device = rt.device().name;
    c.is_gpu = rt.device().is_gpu;
    return c;
}

}  // namespace kit
