// OpenCL ceiling (see bandwidth_ceiling.hpp): bandwidth.cl's read and copy streams, and
// clEnqueueCopyBuffer, each timed with profiling events.
#include "measure/bandwidth_ceiling.hpp"
#include "gpu/opencl_runtime.hpp"

extern const char kit_cl_bandwidth[];  // bandwidth.cl, embedded by the build

namespace kit {
namespace {

/// Median of `repeats` executions after two untimed ones; `enqueue` returns the command's event.
template <class Enqueue>
double median_event_ms(int repeats, Enqueue&& enqueue) {
    std::vector<double> times;
    for (int k = -2; k < repeats; ++k) {
        cl_event e = enqueue();
        CL_CHECK(clWaitForEvents(1, &e));
        const double ms = ocl::event_ms(e);
        if (k >= 0) times.push_back(ms);
    }
    return median(times);
}

}  // namespace

BandwidthCeiling measure_opencl_ceiling(std::size_t bytes, int repeats) {
    ocl::Runtime& rt = ocl::runtime();
    const std::size_t n = (bytes ? bytes : std::size_t{rt.device().is_gpu ? 512u : 64u} << 20) & ~std::size_t{15};
    const ocl::Buffer src(n, nullptr), dst(n, nullptr), sink(sizeof(cl_uint), nullptr);
    const cl_uchar one = 1, two = 2;
    CL_CHECK(clEnqueueFillBuffer(rt.queue(), src.mem(), &one, 1, 0, n, 0, nullptr, nullptr));
    CL_CHECK(clEnqueueFillBuffer(rt.queue(), dst.mem(), &two, 1, 0, n, 0, nullptr, nullptr));
    CL_CHECK(clFinish(rt.queue()));
    const cl_ulong words = n / 16;
    // Enough work-groups to fill a large GPU several times over; a CPU device takes fewer.
    const std::size_t local = rt.device().is_gpu ? 256 : 16, global = local * (rt.device().is_gpu ? 2048 : 64);
    cl_kernel read = rt.kernel("bandwidth.cl", kit_cl_bandwidth, "", "read_stream");
    cl_kernel copy = rt.kernel("bandwidth.cl", kit_cl_bandwidth, "", "copy_stream");
    auto run = [&](cl_kernel k) {
        cl_event e = nullptr;
        CL_CHECK(clEnqueueNDRangeKernel(rt.queue(), k, 1, nullptr, &global, &local, 0, nullptr, &e));
        return e;
    };
    ocl::set_args(read, src, words, sink);
    const double read_ms = median_event_ms(repeats, [&] { return run(read); });
    ocl::set_args(copy, src, dst, words);
    const double copy_ms = median_event_ms(repeats, [&] { return run(copy); });
    const double api_ms = median_event_ms(repeats, [&] {
        cl_event e = nullptr;
        CL_CHECK(clEnqueueCopyBuffer(rt.queue(), src.mem(), dst.mem(), 0, 0, n, 0, nullptr, &e));
        return e;
    });
    BandwidthCeiling c;
    c.read_gbs = n / (read_ms * 1e6);
    c.copy_kernel_gbs = 2.0 * n / (copy_ms * 1e6);
    c.copy_api_gbs = 2.0 * n / (api_ms * 1e6);
    choose_ceiling(c, n >> 20);
    c.device = rt.device().name;
    c.is_gpu = rt.device().is_gpu;
    return c;
}

}  // namespace kit
