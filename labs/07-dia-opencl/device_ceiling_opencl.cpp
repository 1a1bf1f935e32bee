// Lab 07: the OpenCL device's copy-bandwidth ceiling, measured with clEnqueueCopyBuffer on the
// kit's one queue.
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

}  // namespace kit::dia_path
