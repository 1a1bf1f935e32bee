// Lab 07: the OpenCL device's copy-bandwidth ceiling, and the cache flush used before timed
// launches. Both use clEnqueueCopyBuffer on the kit's one queue.
#include <algorithm>
#include <memory>

#include "dia_path.hpp"
#include "opencl_runtime.hpp"
#include "timing.hpp"

namespace kit::dia_path {
namespace {

/// Copies src to dst once and returns the command's profiling time in ms.
double timed_copy(const ocl::Buffer& src, const ocl::Buffer& dst, std::size_t bytes) {
    cl_event e = nullptr;
    CL_CHECK(clEnqueueCopyBuffer(ocl::runtime().queue(), src.mem(), dst.mem(), 0, 0, bytes, 0, nullptr, &e));
    CL_CHECK(clWaitForEvents(1, &e));
    return ocl::event_ms(e);
}

}  // namespace

double opencl_copy_bandwidth_gbs(std::size_t bytes, int repeats) {
    if (bytes == 0 || repeats < 1) throw Error("opencl_copy_bandwidth_gbs needs bytes > 0 and repeats >= 1");
    const ocl::Buffer src(bytes, nullptr), dst(bytes, nullptr);
    timed_copy(src, dst, bytes);  // warm-up: first touch of the pages, driver set-up
    std::vector<double> ms;
    for (int k = 0; k < repeats; ++k) ms.push_back(timed_copy(src, dst, bytes));
    const double t = median(ms);
    return t > 0 ? 2.0 * static_cast<double>(bytes) / (t * 1e6) : 0.0;
}

void enqueue_cache_flush_opencl() {
    ocl::Runtime& rt = ocl::runtime();  // created before the statics below, so it outlives them
    static std::size_t bytes = 0;
    static std::unique_ptr<ocl::Buffer> src, dst;
    if (!src) {
        cl_ulong cache = 0;
        CL_CHECK(clGetDeviceInfo(rt.device().device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, nullptr));
        // twice the reported cache, and never below 128 MB: some drivers report a first-level size
        bytes = std::max<std::size_t>(2 * static_cast<std::size_t>(cache), std::size_t{128} << 20);
        src = std::make_unique<ocl::Buffer>(bytes, nullptr);
        dst = std::make_unique<ocl::Buffer>(bytes, nullptr);
    }
    CL_CHECK(clEnqueueCopyBuffer(rt.queue(), src->mem(), dst->mem(), 0, 0, bytes, 0, nullptr, nullptr));
}

}  // namespace kit::dia_path
