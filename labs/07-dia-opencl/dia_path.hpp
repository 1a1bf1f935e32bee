/// @file dia_path.hpp
/// @brief Lab 07 signatures: the DIA optimisation path of the AMD case study (Catanzaro,
/// 2010), one kernel per step, the bytes model that gives each step its bound, and the
/// CUDA counterparts of steps 4 and 5.
///
/// | step | kernel         | what changes                                   | DRAM bytes per 2 flops (float) |
/// | ---- | -------------- | ---------------------------------------------- | ------------------------------ |
/// | 0    | dia-loop (CPU) | the plain C loop, one host thread              | 12 (no device bound printed)   |
/// | 1    | dia-naive      | one work-item per row, A[diag * rows + row]    | 12: offset, A value, x value   |
/// | 2    | dia-aligned    | pitch a multiple of 32, pointer walk           | 12                             |
/// | 3    | dia-local      | offsets in __local memory, in chunks           | 8: A value, x value            |
/// | 4    | dia-vec4       | 4 rows per work-item, float4 loads             | 8                              |
/// | 5    | dia-image      | x read through an image (texture cache)        | 4: A value only                |
///
/// The OpenCL C kernels live in reference/07-dia-opencl/dia_ocl_*.cl; this header holds
/// what the host, the tests, the driver and the benchmarks share.
#pragma once

#include <string>
#include <vector>

#include "formats/dia.hpp"
#include "core/kit_error.hpp"
#include "core/types.hpp"
#include "registry/variants.hpp"

