/// @file cuda_run.hpp
/// @brief Running and timing a CUDA SpMV honestly: CUDA events, warm-up, median of repeats.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "gpu/device_buffer.hpp"
#include "registry/variants.hpp"

namespace kit {

/// @brief Name of the current CUDA device.
std::string cuda_device_name();

/// @brief How many threads the current CUDA device holds at once.
struct CudaShape {
    int sms = 0;             ///< streaming multiprocessors (multiProcessorCount)
    int threads_per_sm = 0;  ///< resident threads per SM (maxThreadsPerMultiProcessor)
    int warp = 0;            ///< threads per warp (warpSize)
    /// @brief Threads the device holds at once: SMs x resident threads per SM.
    count_t resident_threads() const { return static_cast<count_t>(sms) * threads_per_sm; }
};

/// @brief SMs, resident threads per SM and warp width of the current CUDA device, read through
/// attribute queries, cheap enough for every upload.
CudaShape cuda_device_shape();

/// @brief Times one GPU operation with a pair of CUDA events.
///
/// Events are recorded in the stream, so the time covers only GPU work between them,
/// not the host's launch overhead before the first or the synchronisation after.
class EventTimer {
public:
    EventTimer() {
        CUDA_CHECK(cudaEventCreate(&start_));
        CUDA_CHECK(cudaEventCreate(&stop_));
    }
    ~EventTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;
    /// @brief Records the start event in the default stream.
    void start() { CUDA_CHECK(cudaEventRecord(start_)); }
    /// @brief Records the stop event, waits for it, and returns the milliseconds between.
    double stop_ms() {
        CUDA_CHECK(cudaEventRecord(stop_));
        CUDA_CHECK(cudaEventSynchronize(stop_));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }

private:
    cudaEvent_t start_{}, stop_{};
};

/// @brief Evicts the GPU's L2 cache by reading a buffer four times its size.
///
/// A read, not a write: a memset would leave L2 full of dirty lines, and their write-back
/// would land inside the next timed kernel (the cold figures of every backend would then
/// depend on how each one evicted). After this read pass L2 holds clean lines only, and the
/// dirty lines of the previous call (its y) were written back during the pass.
void evict_l2();

/// @brief Times `launch` `repeats` times after `warmup` untimed calls, one event pair each.
/// @param repeats [in] timed calls  @param warmup [in] untimed calls first
/// @param launch  [in] callable that enqueues the GPU work
/// @param evict   [in] evict L2 before each timed call (outside the timed region)
/// @return one time in ms per repeat
template <class Launch>
std::vector<double> time_cuda_calls(int repeats, int warmup, Launch&& launch, bool evict = false) {
    for (int w = 0; w < warmup; ++w) launch();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> times;
    EventTimer timer;
    for (int k = 0; k < repeats; ++k) {
        if (evict) evict_l2();
        timer.start();
        launch();
        times.push_back(timer.stop_ms());
    }
    return times;
}

/// @brief The kit's timing protocol on CUDA (see timing.hpp): opt.warmup untimed calls, then
/// opt.repeats cold calls (L2 evicted before each, one event pair each), then
/// opt.steady_calls calls back to back between one event pair.
/// @param opt [in] repeats, warm-up, steady calls  @param launch [in] callable enqueueing one SpMV
/// @param out [in,out] receives times_ms (cold) and steady_ms
template <class Launch>
void time_cuda(const RunOptions& opt, Launch&& launch, RunResult& out) {
    if (opt.repeats <= 0 && opt.steady_calls <= 0) return;
    out.times_ms = time_cuda_calls(opt.repeats, opt.warmup, launch, true);
    if (opt.steady_calls > 0) {
        CUDA_CHECK(cudaDeviceSynchronize());
        EventTimer timer;
        timer.start();
        for (int k = 0; k < opt.steady_calls; ++k) launch();
        out.steady_ms = timer.stop_ms() / opt.steady_calls;
    }
}

/// @brief Uploads x and y, runs the kernel once for the result, then times it on scratch y
/// with the kit's protocol (time_cuda).
///
/// The matrix must already be on the GPU (captured by `launch`).
/// @param x      [in] input vector
/// @param y      [in] initial y
/// @param opt    [in] repeats, warm-up, steady calls
/// @param launch [in] callable launch(const T* x_dev, T* y_dev) that enqueues y += A x
template <class T, class Launch>
RunResult run_on_cuda(const std::vector<double>& x, const std::vector<double>& y, const RunOptions& opt,
                      Launch&& launch) {
    DeviceBuffer<T> dx(to_precision<T>(x));
    DeviceBuffer<T> dy(to_precision<T>(y));
    launch(static_cast<const T*>(dx.data()), dy.data());
    KIT_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    RunResult out;
    out.y = to_double(dy.download());
    out.device = cuda_device_name();
    time_cuda(
        opt, [&] { launch(static_cast<const T*>(dx.data()), dy.data()); }, out);
    KIT_CHECK_LAUNCH();
    return out;
}

/// @brief A kernel and the device copy of its matrix, bound for BoundKernel::apply.
template <class T, class DeviceMatrix, class Call>
struct BoundCall : BoundKernel {
    DeviceMatrix device;  ///< the matrix on the GPU
    Call call;            ///< call(device.view(), x, y) enqueues y += A x
    /// @brief Uploads `host` as the device matrix and keeps the kernel's call.
    /// @param host [in] the matrix in its host format  @param c [in] the kernel's call
    template <class Host>
    BoundCall(const Host& host, Call c) : device(host), call(c) {}
    /// @brief Enqueues y += A x on the default stream.
    /// @param x [in] device x  @param y [in,out] device y
    void apply(const void* x, void* y) override {
        call(device.view(), static_cast<const T*>(x), static_cast<T*>(y));
        KIT_CHECK_LAUNCH();
    }
};

/// @brief Builds the RunFunction of a CUDA variant from its host and device formats and kernel.
///
/// With RunOptions::bind set (bind_kernel), it converts and uploads, then hands the kernel with
/// its device matrix to `bind` instead of running.
/// The returned function converts the hub matrix to HostFormat<T> once (`convert`), uploads it
/// as DeviceFormat<T> (gpu/device_formats.hpp), runs `call(device.view(), x, y)` through
/// run_on_cuda, and fills in the bytes model and the note from the host container it built.
/// The device copy is not const: a format with scratch (CSR5's carries) gives its view from a
/// mutable copy.
/// @param call     [in] generic callable call(device view, const T* x, T* y) launching the kernel
/// @param bytes    [in] generic callable bytes(const HostFormat<T>&, count_t value_bytes) -> count_t
/// @param describe [in] generic callable describe(const HostFormat<T>&) -> std::string, the run's note
/// @param convert  [in] generic callable convert(const CooMatrix&, const RunOptions&, T{}) -> HostFormat<T>
template <template <class> class HostFormat, template <class> class DeviceFormat, class Call, class Bytes,
          class Describe = NoNote, class Convert = FromCoo<HostFormat>>
RunFunction cuda_variant(Call call, Bytes bytes, Describe describe = {}, Convert convert = {}) {
    return [call, bytes, describe, convert](const CooMatrix& A, const std::vector<double>& x,
                                            const std::vector<double>& y, const RunOptions& opt) {
        return dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const HostFormat<T> host = convert(A, opt, tag);
            if (opt.bind) {  // bind_kernel: the matrix goes to the GPU for the caller's own launches
                auto bound = std::make_unique<BoundCall<T, DeviceFormat<T>, Call>>(host, call);
                bound->precision = opt.precision;
                bound->bytes = bytes(host, static_cast<count_t>(sizeof(T)));
                bound->note = describe(host);
                opt.bind(std::move(bound));
                return RunResult{};
            }
            DeviceFormat<T> dev(host);
            RunResult out = run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) { call(dev.view(), xp, yp); });
            out.bytes = bytes(host, static_cast<count_t>(sizeof(T)));
            out.note = describe(host);
            return out;
        });
    };
}

/// @brief Blocks needed to cover `work` items with `block` threads each.
/// @param work [in] items  @param block [in] threads per block
inline unsigned grid_for(long long work, int block) {
    const long long g = (work + block - 1) / block;
    return static_cast<unsigned>(g > 0 ? g : 1);
}

}  // namespace kit
