/// @file opencl_runtime.hpp
/// @brief The kit's OpenCL runtime: device choice, one context and queue, programs built once
/// and cached, buffers, and timing with profiling events.
///
/// Device choice: RunOptions::opencl (`spmv-kit --cl-platform/--cl-device`), else
/// KIT_CL_PLATFORM / KIT_CL_DEVICE (indices, or a substring of the name), else the first GPU
/// of any platform, else the first device of any platform (PoCL on a laptop or in CI).
#pragma once

#include <map>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "gpu/cl_check.hpp"
#include "registry/variants.hpp"

namespace kit::ocl {

/// @brief The chosen OpenCL device and what it supports.
struct DeviceInfo {
    cl_platform_id platform = nullptr;  ///< its platform
    cl_device_id device = nullptr;      ///< the device
    std::string name;                   ///< "platform / device"
    bool is_gpu = false;                ///< CL_DEVICE_TYPE_GPU
    bool fp64 = false;                  ///< cl_khr_fp64 available
    bool images = false;                ///< CL_DEVICE_IMAGE_SUPPORT
};

/// @brief Finds the device to use, following the rules above; throws BackendUnavailable.
DeviceInfo choose_device();

/// @brief One context and in-order profiling queue, with a cache of built programs.
class Runtime {
public:
    /// @brief Creates the context and queue on a device. @param dev [in] the device
    explicit Runtime(const DeviceInfo& dev);
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    /// @brief A kernel from a program built once per (source, options) and cached.
    ///
    /// A compile error throws kit::Error with the build log.
    /// @param source_name [in] name for messages (the .cl file)
    /// @param source      [in] OpenCL C source
    /// @param options     [in] build options, e.g. "-DREAL=float"
    /// @param kernel_name [in] __kernel function to fetch
    cl_kernel kernel(const std::string& source_name, const char* source, const std::string& options,
                     const std::string& kernel_name);

    /// @brief The context. @return the context
    cl_context context() const { return context_; }
    /// @brief The profiling queue. @return the queue
    cl_command_queue queue() const { return queue_; }
    /// @brief The device. @return its description
    const DeviceInfo& device() const { return dev_; }

private:
    DeviceInfo dev_;
    cl_context context_ = nullptr;
    cl_command_queue queue_ = nullptr;
    std::map<std::string, cl_program> programs_;
    std::map<std::string, cl_kernel> kernels_;
};

/// @brief The process-wide runtime, created on first use; throws BackendUnavailable.
Runtime& runtime();

/// @brief Build options that define REAL (and enable fp64 for double).
/// @param p [in] precision
std::string precision_options(Precision p);

/// @brief Owning cl_mem.
class Buffer {
public:
    Buffer() = default;
    /// @brief Allocates and fills a buffer from host data.
    /// @param bytes [in] size  @param host [in] data to copy (nullptr: uninitialised)
    Buffer(std::size_t bytes, const void* host);
    /// @brief Buffer holding a copy of a vector. @param v [in] data
    template <class T>
    explicit Buffer(const std::vector<T>& v) : Buffer(v.size() * sizeof(T), v.data()) {}
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    /// @brief Takes over another buffer. @param o [in,out] source
    Buffer(Buffer&& o) noexcept : mem_(o.mem_) { o.mem_ = nullptr; }
    /// @brief The cl_mem, for clSetKernelArg.
    const cl_mem& mem() const { return mem_; }
    /// @brief Reads the buffer back into a vector of n elements. @param n [in] elements
    template <class T>
    std::vector<T> read(std::size_t n) const {
        std::vector<T> host(n);
        if (n)
            CL_CHECK(clEnqueueReadBuffer(runtime().queue(), mem_, CL_TRUE, 0, n * sizeof(T), host.data(), 0, nullptr,
                                         nullptr));
        return host;
    }

private:
    cl_mem mem_ = nullptr;
};

/// @brief Sets kernel arguments in order; each is a Buffer, or a plain scalar.
/// @param k [in] kernel  @param args [in] arguments
template <class... Args>
void set_args(cl_kernel k, const Args&... args) {
    cl_uint index = 0;
    auto set_one = [&](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, Buffer>)
            CL_CHECK(clSetKernelArg(k, index++, sizeof(cl_mem), &a.mem()));
        else
            CL_CHECK(clSetKernelArg(k, index++, sizeof(A), &a));
    };
    (set_one(args), ...);
}

/// @brief Enqueues a 1-D NDRange, rounding global up to a multiple of local. Returns its event.
/// @param k [in] kernel  @param global [in] work-items wanted  @param local [in] work-group size
cl_event launch_1d(cl_kernel k, std::size_t global, std::size_t local);

/// @brief Milliseconds an event spent executing (profiling start to end); releases the event.
/// @param e [in] event of a finished command
double event_ms(cl_event e);

/// @brief Nanosecond timestamps of an event's execution (profiling start and end); the
/// event is not released. @param e [in] event of a finished command
std::pair<cl_ulong, cl_ulong> event_span_ns(cl_event e);

