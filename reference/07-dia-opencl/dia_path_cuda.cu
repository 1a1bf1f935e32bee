/// @file
/// Lab 07, steps 4-5, CUDA counterparts: four rows per thread with float4 loads, and x through
/// the read-only path (__ldg) or a texture object. See handouts/07-dia-opencl.md; the aligned
/// and shared-memory CUDA kernels are lab 03's.
#include <algorithm>

#include "gpu/cuda_run.hpp"
#include "dia_path.hpp"

namespace kit::cuda {
namespace kernel {

/// Four consecutive values: a row group's matrix values on one diagonal, or a quad of x.
template <class T>
struct Quad {
    T v[4];  ///< the four values
};

/// The 4 matrix values of a row group: one 16-byte load for float, two for double.
/// p must be 4-element aligned (pitch % 4 == 0 and row % 4 == 0).
__device__ inline Quad<float> load_quad(const float* p) {
    const float4 q = *reinterpret_cast<const float4*>(p);
    return {{q.x, q.y, q.z, q.w}};
}
/// The same for double: two 16-byte loads.
__device__ inline Quad<double> load_quad(const double* p) {
    const double2 a = reinterpret_cast<const double2*>(p)[0];
    const double2 b = reinterpret_cast<const double2*>(p)[1];
    return {{a.x, a.y, b.x, b.y}};
}

/// y[row..row+3] += s for a full row group (4-element aligned), as vector accesses.
__device__ inline void add_quad(float* y, const float* s) {
    float4 q = *reinterpret_cast<float4*>(y);
    q.x += s[0], q.y += s[1], q.z += s[2], q.w += s[3];
    *reinterpret_cast<float4*>(y) = q;
}
/// The same for double.
__device__ inline void add_quad(double* y, const double* s) {
    double2* p = reinterpret_cast<double2*>(y);
    double2 a = p[0], b = p[1];
    a.x += s[0], a.y += s[1], b.x += s[2], b.y += s[3];
    p[0] = a, p[1] = b;
}

/// x through ordinary global loads.
template <class T>
struct GlobalX {
    const T* x;    ///< device x
    index_t cols;  ///< its length
    /// x[c], an ordinary load.
    __device__ T at(index_t c) const { return x[c]; }
};

/// x through the read-only data cache.
template <class T>
struct LdgX {
    const T* x;    ///< device x
    index_t cols;  ///< its length
    /// x[c] through __ldg.
    __device__ T at(index_t c) const {
        // BEGIN SOLUTION(step 5: read x[c] with __ldg)
        // STARTER: return T(0);
        return __ldg(x + c);
        // END SOLUTION
    }
};

/// x through a texture object over the float array (tex1Dfetch: one element per fetch,
/// so unlike the OpenCL image there are no misalignment cases to assemble; x_quad's bounds
/// checks stay, since a linear texture has no clamp-to-zero addressing).
struct TextureX {
    cudaTextureObject_t tex;  ///< texture over x
    index_t cols;             ///< length of x
    /// x[c] fetched from the texture.
    __device__ float at(index_t c) const {
        // BEGIN SOLUTION(step 5: tex1Dfetch<float>(tex, c))
        // STARTER: return 0.0f;
        return tex1Dfetch<float>(tex, c);
        // END SOLUTION
    }
};

/// x[col..col+3], 0 outside [0, cols). Inside the matrix the whole warp takes the first
/// branch; only row groups at the matrix borders take the element-by-element one.
template <class T, class X>
__device__ inline Quad<T> x_quad(const X& x, index_t col) {
    // BEGIN SOLUTION(step 4: the whole quad when inside [0, cols), else each value that exists, 0 else)
    // STARTER: return Quad<T>{};
    Quad<T> q;
    if (col >= 0 && col <= x.cols - 4) {
        for (int i = 0; i < 4; ++i) q.v[i] = x.at(col + i);
    } else {
        for (int i = 0; i < 4; ++i) q.v[i] = col + i >= 0 && col + i < x.cols ? x.at(col + i) : T(0);
    }
    return q;
    // END SOLUTION
}

/// Each thread computes rows 4t..4t+3 (t = global thread index): per diagonal one aligned
/// vector load of the matrix and one quad of x through X. The block keeps kDiaOffsetChunk
/// offsets in shared memory at a time, so any number of diagonals works.
template <class T, class X>
__global__ void dia_rows4(DiaView<T> A, X x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 4: 4 rows a thread; chunked offsets in __shared__; quads of A times x quads)
    constexpr index_t chunk = kDiaOffsetChunk;
    __shared__ index_t chunk_offsets[chunk];
    const long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
    const bool active = row < A.rows;  // threads past the end still reach every __syncthreads
    T sum[4] = {0, 0, 0, 0};
    const T* a = A.vals + row;
    for (index_t base = 0; base < A.diagonals; base += chunk) {
        const index_t n = min(chunk, A.diagonals - base);
        __syncthreads();
        for (index_t i = threadIdx.x; i < n; i += blockDim.x) chunk_offsets[i] = A.offsets[base + i];
        __syncthreads();
        if (active)
            for (index_t k = 0; k < n; ++k, a += A.pitch) {
                const Quad<T> m = load_quad(a);
                const Quad<T> v = x_quad<T>(x, static_cast<index_t>(row) + chunk_offsets[k]);
                for (int i = 0; i < 4; ++i) sum[i] += m.v[i] * v.v[i];
            }
    }
    if (!active) return;
    if (row + 4 <= A.rows) {
        add_quad(y + row, sum);
    } else {
        for (int i = 0; i < 4 && row + i < A.rows; ++i) y[row + i] += sum[i];
    }
    // END SOLUTION
}

/// Launches dia_rows4 with one thread per group of four rows; needs pitch % 4 == 0.
template <class T, class X>
void launch_rows4(DiaView<T> A, X x, T* y) {
    if (A.pitch % 4 != 0)
        throw Error("dia_rows4 needs the aligned layout (pitch % 4 == 0) for its vector loads; got pitch " +
                    std::to_string(A.pitch));
    constexpr int block = dia_path::work_group;
    dia_rows4<T, X><<<grid_for((static_cast<long long>(A.rows) + 3) / 4, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

}  // namespace kernel

template <class T>
void dia_vec4_spmv(DiaView<T> A, const T* x, T* y) {
    kernel::launch_rows4(A, kernel::GlobalX<T>{x, A.cols}, y);
}

template <class T>
void dia_ldg_spmv(DiaView<T> A, const T* x, T* y) {
    kernel::launch_rows4(A, kernel::LdgX<T>{x, A.cols}, y);
}

void dia_texture_spmv(DiaView<float> A, const XTexture& x, float* y) {
    kernel::launch_rows4(A, kernel::TextureX{static_cast<cudaTextureObject_t>(x.handle()), A.cols}, y);
}

static_assert(sizeof(cudaTextureObject_t) == sizeof(unsigned long long), "XTexture stores the handle as an integer");

XTexture::XTexture(const float* x, index_t n) {
    // BEGIN SOLUTION(step 5: a linear texture object over x (n floats), its limits checked first)
    // STARTER: kit::todo("07-dia-opencl", 5, "cuda::XTexture");
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    const cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
    std::size_t max_width = 0;
    CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&max_width, &channel, dev));
    if (static_cast<std::size_t>(n) > max_width)
        throw BackendUnavailable("x has " + std::to_string(n) + " floats, beyond this GPU's linear-texture limit of " +
                                 std::to_string(max_width) + "; use dia-ldg");
    int alignment = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&alignment, cudaDevAttrTextureAlignment, dev));
    if (alignment > 0 && !is_aligned(x, alignment))
        throw Error("a linear texture must start on a " + std::to_string(alignment) +
                    "-byte boundary; x does not (pass the start of a cudaMalloc allocation)");
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = const_cast<float*>(x);
    res.res.linear.desc = channel;
    res.res.linear.sizeInBytes = static_cast<std::size_t>(std::max<index_t>(n, 1)) * sizeof(float);
    // A linear resource ignores address and filter modes: unlike the OpenCL image there is
    // no clamp to zero, so x_quad never fetches outside [0, n).
    cudaTextureDesc desc{};
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    cudaTextureObject_t tex = 0;
    CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));
    handle_ = tex;
    // END SOLUTION
}

XTexture::~XTexture() {
    if (handle_) cudaDestroyTextureObject(static_cast<cudaTextureObject_t>(handle_));
}

/// @cond
template void dia_vec4_spmv<float>(DiaView<float>, const float*, float*);
template void dia_vec4_spmv<double>(DiaView<double>, const double*, double*);
template void dia_ldg_spmv<float>(DiaView<float>, const float*, float*);
template void dia_ldg_spmv<double>(DiaView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
