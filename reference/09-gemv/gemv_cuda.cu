/// @file
/// Lab 09, steps 2 to 5: GEMV on the GPU, after Abdelfattah, Keyes and Ltaief. See handouts/09-gemv.md.
#include <algorithm>

#include "cuda_run.hpp"
#include "gemv_kernels.hpp"
#include "kit_error.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread owns one element of y: thread i computes alpha * (row i of op(A)) . x + beta y[i].
/// Without transpose row i of A is strided by lda, but at each step k the 32 threads of a warp
/// read A(i..i+31, k): one coalesced transaction. With transpose thread j walks column j, and
/// the warp's 32 reads at step k are lda apart.
template <class T, bool Trans>
__global__ void gemv_per_output(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y) {
    // BEGIN SOLUTION(step 2: one thread per element of y; loop over the inner dimension; y = alpha*sum (+ beta*y unless beta == 0))
    const index_t ny = Trans ? A.cols : A.rows, nx = Trans ? A.rows : A.cols;
    const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= ny) return;
    T sum = 0;
    if (Trans) {
        const T* column = A.vals + static_cast<size_t>(i) * A.lda;
        for (index_t k = 0; k < nx; ++k) sum += column[k] * x[k];
    } else {
        for (index_t k = 0; k < nx; ++k) sum += A.vals[i + static_cast<size_t>(k) * A.lda] * x[k];
    }
    y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
    // END SOLUTION
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
/// Called by every thread of the block: `owns` says whether the thread holds output `out`.
template <class T>
__device__ void finish_slices(T s, bool owns, index_t out, index_t block, T alpha, T beta, T* y,
                              SliceScratch<T> scratch) {
    // BEGIN SOLUTION(step 4: store this slice's partial, fence, take a ticket; the last slice sums the partials in slice order, writes y and resets the ticket)
    const unsigned slices = gridDim.y;
    if (owns) scratch.partial[static_cast<size_t>(blockIdx.y) * scratch.ny + out] = s;
    __threadfence();  // the stores are visible to every SM before the ticket is taken
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0) last = atomicAdd(&scratch.arrivals[block], 1u) == slices - 1;
    __syncthreads();
    if (!last) return;
    if (owns) {
        T sum = 0;
        for (unsigned k = 0; k < slices; ++k) sum += __ldcg(&scratch.partial[static_cast<size_t>(k) * scratch.ny + out]);
        y[out] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[out];
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) scratch.arrivals[block] = 0;
    // END SOLUTION
}

/// Writes the block's outputs: directly when the march is not split (step 3), else through
/// finish_slices (step 4). Called by every thread of the block.
template <class T>
__device__ void store_outputs(T s, bool owns, index_t out, index_t block, T alpha, T beta, T* y,
                              SliceScratch<T> scratch) {
    if (gridDim.y > 1) return finish_slices(s, owns, out, block, alpha, beta, y, scratch);
    if (owns) y[out] = beta == T(0) ? alpha * s : alpha * s + beta * y[out];
}

/// y <- beta y, one thread per element (0 when beta is 0, without reading y): op(A) x is
/// empty when the inner dimension is 0.
template <class T>
__global__ void scale_y(T beta, T* y, index_t n) {
    const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = beta == T(0) ? T(0) : beta * y[i];
}