/// @brief Enqueues a read pass big enough to evict the device's caches (four times the
/// reported global memory cache, at least 256 MB: some drivers report only a first-level
/// size), with bandwidth.cl's read_stream kernel.
///
/// A read, as on CUDA (evict_l2): it leaves no dirty lines whose write-back would fall in
/// the next timed kernel. Without it, a matrix that fits in L2 is timed from cache.
void enqueue_cache_evict();

/// @brief OpenCL counterpart of run_on_cuda, with the same protocol (timing.hpp): upload x,
/// y; run once for the result; opt.warmup untimed runs; opt.repeats cold runs (caches evicted
/// before each, the kernel's profiling event timed); then opt.steady_calls runs back to back,
/// timed from the first one's start to the last one's end.
/// @param x [in] input  @param y [in] initial y  @param opt [in] repeats, warm-up, steady calls
/// @param launch [in] callable launch(const Buffer& x, Buffer& y) returning the kernel's cl_event
template <class T, class Launch>
RunResult run_on_opencl(const std::vector<double>& x, const std::vector<double>& y, const RunOptions& opt,
                        Launch&& launch) {
    Buffer dx(to_precision<T>(x));
    Buffer dy(to_precision<T>(y));
    cl_event first = launch(dx, dy);
    CL_CHECK(clWaitForEvents(1, &first));
    clReleaseEvent(first);
    RunResult out;
    out.y = to_double(dy.template read<T>(y.size()));
    out.device = runtime().device().name;
    if (opt.repeats <= 0 && opt.steady_calls <= 0) return out;
    for (int w = 0; w < opt.warmup; ++w) {
        cl_event e = launch(dx, dy);
        CL_CHECK(clWaitForEvents(1, &e));
        clReleaseEvent(e);
    }
    for (int k = 0; k < opt.repeats; ++k) {
        enqueue_cache_evict();  // queued before the kernel, outside its event
        cl_event e = launch(dx, dy);
        CL_CHECK(clWaitForEvents(1, &e));
        out.times_ms.push_back(event_ms(e));
    }
    if (opt.steady_calls > 0) {
        CL_CHECK(clFinish(runtime().queue()));
        cl_event begin = launch(dx, dy), end = begin;
        for (int k = 1; k < opt.steady_calls; ++k) {
            if (end != begin) clReleaseEvent(end);
            end = launch(dx, dy);
        }
        CL_CHECK(clWaitForEvents(1, &end));
        out.steady_ms = (event_span_ns(end).second - event_span_ns(begin).first) * 1e-6 / opt.steady_calls;
        if (end != begin) clReleaseEvent(end);
        clReleaseEvent(begin);
    }
    return out;
}

/// @brief A kernel of an embedded .cl file, as Runtime::kernel builds it.
struct KernelSource {
    const char* file;    ///< the .cl file, for messages and the program cache
    const char* source;  ///< its text, embedded by the build
    const char* kernel;  ///< the __kernel's name
};

/// @brief Builds the RunFunction of an OpenCL variant from its host format, its copy on the
/// device and its launch: the OpenCL counterpart of cuda_variant.
///
/// The returned function converts the hub matrix to HostFormat<T> once (`convert`), uploads it
/// as ClFormat (gpu/opencl_formats.hpp), builds the kernel with `options(precision)` (once: the
/// runtime caches programs), runs `launch(kernel, device copy, x, y)` through run_on_opencl,
/// and fills in the bytes model and the note from the host container.
/// @param src      [in] the kernel's .cl file and name
/// @param options  [in] callable options(Precision) -> std::string, the build options
/// @param launch   [in] generic callable launch(cl_kernel, const ClFormat&, const Buffer& x, Buffer& y) -> cl_event
/// @param bytes    [in] generic callable bytes(const HostFormat<T>&, count_t value_bytes) -> count_t
/// @param describe [in] generic callable describe(const HostFormat<T>&) -> std::string, the run's note
/// @param convert  [in] generic callable convert(const CooMatrix&, const RunOptions&, T{}) -> HostFormat<T>
template <template <class> class HostFormat, class ClFormat, class Options, class Launch, class Bytes,
          class Describe = NoNote, class Convert = FromCoo<HostFormat>>
RunFunction opencl_variant(KernelSource src, Options options, Launch launch, Bytes bytes, Describe describe = {},
                           Convert convert = {}) {
    return [=](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y, const RunOptions& opt) {
        return dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const HostFormat<T> host = convert(A, opt, tag);
            const ClFormat dev(host);
            cl_kernel k = runtime().kernel(src.file, src.source, options(opt.precision), src.kernel);
            RunResult out =
                run_on_opencl<T>(x, y, opt, [&](const Buffer& dx, Buffer& dy) { return launch(k, dev, dx, dy); });
            out.bytes = bytes(host, static_cast<count_t>(sizeof(T)));
            out.note = describe(host);
            return out;
        });
    };
}

}  // namespace kit::ocl
