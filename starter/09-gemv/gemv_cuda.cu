/// @file
/// Lab 09, steps 2 to 5: GEMV on the GPU, after Abdelfattah, Keyes and Ltaief. See handouts/09-gemv.md.
#include <algorithm>

#include "gpu/cuda_run.hpp"
#include "gemv_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread owns one element of y: thread i computes alpha * (row i of op(A)) . x + beta y[i].
/// Without transpose row i of A is strided by lda, but at each step k the 32 threads of a warp
/// read A(i..i+31, k): one coalesced transaction. With transpose thread j walks column j, and
/// the warp's 32 reads at step k are lda apart.
template <class T, bool Trans>
__global__ void gemv_per_output(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y) {
    // TODO(09-gemv step 2): one thread per element of y; loop over the inner dimension; y = alpha*sum (+ beta*y unless beta == 0)
}

}  // namespace kernel

/// Where the slices of a split march leave their partial sums (step 4). partial holds one
/// value per slice and element of y (slice-major), arrivals one counter per thread block of a
/// slice (block row, or block column transposed), all zero between calls.
template <class T>
struct SliceScratch {
    T* partial = nullptr;          ///< slices x ny partial sums
    unsigned* arrivals = nullptr;  ///< one counter per block row (block column)
    index_t ny = 0;                ///< elements of y
};