/// Non-transposed, BS x TY threads (thread_x = BS, thread_y = TY), EPT = BS / (2 TY).
/// Thread block (blockIdx.x) owns block row b = first_block + blockIdx.x, rows [b BS, b BS + BS);
/// blockIdx.y picks the slice of block columns [s per_slice, (s+1) per_slice) it marches over.
/// Each block is read in two chunks of BS/2 columns; in a chunk starting at column c0, thread
/// (tx, ty) loads A(b BS + tx, c0 + ty + k TY) for k < EPT, so a warp (32 consecutive tx)
/// reads 32 consecutive values of one column. The second chunk is loaded into registers
/// before the first is used, and the next block's first chunk before the second is used.
/// Threads with equal tx hold partial sums of y[b BS + tx]; thread_y of them are summed
/// through shared memory. RowEdge: the block row may pass the last row (those threads load
/// zeros: the matrix is padded with zeros in registers). A partial last block column is
/// handled the same way, in every thread block.
template <class T, int BS, int TY, bool RowEdge>
__global__ void __launch_bounds__(BS * TY) gemv_n_blocked(DenseView<T> A, T alpha, const T* __restrict__ x, T beta,
                                                         T* y, index_t first_block, index_t per_slice,
                                                         SliceScratch<T> scratch) {
    // BEGIN SOLUTION(step 3: march over block columns, two chunks each, prefetch the next chunk into registers, reduce over threadIdx.y in shared memory)
    constexpr int HALF = BS / 2, EPT = BS / (2 * TY);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const index_t row = (first_block + static_cast<index_t>(blockIdx.x)) * BS + tx;
    const bool row_in = !RowEdge || row < A.rows;
    const index_t blocks = (A.cols + BS - 1) / BS;
    const index_t J0 = static_cast<index_t>(blockIdx.y) * per_slice, J1 = min(blocks, J0 + per_slice);
    const T* a_row = A.vals + (row_in ? row : 0);
    // Loads chunk h of block column J into registers; zeros outside the matrix.
    auto load = [&](index_t J, int h, T(&a)[EPT], T(&xv)[EPT]) {
        const index_t c0 = J * BS + h * HALF + ty;
        const bool checked = RowEdge || (J + 1) * BS > A.cols;
#pragma unroll
        for (int k = 0; k < EPT; ++k) {
            const index_t col = c0 + k * TY;
            const bool in = !checked || (row_in && col < A.cols);
            a[k] = in ? a_row[static_cast<size_t>(col) * A.lda] : T(0);
            xv[k] = !checked || col < A.cols ? x[col] : T(0);
        }
    };
    T sum = 0;
    if (J0 < J1) {
        T a0[EPT], x0[EPT], a1[EPT], x1[EPT];
        load(J0, 0, a0, x0);
        for (index_t J = J0; J < J1; ++J) {
            load(J, 1, a1, x1);  // prefetch the second chunk before using the first
#pragma unroll
            for (int k = 0; k < EPT; ++k) sum += a0[k] * x0[k];
            if (J + 1 < J1) load(J + 1, 0, a0, x0);  // and the next block's first chunk
#pragma unroll
            for (int k = 0; k < EPT; ++k) sum += a1[k] * x1[k];
        }
    }
    __shared__ T part[TY][BS];
    part[ty][tx] = sum;
    __syncthreads();
    T s = 0;
    if (ty == 0) {
#pragma unroll
        for (int t = 0; t < TY; ++t) s += part[t][tx];
    }
    store_outputs(s, ty == 0 && row_in, row, first_block + static_cast<index_t>(blockIdx.x), alpha, beta, y, scratch);
    // END SOLUTION
}

