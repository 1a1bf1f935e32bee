// CUDA ceiling and L2 eviction (see bandwidth_ceiling.hpp and cuda_run.hpp).
#include <algorithm>
#include <cstdint>

#include "measure/bandwidth_ceiling.hpp"
#include "gpu/cuda_run.hpp"

namespace kit {
namespace kernel {

/// Read stream: each thread reads 16-byte words n apart in a grid-stride loop and folds them
/// with xor. The result is stored only if it equals a value the buffers never produce, so the
/// loads cannot be optimised away and the kernel writes (almost) nothing: the lines it brings
/// into L2 are clean, and evicting them later costs no write-back.
__global__ void read_stream(const uint4* __restrict__ in, std::size_t n, unsigned* sink) {
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const uint4 v = in[i];
        acc.x ^= v.x;
        acc.y ^= v.y;
        acc.z ^= v.z;
        acc.w ^= v.w;
    }
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u) *sink = acc.x;
}

/// Copy stream: each thread copies 16-byte words n apart in a grid-stride loop.
__global__ void copy_stream(const uint4* __restrict__ in, uint4* __restrict__ out, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = in[i];
}

}  // namespace kernel

namespace {

/// Enough blocks of 256 threads to fill every SM several times over.
unsigned stream_grid() {
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return static_cast<unsigned>(std::max(sms, 1) * 8);
}

}  // namespace

void evict_l2() {
    static DeviceBuffer<uint4> scratch;
    static DeviceBuffer<unsigned> sink(1);
    if (scratch.size() == 0) {
        int dev = 0, l2 = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
        // Four times L2: L2 is split into partitions that may each hold a copy of a line.
        scratch.allocate(4 * static_cast<std::size_t>(l2 > 0 ? l2 : 64 << 20) / sizeof(uint4));
        CUDA_CHECK(cudaMemset(scratch.data(), 0, scratch.size() * sizeof(uint4)));
        // The memset leaves dirty lines; one read pass writes them back and leaves L2 clean.
        kernel::read_stream<<<stream_grid(), 256>>>(scratch.data(), scratch.size(), sink.data());
        KIT_CHECK_LAUNCH();
    }
    kernel::read_stream<<<stream_grid(), 256>>>(scratch.data(), scratch.size(), sink.data());
    KIT_CHECK_LAUNCH();
}

BandwidthCeiling measure_cuda_ceiling(std::size_t bytes, int repeats) {
    std::size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // large enough to dwarf L2 (50-60 MB on H100/H200) many times over
    const std::size_t n =
        bytes ? bytes : std::min<std::size_t>(std::size_t{1} << 30, free_bytes / 4) & ~std::size_t{0xfffff};
    const std::size_t words = n / sizeof(uint4);
    DeviceBuffer<uint4> src(words), dst(words);
    DeviceBuffer<unsigned> sink(1);
    CUDA_CHECK(cudaMemset(src.data(), 1, n));
    CUDA_CHECK(cudaMemset(dst.data(), 2, n));
    const unsigned grid = stream_grid();
    const double read_ms = median(
        time_cuda_calls(repeats, 2, [&] { kernel::read_stream<<<grid, 256>>>(src.data(), words, sink.data()); }));
    const double copy_ms =
        median(time_cuda_calls(repeats, 2, [&] { kernel::copy_stream<<<grid, 256>>>(src.data(), dst.data(), words); }));
    const double memcpy_ms = median(time_cuda_calls(
        repeats, 2, [&] { CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), n, cudaMemcpyDeviceToDevice)); }));
    KIT_CHECK_LAUNCH();
    BandwidthCeiling c;
    c.read_gbs = n / (read_ms * 1e6);
    c.copy_kernel_gbs = 2.0 * n / (copy_ms * 1e6);
    c.copy_api_gbs = 2.0 * n / (memcpy_ms * 1e6);
    choose_ceiling(c, n >> 20);
    c.device = cuda_device_name();
    c.is_gpu = true;
    return c;
}

}  // namespace kit
