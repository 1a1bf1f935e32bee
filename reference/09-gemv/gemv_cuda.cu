/// @file
/// Lab 09, steps 2 to 5: GEMV on the GPU, after Abdelfattah, Keyes and Ltaief: the launches (the
/// kernels are in gemv_cuda_kernels.cuh). See handouts/09-gemv.md.
#include <algorithm>

#include "gpu/cuda_run.hpp"
#include "gemv_kernels.hpp"
#include "gemv_cuda_kernels.cuh"
#include "core/kit_error.hpp"

namespace kit::cuda {

/// Whether gemv_n_blocked and gemv_t_blocked support gemv_block_size x thread_y in T: the block
/// side a power of two >= 32 (so TX = BS / V threads of a thread row fill warps evenly), both
/// chunks split evenly among thread_y (BS a multiple of 2 TY), at least one thread per output
/// (TX TY >= BS, that is TY >= V) and at most 1024 threads.
template <class T>
constexpr bool shape_supported(int block_size, int thread_y) {
    const int v = kernel::kVec<T>;
    return block_size >= 32 && (block_size & (block_size - 1)) == 0 && thread_y >= v &&
           block_size % (2 * thread_y) == 0 && block_size / v * thread_y <= 1024;
}

/// Whether every column of A starts on a 16-byte boundary, so that the kernels may read V rows
/// with one 16-byte load: lda a multiple of V and A itself aligned (cudaMalloc gives 256 bytes).
template <class T>
bool vector_loads(DenseView<T> A) {
    return A.lda % kernel::kVec<T> == 0 && is_aligned(A.vals, 16);
}

/// Finishes the calls where op(A) x is empty: no y (nothing to do), or no x (y <- beta y, as
/// BLAS does). Returns whether it finished the call; the launchers of steps 4 and 5 return then.
template <class T>
bool finish_empty_gemv(Transpose op, DenseView<T> A, T beta, T* y) {
    const index_t ny = gemv_y_length(op, A), nx = gemv_x_length(op, A);
    if (ny > 0 && nx > 0) return false;
    if (ny > 0) {
        kernel::scale_y<<<grid_for(ny, 256), 256>>>(beta, y, ny);
        KIT_CHECK_LAUNCH();
    }
    return true;
}

template <class T>
void gemv_thread(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    // BEGIN SOLUTION(step 2: launch one thread per element of y, 128 per block, with the kernel for op)
    // STARTER: kit::todo("09-gemv", 2, "cuda::gemv_thread launch");
    const index_t ny = gemv_y_length(op, A);
    if (ny == 0) return;
    constexpr int block = 128;
    if (op == Transpose::no)
        kernel::gemv_thread<T, false><<<grid_for(ny, block), block>>>(A, alpha, x, beta, y);
    else
        kernel::gemv_thread<T, true><<<grid_for(ny, block), block>>>(A, alpha, x, beta, y);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

template <class T, int BlockSize, int ThreadY>
void gemv_blocked(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(shape_supported<T>(BlockSize, ThreadY),
                  "gemv_block_size: a power of two >= 32 and a multiple of 2 thread_y; thread_y >= 16 / sizeof(T), "
                  "so that the block's gemv_block_size outputs each have a thread; at most 1024 threads");
    // BEGIN SOLUTION(step 3: (BlockSize / V) x ThreadY threads per block row or column; one slice)
    // STARTER: kit::todo("09-gemv", 3, "cuda::gemv_blocked launch");
    const index_t ny = gemv_y_length(op, A), nx = gemv_x_length(op, A);
    if (ny == 0) return;
    const dim3 threads(BlockSize / kernel::kVec<T>, ThreadY);
    const dim3 grid(grid_for(ny, BlockSize), 1);
    const index_t march = std::max<index_t>(1, (nx + BlockSize - 1) / BlockSize);
    const bool vec = vector_loads(A);
    if (op == Transpose::no)
        kernel::gemv_n_blocked<T, BlockSize, ThreadY, true><<<grid, threads>>>(A, alpha, x, beta, y, 0, march, {}, vec);
    else
        kernel::gemv_t_blocked<T, BlockSize, ThreadY, true><<<grid, threads>>>(A, alpha, x, beta, y, 0, march, {}, vec);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

template <class T, int ColumnsPerWarp>
void gemv_warp_columns(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(ColumnsPerWarp == 1 || ColumnsPerWarp == 2 || ColumnsPerWarp == 4 || ColumnsPerWarp == 8,
                  "columns per warp: 1, 2, 4 or 8 (8 / ColumnsPerWarp loads per column in flight)");
    if (op == Transpose::no)
        throw ConversionRefused("gemv: shape " + to_string(GemvShape{0, 0, ColumnsPerWarp}) +
                                " is for the transposed GEMV only (a warp per row would read lda apart); "
                                "use a gemv_block_size x thread_y shape for A x");
    // BEGIN SOLUTION(step 5: finish_empty_gemv; ceil(cols / C) warps, 4 per thread block)
    // STARTER: kit::todo("09-gemv", 5, "cuda::gemv_warp_columns");
    if (finish_empty_gemv(op, A, beta, y)) return;
    constexpr int threads = 128;
    const long long warps = (static_cast<long long>(A.cols) + ColumnsPerWarp - 1) / ColumnsPerWarp;
    const bool vec = vector_loads(A) && is_aligned(x, 16);
    kernel::gemv_t_warp_columns<T, ColumnsPerWarp>
        <<<grid_for(warps * kWarpSize, threads), threads>>>(A, alpha, x, beta, y, vec);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

namespace {

/// The second stream of gemv_streamed and the two events that fork it from, and join it to,
/// the default stream. Made once: creating a stream costs more than a small GEMV.
struct EdgeStream {
    cudaStream_t stream{};
    cudaEvent_t fork{}, join{};
    EdgeStream() {
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    }
};

EdgeStream& edge_stream() {
    static EdgeStream s;  // never destroyed: the CUDA context may be gone at exit
    return s;
}

/// The device scratch of split marches, grown on demand and kept: one cudaMalloc per growth,
/// none per call. The counters start at zero and every call leaves them at zero.
/// Calls on one stream only (the kit's protocol): two GEMVs in flight would share it.
template <class T>
SliceScratch<T> slice_scratch(index_t slices, index_t ny, index_t blocks) {
    struct Buffers {
        void* partial = nullptr;
        unsigned* arrivals = nullptr;
        size_t partial_bytes = 0, arrival_count = 0;
    };
    static Buffers b;  // never freed: the CUDA context may be gone at exit
    const size_t need = static_cast<size_t>(slices) * static_cast<size_t>(ny) * sizeof(T);
    if (need > b.partial_bytes) {
        if (b.partial) CUDA_CHECK(cudaFree(b.partial));
        b.partial = nullptr;
        b.partial_bytes = 0;
        CUDA_CHECK(cudaMalloc(&b.partial, need));
        b.partial_bytes = need;
    }
    if (static_cast<size_t>(blocks) > b.arrival_count) {
        if (b.arrivals) CUDA_CHECK(cudaFree(b.arrivals));
        b.arrivals = nullptr;
        b.arrival_count = 0;
        CUDA_CHECK(cudaMalloc(&b.arrivals, static_cast<size_t>(blocks) * sizeof(unsigned)));
        CUDA_CHECK(cudaMemset(b.arrivals, 0, static_cast<size_t>(blocks) * sizeof(unsigned)));
        b.arrival_count = static_cast<size_t>(blocks);
    }
    return {static_cast<T*>(b.partial), b.arrivals, ny};
}

int sm_count() {
    static const int n = [] {
        int device = 0, count = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
        return std::max(1, count);
    }();
    return n;
}

/// Thread blocks of `kernel` (with `threads` threads each) that the whole GPU runs at once.
template <class Kernel>
index_t one_wave(Kernel* kernel, dim3 threads) {
    int per_sm = 0;
    CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(threads.x * threads.y), 0));
    return static_cast<index_t>(std::max(1, per_sm)) * sm_count();
}

}  // namespace

template <class T, int BlockSize, int ThreadY>
void gemv_streamed(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(shape_supported<T>(BlockSize, ThreadY),
                  "gemv_block_size: a power of two >= 32 and a multiple of 2 thread_y; thread_y >= 16 / sizeof(T), "
                  "so that the block's gemv_block_size outputs each have a thread; at most 1024 threads");
    // BEGIN SOLUTION(step 4: full block rows, then the partial one on its own stream; slices if few)
    // STARTER: kit::todo("09-gemv", 4, "cuda::gemv_streamed");
    if (finish_empty_gemv(op, A, beta, y)) return;
    const index_t ny = gemv_y_length(op, A), nx = gemv_x_length(op, A);
    const index_t full = ny / BlockSize;
    const bool edge = ny % BlockSize != 0;
    const index_t march = (nx + BlockSize - 1) / BlockSize;
    // The paper's grid has one thread block per block row: 31 for n = 2000, too few for a GPU
    // of 100+ SMs. Slices of the march make the grid up to one wave: as many thread blocks as
    // the SMs hold at once (their registers decide how many). Not more: every thread block has
    // the same work, and the few of a second wave would run on an almost idle GPU.
    const dim3 threads(BlockSize / kernel::kVec<T>, ThreadY);
    static const index_t wave_n = one_wave(kernel::gemv_n_blocked<T, BlockSize, ThreadY, false>, threads);
    static const index_t wave_t = one_wave(kernel::gemv_t_blocked<T, BlockSize, ThreadY, false>, threads);
    const index_t wanted = op == Transpose::no ? wave_n : wave_t;
    const index_t slices_wanted = std::clamp<index_t>(wanted / (full + edge), 1, march);
    const index_t per_slice = (march + slices_wanted - 1) / slices_wanted;
    const unsigned slices = static_cast<unsigned>((march + per_slice - 1) / per_slice);
    const SliceScratch<T> scratch = slices > 1 ? slice_scratch<T>(slices, ny, full + edge) : SliceScratch<T>{};
    const bool vec = vector_loads(A);
    EdgeStream& es = edge_stream();
    if (edge) {  // the partial block row, on the second stream, after everything before it
        CUDA_CHECK(cudaEventRecord(es.fork, 0));
        CUDA_CHECK(cudaStreamWaitEvent(es.stream, es.fork, 0));
        if (op == Transpose::no)
            kernel::gemv_n_blocked<T, BlockSize, ThreadY, true>
                <<<dim3(1, slices), threads, 0, es.stream>>>(A, alpha, x, beta, y, full, per_slice, scratch, vec);
        else
            kernel::gemv_t_blocked<T, BlockSize, ThreadY, true>
                <<<dim3(1, slices), threads, 0, es.stream>>>(A, alpha, x, beta, y, full, per_slice, scratch, vec);
        KIT_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(es.join, es.stream));
    }
    if (full > 0) {
        const dim3 grid(static_cast<unsigned>(full), slices);
        if (op == Transpose::no)
            kernel::gemv_n_blocked<T, BlockSize, ThreadY, false>
                <<<grid, threads>>>(A, alpha, x, beta, y, 0, per_slice, scratch, vec);
        else
            kernel::gemv_t_blocked<T, BlockSize, ThreadY, false>
                <<<grid, threads>>>(A, alpha, x, beta, y, 0, per_slice, scratch, vec);
        KIT_CHECK_LAUNCH();
    }
    if (edge) CUDA_CHECK(cudaStreamWaitEvent(0, es.join, 0));  // the caller's stream sees both kernels done
    // END SOLUTION
}

namespace {
template <class T>
using GemvFunction = void (*)(Transpose, T, DenseView<T>, const T*, T, T*);

template <class T>
struct ShapeEntry {
    GemvShape shape;
    GemvFunction<T> run;
};

template <class T>
std::vector<ShapeEntry<T>> shape_table() {
    // BEGIN SOLUTION(step 5: every shape to instantiate, the same for float and double)
    // STARTER: kit::todo("09-gemv", 5, "cuda::shape_table");
    return {
        {{32, 4}, &gemv_streamed<T, 32, 4>},   {{32, 8}, &gemv_streamed<T, 32, 8>},
        {{32, 16}, &gemv_streamed<T, 32, 16>}, {{64, 4}, &gemv_streamed<T, 64, 4>},
        {{64, 8}, &gemv_streamed<T, 64, 8>},   {{64, 16}, &gemv_streamed<T, 64, 16>},
        {{128, 8}, &gemv_streamed<T, 128, 8>}, {{128, 16}, &gemv_streamed<T, 128, 16>},
        {{0, 0, 1}, &gemv_warp_columns<T, 1>}, {{0, 0, 2}, &gemv_warp_columns<T, 2>},
        {{0, 0, 4}, &gemv_warp_columns<T, 4>},
    };
    // END SOLUTION
}
}  // namespace

std::vector<GemvShape> gemv_shapes() {
    std::vector<GemvShape> out;
    for (const auto& e : shape_table<float>()) out.push_back(e.shape);
    return out;
}

template <class T>
void gemv_tuned(GemvShape shape, Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static const std::vector<ShapeEntry<T>> table = shape_table<T>();
    std::string known;  // shapes are the same when they print the same (to_string)
    for (const auto& e : table) {
        if (to_string(e.shape) == to_string(shape)) return e.run(op, alpha, A, x, beta, y);
        known += (known.empty() ? "" : ", ") + to_string(e.shape);
    }
    throw ConversionRefused("gemv: shape " + to_string(shape) +
                            " (gemv_block_size x thread_y) is not built; built: " + known);
}

/// @cond
template void gemv_thread<float>(Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv_thread<double>(Transpose, double, DenseView<double>, const double*, double, double*);
template void gemv_blocked<float, 64, 4>(Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv_blocked<double, 64, 4>(Transpose, double, DenseView<double>, const double*, double, double*);
template void gemv_streamed<float, 64, 4>(Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv_streamed<double, 64, 4>(Transpose, double, DenseView<double>, const double*, double, double*);
template void gemv_warp_columns<float, 2>(Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv_warp_columns<double, 2>(Transpose, double, DenseView<double>, const double*, double, double*);
template void gemv_tuned<float>(GemvShape, Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv_tuned<double>(GemvShape, Transpose, double, DenseView<double>, const double*, double, double*);
/// @endcond

}  // namespace kit::cuda
