/// @file device_buffer.hpp
/// @brief DeviceBuffer<T>: an owning, move-only array in GPU memory.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "gpu/cuda_check.hpp"

namespace kit {

/// @brief GPU array freed on destruction. Kernels get its raw pointer.
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    /// @brief Allocates n elements (uninitialised). @param n [in] element count
    explicit DeviceBuffer(std::size_t n) { allocate(n); }
    /// @brief Allocates and copies a host vector. @param host [in] data to upload
    explicit DeviceBuffer(const std::vector<T>& host) { upload(host); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    /// @brief Takes over another buffer's memory. @param o [in,out] the source
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), n_(o.n_) {
        o.ptr_ = nullptr;
        o.n_ = 0;
    }
    /// @brief Takes over another buffer's memory. @param o [in,out] the source
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        std::swap(ptr_, o.ptr_);
        std::swap(n_, o.n_);
        return *this;
    }
    ~DeviceBuffer() {
        if (ptr_) cudaFree(ptr_);
    }

    /// @brief Frees and allocates n elements. @param n [in] element count
    void allocate(std::size_t n) {
        if (ptr_) CUDA_CHECK(cudaFree(ptr_));
        ptr_ = nullptr;
        n_ = n;
        // cudaMalloc(0) may return null; keep one element so views are never null
        CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), (n ? n : 1) * sizeof(T)));
    }
    /// @brief Resizes to host.size() and copies host to the GPU. @param host [in] data
    void upload(const std::vector<T>& host) {
        if (host.size() != n_ || !ptr_) allocate(host.size());
        if (n_) CUDA_CHECK(cudaMemcpy(ptr_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice));
    }
    /// @brief Copies the GPU array back.
    std::vector<T> download() const {
        std::vector<T> host(n_);
        if (n_) CUDA_CHECK(cudaMemcpy(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
    /// @brief Raw device pointer.
    T* data() { return ptr_; }
    /// @brief Raw device pointer.
    const T* data() const { return ptr_; }
    /// @brief Element count.
    std::size_t size() const { return n_; }

private:
    T* ptr_ = nullptr;
    std::size_t n_ = 0;
};

}  // namespace kit