namespace kernel {

/// Step 4: the slices of one block row meet. Every slice stores its partial sums; the last
/// slice to arrive (an atomic ticket per block row, after a fence that publishes the stores)
/// adds the partial sums in slice order, so y does not depend on which slice ran first,
/// writes y = alpha sum + beta y, and resets the ticket for the next call. One kernel, no
/// pass over y before it, and the same result on every run.
/// Called by every thread of the block: `owns` says whether the thread holds output `out`,
/// y_old is y[out] as read when the kernel started (nothing writes y before the last slice).
template <class T>
__device__ void finish_slices(T s, bool owns, index_t out, index_t block, T alpha, T beta, T y_old, T* y,
                              SliceScratch<T> scratch) {
    // TODO(09-gemv step 4): store this slice's partial, fence, take a ticket; the last slice sums the partials in slice order, writes y and resets the ticket
}

/// Writes the block's outputs: directly when the march is not split (step 3), else through
/// finish_slices (step 4). Called by every thread of the block. y_old is y[out], read when
/// the kernel started (see gemv_n_blocked).
template <class T>
__device__ void store_outputs(T s, bool owns, index_t out, index_t block, T alpha, T beta, T y_old, T* y,
                              SliceScratch<T> scratch) {
    if (gridDim.y > 1) return finish_slices(s, owns, out, block, alpha, beta, y_old, y, scratch);
    if (owns) y[out] = beta == T(0) ? alpha * s : alpha * s + beta * y_old;
}

/// y <- beta y, one thread per element (0 when beta is 0, without reading y): op(A) x is
/// empty when the inner dimension is 0.
template <class T>
__global__ void scale_y(T beta, T* y, index_t n) {
    const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = beta == T(0) ? T(0) : beta * y[i];
}

/// Values of T in one 16-byte load: 4 floats (float4) or 2 doubles (double2).
template <class T>
constexpr int kVec = 16 / static_cast<int>(sizeof(T));

/// A(r .. r+V-1, c), V = kVec<T> neighbours in one column, into v. fast: one 16-byte load (the
/// caller knows the V rows are inside A and 16-byte aligned). Otherwise V scalar loads, zero
/// where `in` is false or the row is past the last: the matrix padded with zeros in registers.
__device__ inline void load_rows(const float* p, bool fast, bool in, index_t rows_left, float (&v)[4]) {
    if (fast) {
        const float4 q = __ldg(reinterpret_cast<const float4*>(p));
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
        return;
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = in && i < rows_left ? p[i] : 0.0f;
}
/// The double form of load_rows: V = 2 rows, one double2 load on the fast path.
__device__ inline void load_rows(const double* p, bool fast, bool in, index_t rows_left, double (&v)[2]) {
    if (fast) {
        const double2 q = __ldg(reinterpret_cast<const double2*>(p));
        v[0] = q.x, v[1] = q.y;
        return;
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) v[i] = in && i < rows_left ? p[i] : 0.0;
}

/// Non-transposed. BS = gemv_block_size, V = kVec<T>; TX x TY threads with TX = BS / V
/// (thread_y = TY), EPT = BS / (2 TY). Thread block (blockIdx.x) owns block row
/// b = first_block + blockIdx.x, rows [b BS, b BS + BS); blockIdx.y picks the slice of block
/// columns [s per_slice, (s+1) per_slice) it marches over. Each block is read in two chunks of
/// BS/2 columns; in a chunk starting at column c0, thread (tx, ty) loads the V rows
/// b BS + V tx .. b BS + V tx + V-1 of columns c0 + ty + k TY, k < EPT, one 16-byte load each,
/// so TX neighbouring threads read BS consecutive values of one column. The second chunk is
/// loaded into registers before the first is used, and the next block's first chunk before
/// the second is used. Thread (tx, ty) holds V partial sums, of rows b BS + V tx + v; the
/// TY partial sums of a row are added through shared memory. RowEdge: the block row may pass
/// the last row (those loads are scalar and checked). vec: lda is a multiple of V and A 16-byte
/// aligned, so every column starts on a 16-byte boundary (else every load is scalar).
template <class T, int BS, int TY, bool RowEdge>
__global__ void __launch_bounds__(BS / kVec<T> * TY) gemv_n_blocked(DenseView<T> A, T alpha, const T* __restrict__ x,
                                                                   T beta, T* y, index_t first_block, index_t per_slice,
                                                                   SliceScratch<T> scratch, bool vec) {
    // TODO(09-gemv step 3): read y early, march over block columns, two chunks each of V-row loads, prefetch the next chunk into registers, reduce over threadIdx.y in shared memory
}

/// Transposed, TX x TY threads as in gemv_n_blocked. Thread block (blockIdx.x) owns block
/// column b = first_block + blockIdx.x, columns [b BS, b BS + BS), and marches down the block
/// rows of its slice (blockIdx.y), starting at the (blockIdx.x mod count)-th of them and wrapping
/// around: thread blocks of one slice then read different rows at any moment, not all the same
/// row of columns lda apart (with lda a power of two those addresses can crowd the same
/// memory channels). The start changes only the order of a thread block's additions, so y
/// is the same on every run. In block row I, chunk h (the left or right BS/2 columns), thread (tx, ty)
/// loads rows I BS + V tx .. + V-1 of columns b BS + h BS/2 + ty + k TY, k < EPT, one 16-byte
/// load each: again TX threads read BS consecutive values of one column. Double buffering as in
/// gemv_n_blocked. Each thread accumulates 2 EPT columns over the march, each over its V rows;
/// the partial sums of one column (all tx) are reduced by shuffles inside each warp, then
/// across the TX/32 warps of a thread row (when TX > 32) in shared memory. ColEdge: the block
/// column may pass the last column (zeros in registers). The last block row may pass the last
/// row: its loads are scalar and checked.
template <class T, int BS, int TY, bool ColEdge>
__global__ void __launch_bounds__(BS / kVec<T> * TY) gemv_t_blocked(DenseView<T> A, T alpha, const T* __restrict__ x,
                                                                   T beta, T* y, index_t first_block, index_t per_slice,
                                                                   SliceScratch<T> scratch, bool vec) {
    // TODO(09-gemv step 3): read y early, march down block rows from a staggered start, two chunks each of V-row loads with prefetch, accumulate 2*EPT columns per thread, reduce over threadIdx.x
}

/// Step 5, transposed: one warp per group of C neighbouring columns, c0 = C warp .. c0 + C-1,
/// the shape cuBLAS's transposed kernel has on this GPU. Lane l reads rows r + V l .. r + V l +
/// V-1 of each of its columns, r stepping by 32 V (the warp reads 32 V consecutive values of a
/// column: coalesced), and issues U = 8 / C such loads per column, with the matching x, before
/// it uses any: 8 loads in flight, as the paper's elements_per_thread <= 8. No output is shared
/// between warps, so nothing is split and nothing has to meet (step 4's finish is gone); with
/// n / C warps the grid fills the GPU from small n on. vec: columns and x start on 16-byte
/// boundaries (else every load is scalar); rows past the last load zeros, as in load_rows.
template <class T, int C>
__global__ void __launch_bounds__(128) gemv_t_warp_columns(DenseView<T> A, T alpha, const T* __restrict__ x, T beta,
                                                           T* y, bool vec) {
    // TODO(09-gemv step 5): a warp per C columns; read y early; U = 8 / C loads of V rows per column, and the x they need, before the sums; add the lanes' sums with shuffles; lane c writes column c0 + c
}

}  // namespace kernel

/// Whether gemv_n_blocked and gemv_t_blocked support gemv_block_size x thread_y in T: the block
/// side a power of two >= 32 (so TX = BS / V threads of a thread row fill warps evenly), both
/// chunks split evenly among thread_y (BS a multiple of 2 TY), at least one thread per output
/// (TX TY >= BS, that is TY >= V) and at most 1024 threads.
template <class T>
constexpr bool shape_supported(int block_size, int thread_y) {
    const int v = kernel::kVec<T>;
    return block_size >= 32 && (block_size & (block_size - 1)) == 0 && thread_y >= v && block_size % (2 * thread_y) == 0 &&
           block_size / v * thread_y <= 1024;
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
void gemv_thread_per_output(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    // TODO(09-gemv step 2): launch one thread per element of y, 128 per block, with the kernel for op
    kit::todo("09-gemv", 2, "cuda::gemv_thread_per_output launch");
}

template <class T, int BlockSize, int ThreadY>
void gemv_blocked(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(shape_supported<T>(BlockSize, ThreadY),
                  "gemv_block_size: a power of two >= 32 and a multiple of 2 thread_y; thread_y >= 16 / sizeof(T), "
                  "so that the block's gemv_block_size outputs each have a thread; at most 1024 threads");
    // TODO(09-gemv step 3): one thread block of (BlockSize / V) x ThreadY per block row or block column, every block checked, one slice; vector loads only when vector_loads(A)
    kit::todo("09-gemv", 3, "cuda::gemv_blocked launch");
}

template <class T, int ColumnsPerWarp>
void gemv_warp_columns(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(ColumnsPerWarp == 1 || ColumnsPerWarp == 2 || ColumnsPerWarp == 4 || ColumnsPerWarp == 8,
                  "columns per warp: 1, 2, 4 or 8 (8 / ColumnsPerWarp loads per column in flight)");
    if (op == Transpose::no)
        throw ConversionRefused("gemv: shape " + to_string(GemvShape{0, 0, ColumnsPerWarp}) +
                                " is for the transposed GEMV only (a warp per row would read lda apart); "
                                "use a gemv_block_size x thread_y shape for A x");
    // TODO(09-gemv step 5): finish_empty_gemv first; then ceil(cols / ColumnsPerWarp) warps, 4 per thread block of 128 threads; 16-byte loads only when A and x allow them
    kit::todo("09-gemv", 5, "cuda::gemv_warp_columns");
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
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(threads.x * threads.y), 0));
    return static_cast<index_t>(std::max(1, per_sm)) * sm_count();
}

}  // namespace

