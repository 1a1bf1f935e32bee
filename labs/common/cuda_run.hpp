/// @file cuda_run.hpp
/// @brief Running and timing a CUDA SpMV honestly: CUDA events, warm-up, median of repeats.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "variants.hpp"

namespace kit {

/// @brief Name of the current CUDA device.
std::string cuda_device_name();

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

/// @brief Evicts the GPU's L2 cache by writing a buffer twice its size.
///
/// Without this, a matrix smaller than L2 (50-60 MB on H100/H200) is timed from cache
/// after the first repeat, and the "DRAM" bandwidth comes out above the copy ceiling.
void flush_l2();

/// @brief Times `launch` `repeats` times after `warmup` untimed calls.
/// @param repeats [in] timed calls  @param warmup [in] untimed calls first
/// @param launch  [in] callable that enqueues the GPU work
/// @param flush   [in] flush L2 before each timed call (outside the timed region)
/// @return one time in ms per repeat
template <class Launch>
std::vector<double> time_cuda(int repeats, int warmup, Launch&& launch, bool flush = false) {
    for (int w = 0; w < warmup; ++w) launch();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> times;
    EventTimer timer;
    for (int k = 0; k < repeats; ++k) {
        if (flush) flush_l2();
        timer.start();
        launch();
        times.push_back(timer.stop_ms());
    }
    return times;
}

/// @brief Uploads x and y, runs the kernel once for the result, then times repeats on scratch y.
///
/// The matrix must already be on the GPU (captured by `launch`).
/// @param x      [in] input vector
/// @param y      [in] initial y
/// @param opt    [in] repeats and warm-up
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
    if (opt.repeats > 0)
        out.times_ms = time_cuda(opt.repeats, opt.warmup, [&] { launch(static_cast<const T*>(dx.data()), dy.data()); },
                                 opt.flush_l2);
    KIT_CHECK_LAUNCH();
    return out;
}

/// @brief Builds the RunFunction of a CUDA variant from its host and device formats and kernel.
///
/// The returned function converts the hub matrix to HostFormat<T> once, uploads it as
/// DeviceFormat<T>, runs `call(device.view(), x, y)` through run_on_cuda, and fills in the
/// bytes model and the note from the host container it built.
/// @param call     [in] generic callable call(device view, const T* x, T* y) launching the kernel
/// @param bytes    [in] generic callable bytes(const HostFormat<T>&, count_t value_bytes) -> count_t
/// @param describe [in] generic callable describe(const HostFormat<T>&) -> std::string, the run's note
template <template <class> class HostFormat, template <class> class DeviceFormat, class Call, class Bytes,
          class Describe = NoNote>
RunFunction cuda_variant(Call call, Bytes bytes, Describe describe = {}) {
    return [call, bytes, describe](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                   const RunOptions& opt) {
        return dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const HostFormat<T> host = HostFormat<T>::from_coo(A);
            const DeviceFormat<T> dev(host);
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