/// Transposed, BS x TY threads, EPT = BS / (2 TY). Thread block (blockIdx.x) owns block column
/// b = first_block + blockIdx.x, columns [b BS, b BS + BS), and marches down the block rows of
/// its slice (blockIdx.y). In block row I, chunk h (the left or right BS/2 columns), thread
/// (tx, ty) loads A(I BS + tx, b BS + h BS/2 + ty + k TY) for k < EPT: again a warp reads 32
/// consecutive values of one column. Double buffering as in gemv_n_blocked. Each thread
/// accumulates 2 EPT columns over the whole march; the partial sums of one column (all tx)
/// are reduced by shuffles inside each warp, then across the BS/32 warps of a thread row in
/// shared memory. ColEdge: the block column may pass the last column (zeros in registers).
template <class T, int BS, int TY, bool ColEdge>
__global__ void __launch_bounds__(BS * TY) gemv_t_blocked(DenseView<T> A, T alpha, const T* __restrict__ x, T beta,
                                                         T* y, index_t first_block, index_t per_slice,
                                                         SliceScratch<T> scratch) {
    // BEGIN SOLUTION(step 3: march down block rows, two chunks each with prefetch, accumulate 2*EPT columns per thread, reduce over threadIdx.x)
    constexpr int HALF = BS / 2, EPT = BS / (2 * TY), WARPS = BS / 32;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const index_t col_base = (first_block + static_cast<index_t>(blockIdx.x)) * BS;
    const index_t blocks = (A.rows + BS - 1) / BS;
    const index_t I0 = static_cast<index_t>(blockIdx.y) * per_slice, I1 = min(blocks, I0 + per_slice);
    // Loads chunk h of block row I; zeros outside the matrix.
    auto load = [&](index_t I, int h, T(&a)[EPT]) {
        const index_t row = I * BS + tx;
        const bool row_ok = (I + 1) * BS <= A.rows || row < A.rows;
#pragma unroll
        for (int k = 0; k < EPT; ++k) {
            const index_t col = col_base + h * HALF + ty + k * TY;
            const bool in = row_ok && (!ColEdge || col < A.cols);
            a[k] = in ? A.vals[row + static_cast<size_t>(col) * A.lda] : T(0);
        }
    };
    T acc0[EPT] = {}, acc1[EPT] = {};
    if (I0 < I1) {
        T a0[EPT], a1[EPT];
        load(I0, 0, a0);
        for (index_t I = I0; I < I1; ++I) {
            const index_t row = I * BS + tx;
            const T xv = row < A.rows ? x[row] : T(0);
            load(I, 1, a1);  // prefetch the second chunk before using the first
#pragma unroll
            for (int k = 0; k < EPT; ++k) acc0[k] += a0[k] * xv;
            if (I + 1 < I1) load(I + 1, 0, a0);  // and the next block's first chunk
#pragma unroll
            for (int k = 0; k < EPT; ++k) acc1[k] += a1[k] * xv;
        }
    }
#pragma unroll
    for (int k = 0; k < EPT; ++k)
        for (int off = 16; off > 0; off /= 2) {
            acc0[k] += __shfl_xor_sync(0xffffffffu, acc0[k], off);
            acc1[k] += __shfl_xor_sync(0xffffffffu, acc1[k], off);
        }
    __shared__ T part[BS][WARPS];
    if (tx % 32 == 0) {
#pragma unroll
        for (int k = 0; k < EPT; ++k) {
            part[ty + k * TY][tx / 32] = acc0[k];
            part[HALF + ty + k * TY][tx / 32] = acc1[k];
        }
    }
    __syncthreads();
    const int t = ty * BS + tx;
    T s = 0;
    if (t < BS) {
#pragma unroll
        for (int w = 0; w < WARPS; ++w) s += part[t][w];
    }
    store_outputs(s, t < BS && col_base + t < A.cols, col_base + t, first_block + static_cast<index_t>(blockIdx.x), alpha,
                  beta, y, scratch);
    // END SOLUTION
}

}  // namespace kernel

template <class T>
void gemv_thread_per_output(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    // BEGIN SOLUTION(step 2: launch one thread per element of y, 128 per block, with the kernel for op)
    // STARTER: kit::todo("09-gemv", 2, "cuda::gemv_thread_per_output launch");
    const index_t ny = gemv_y_length(op, A);
    if (ny == 0) return;
    constexpr int block = 128;
    if (op == Transpose::no) kernel::gemv_per_output<T, false><<<grid_for(ny, block), block>>>(A, alpha, x, beta, y);
    else kernel::gemv_per_output<T, true><<<grid_for(ny, block), block>>>(A, alpha, x, beta, y);
    KIT_CHECK_LAUNCH();
    // END SOLUTION
}

template <class T, int BlockSize, int ThreadY>
void gemv_blocked(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(BlockSize % 32 == 0 && BlockSize % (2 * ThreadY) == 0 && BlockSize * ThreadY <= 1024,
                  "gemv_block_size must be a multiple of 32 and of 2 thread_y, with at most 1024 threads");
    // BEGIN SOLUTION(step 3: one thread block of BlockSize x ThreadY per block row or block column, every block checked, one slice)
    // STARTER: kit::todo("09-gemv", 3, "cuda::gemv_blocked launch");
    const index_t ny = gemv_y_length(op, A), nx = gemv_x_length(op, A);
    if (ny == 0) return;
    const dim3 threads(BlockSize, ThreadY);
    const dim3 grid(grid_for(ny, BlockSize), 1);
    const index_t march = std::max<index_t>(1, (nx + BlockSize - 1) / BlockSize);
    if (op == Transpose::no)
        kernel::gemv_n_blocked<T, BlockSize, ThreadY, true><<<grid, threads>>>(A, alpha, x, beta, y, 0, march, {});
    else
        kernel::gemv_t_blocked<T, BlockSize, ThreadY, true><<<grid, threads>>>(A, alpha, x, beta, y, 0, march, {});
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

}  // namespace