template <class T, int BlockSize, int ThreadY>
void gemv_streamed(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(shape_supported<T>(BlockSize, ThreadY),
                  "gemv_block_size: a power of two >= 32 and a multiple of 2 thread_y; thread_y >= 16 / sizeof(T), "
                  "so that the block's gemv_block_size outputs each have a thread; at most 1024 threads");
    // TODO(09-gemv step 4): finish_empty_gemv first; full block rows in one kernel, the partial one in a second kernel on its own stream; split the march into slices when there are too few thread blocks, with slice_scratch for their partial sums
    kit::todo("09-gemv", 4, "cuda::gemv_streamed");
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
    // TODO(09-gemv step 5): list the instantiated shapes, the same for float and double: BlockSize in 32, 64, 128; ThreadY >= 4 with 2*ThreadY dividing BlockSize, at most 8 loads (32 floats) per chunk and thread; and gemv_warp_columns with 1, 2 and 4 columns per warp
    kit::todo("09-gemv", 5, "cuda::shape_table");
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
    throw ConversionRefused("gemv: shape " + to_string(shape) + " (gemv_block_size x thread_y) is not built; built: " + known);
}

/// @cond
template void gemv_thread_per_output<float>(Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv_thread_per_output<double>(Transpose, double, DenseView<double>, const double*, double, double*);
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