namespace kit {

namespace dia_path {

/// @brief One step of the path as the driver and the benchmarks run it.
struct StepInfo {
    int step;             ///< step number of the handout (0..5)
    const char* variant;  ///< registered variant name
    Backend backend;      ///< backend it is registered on
};

/// @brief The steps of the path in order, OpenCL first, then the CUDA counterparts.
const std::vector<StepInfo>& steps();

/// @brief DRAM bytes the case study's model charges per 2 flops (one multiply-add) in a step.
///
/// Steps 0-2 read the diagonal's offset, the matrix value and the x value; step 3 keeps
/// the offsets on chip; step 5 assumes x is served entirely by the texture cache, so only
/// the matrix value, which is used once, must come from DRAM.
/// @param step        [in] step number (0..5; the CUDA counterparts share their step's model)
/// @param value_bytes [in] sizeof(T): 4 for float, 8 for double
/// @return bytes per 2 flops; throws kit::Error for an unknown step
inline int bytes_per_2_flops(int step, int value_bytes) {
    constexpr int offset_bytes = 4;
    if (step >= 0 && step <= 2) return offset_bytes + 2 * value_bytes;
    if (step == 3 || step == 4) return 2 * value_bytes;
    if (step == 5) return value_bytes;
    throw Error("dia_path::bytes_per_2_flops: no step " + std::to_string(step) + " (steps are 0..5)");
}

/// @brief The step's performance bound: bandwidth * 2 flops / bytes per 2 flops.
///
/// With the case study's 153.6 GB/s this gives 25.6 (steps 1-2), 38.4 (3-4) and 76.8 (5) GFLOP/s.
/// @param step          [in] step number (0..5)
/// @param value_bytes   [in] sizeof(T)
/// @param bandwidth_gbs [in] memory bandwidth in GB/s (decimal), e.g. the measured copy ceiling
inline double gflops_bound(int step, int value_bytes, double bandwidth_gbs) {
    return bandwidth_gbs * 2.0 / bytes_per_2_flops(step, value_bytes);
}

/// @brief Gives a registered step the case study's bytes model, so the benchmark can show
/// the 2010 bound beside the measured figures (Variant::lab_bytes_per_2flops).
/// @param v [in,out] a variant of steps 1-5, as Registry::add returned it
inline void attach_case_study_model(Variant& v) {
    v.lab_bytes_per_2flops = [step = v.step](int value_bytes) {
        return static_cast<double>(bytes_per_2_flops(step, value_bytes));
    };
}

/// @brief Work-items per work-group (threads per block) of every GPU kernel of the lab.
constexpr int work_group = 128;
/// @brief Pitch multiple of the aligned layout (steps 2-5): 32 floats = 128 bytes.
constexpr index_t aligned_pitch = 32;

/// @brief What the device offers for images (step 5), as clGetDeviceInfo reports it.
struct ImageLimits {
    bool supported = false;  ///< CL_DEVICE_IMAGE_SUPPORT
    count_t max_width = 0;   ///< CL_DEVICE_IMAGE2D_MAX_WIDTH, in pixels
    count_t max_height = 0;  ///< CL_DEVICE_IMAGE2D_MAX_HEIGHT, in pixels
    std::string device;      ///< device name, for messages
};

/// @brief How x is laid out as a 2-D image of float4 pixels (step 5).
///
/// x[i] is component i % 4 of pixel p = i / 4, and pixel p sits at
/// (p & width_mask, p >> log2_width): a power-of-two width turns the division and the
/// modulus into a shift and a mask. Pixels past the end of x hold zeros.
struct XImageLayout {
    index_t width = 1;       ///< pixels per image row (a power of two)
    index_t height = 1;      ///< image rows
    int log2_width = 0;      ///< log2(width)
    index_t width_mask = 0;  ///< width - 1
};

/// @brief Step 5 (host): chooses the image that holds x.
///
/// ceil(cols / 4) pixels (at least 1) in the narrowest power-of-two width w with
/// w * w >= pixels (a roughly square image), but no wider than the largest power of two
/// within max_width; height = ceil(pixels / w).
/// Throws kit::BackendUnavailable, naming the device and the fallback (step 4), when the
/// device has no image support or x does not fit in max_width x max_height pixels.
/// @param cols [in] length of x  @param limits [in] the device's image limits
XImageLayout plan_x_image(index_t cols, const ImageLimits& limits);

}  // namespace dia_path

namespace cpu {
/// @brief Step 0: y <- y + A x, the plain DIA loop: for each row, for each diagonal, add
/// vals[d * pitch + row] * x[row + offsets[d]] when that column exists.
/// @param A [in] DIA matrix (host pointers)  @param x [in] A.cols values  @param y [in,out] A.rows values
template <class T>
void dia_loop_spmv(DiaView<T> A, const T* x, T* y);
}  // namespace cpu

namespace cuda {
/// @brief Step 4 counterpart: each thread computes 4 consecutive rows, reading the matrix
/// with one 16-byte (float4) load per diagonal; the offsets sit in shared memory in chunks.
/// Requires A.pitch % 4 == 0 (the aligned layout), so every 4-row group starts 16-byte aligned.
/// @param A [in] DIA matrix (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void dia_vec4_spmv(DiaView<T> A, const T* x, T* y);

/// @brief Step 5 counterpart (read-only path): as dia_vec4_spmv, with x read through the
/// read-only data cache (__ldg).
/// @param A [in] DIA matrix (device)  @param x [in] device x  @param y [in,out] device y
template <class T>
void dia_ldg_spmv(DiaView<T> A, const T* x, T* y);

/// @brief A texture object over a device array of floats (CUDA's texture objects; the
/// texture references of older CUDA were removed in CUDA 12).
class XTexture {
public:
    /// @brief Creates the texture object; throws BackendUnavailable if n exceeds the
    /// device's linear-texture limit.
    /// @param x [in] device array  @param n [in] elements
    XTexture(const float* x, index_t n);
    ~XTexture();
    XTexture(const XTexture&) = delete;
    XTexture& operator=(const XTexture&) = delete;
    /// @brief The cudaTextureObject_t, as an integer so that host code needs no CUDA header.
    unsigned long long handle() const { return handle_; }

private:
    unsigned long long handle_ = 0;
};

/// @brief Step 5 counterpart (texture): as dia_vec4_spmv, with x fetched through a texture
/// object (float only, like the OpenCL image).
/// @param A [in] DIA matrix (device)  @param x [in] texture over x  @param y [in,out] device y
void dia_texture_spmv(DiaView<float> A, const XTexture& x, float* y);
}  // namespace cuda

}  // namespace kit