template <class T, int BlockSize, int ThreadY>
void gemv_streamed(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(BlockSize % 32 == 0 && BlockSize % (2 * ThreadY) == 0 && BlockSize * ThreadY <= 1024,
                  "gemv_block_size must be a multiple of 32 and of 2 thread_y, with at most 1024 threads");
    // BEGIN SOLUTION(step 4: full block rows in one kernel, the partial one in a second kernel on its own stream; split the march into slices when there are too few thread blocks, with slice_scratch for their partial sums)
    // STARTER: kit::todo("09-gemv", 4, "cuda::gemv_streamed");
    const index_t ny = gemv_y_length(op, A), nx = gemv_x_length(op, A);
    if (ny == 0) return;
    if (nx == 0) {  // op(A) x is empty: y <- beta y
        kernel::scale_y<<<grid_for(ny, 256), 256>>>(beta, y, ny);
        KIT_CHECK_LAUNCH();
        return;
    }
    const index_t full = ny / BlockSize;
    const bool edge = ny % BlockSize != 0;
    const index_t march = (nx + BlockSize - 1) / BlockSize;
    // The paper's grid has one thread block per block row: 31 for n = 2000, too few for a GPU
    // of 100+ SMs. Slices of the march give each SM about four thread blocks.
    const index_t wanted = 4 * static_cast<index_t>(sm_count());
    const index_t slices_wanted = std::clamp<index_t>((wanted + full + edge - 1) / (full + edge), 1, march);
    const index_t per_slice = (march + slices_wanted - 1) / slices_wanted;
    const unsigned slices = static_cast<unsigned>((march + per_slice - 1) / per_slice);
    const SliceScratch<T> scratch = slices > 1 ? slice_scratch<T>(slices, ny, full + edge) : SliceScratch<T>{};
    const dim3 threads(BlockSize, ThreadY);
    EdgeStream& es = edge_stream();
    if (edge) {  // the partial block row, on the second stream, after everything before it
        CUDA_CHECK(cudaEventRecord(es.fork, 0));
        CUDA_CHECK(cudaStreamWaitEvent(es.stream, es.fork, 0));
        if (op == Transpose::no)
            kernel::gemv_n_blocked<T, BlockSize, ThreadY, true>
                <<<dim3(1, slices), threads, 0, es.stream>>>(A, alpha, x, beta, y, full, per_slice, scratch);
        else
            kernel::gemv_t_blocked<T, BlockSize, ThreadY, true>
                <<<dim3(1, slices), threads, 0, es.stream>>>(A, alpha, x, beta, y, full, per_slice, scratch);
        KIT_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(es.join, es.stream));
    }
    if (full > 0) {
        const dim3 grid(static_cast<unsigned>(full), slices);
        if (op == Transpose::no)
            kernel::gemv_n_blocked<T, BlockSize, ThreadY, false><<<grid, threads>>>(A, alpha, x, beta, y, 0, per_slice, scratch);
        else
            kernel::gemv_t_blocked<T, BlockSize, ThreadY, false><<<grid, threads>>>(A, alpha, x, beta, y, 0, per_slice, scratch);
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
    // BEGIN SOLUTION(step 5: list the instantiated shapes: BlockSize in 32, 64, 128; ThreadY with 2*ThreadY dividing BlockSize, at most 1024 threads and 32 accumulators per thread)
    // STARTER: kit::todo("09-gemv", 5, "cuda::shape_table");
    return {
        {{32, 2}, &gemv_streamed<T, 32, 2>},   {{32, 4}, &gemv_streamed<T, 32, 4>},
        {{32, 8}, &gemv_streamed<T, 32, 8>},   {{64, 2}, &gemv_streamed<T, 64, 2>},
        {{64, 4}, &gemv_streamed<T, 64, 4>},   {{64, 8}, &gemv_streamed<T, 64, 8>},
        {{64, 16}, &gemv_streamed<T, 64, 16>}, {{128, 4}, &gemv_streamed<T, 128, 4>},
        {{128, 8}, &gemv_streamed<T, 128, 8>},
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
    std::string known;
    for (const auto& e : table) {
        if (e.shape.block_size == shape.block_size && e.shape.thread_y == shape.thread_y) return e.run(op, alpha, A, x, beta, y);
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
template void gemv_tuned<float>(GemvShape, Transpose, float, DenseView<float>, const float*, float, float*);
template void gemv_tuned<double>(GemvShape, Transpose, double, DenseView<double>, const double*, double, double*);
/// @endcond

}  // namespace kit::cuda
