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
/// Called by every thread of the block: `owns` says whether the thread holds output `out`,
/// y_old is y[out] as read when the kernel started (nothing writes y before the last slice).
template <class T>
__device__ void finish_slices(T s, bool owns, index_t out, index_t block, T alpha, T beta, T y_old, T* y,
                              SliceScratch<T> scratch) {
    // BEGIN SOLUTION(step 4: store this slice's partial, fence, take a ticket; the last slice sums the partials in slice order, writes y and resets the ticket)
    const unsigned slices = gridDim.y;
    if (owns) scratch.partial[static_cast<size_t>(blockIdx.y) * scratch.ny + out] = s;
    __shared__ bool last;
    __syncthreads();  // the block's partial sums are stored before thread 0 goes on
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        // One fence, after the barrier: it makes the stores the barrier ordered before it
        // visible to every SM before the ticket is taken (as a grid-wide barrier does). A
        // fence in every thread costs each of them the wait, before the barrier.
        __threadfence();
        last = atomicAdd(&scratch.arrivals[block], 1u) == slices - 1;
    }
    __syncthreads();
    if (!last) return;
    if (owns) {
        T sum = 0;
        for (unsigned k = 0; k < slices; ++k) sum += __ldcg(&scratch.partial[static_cast<size_t>(k) * scratch.ny + out]);
        y[out] = beta == T(0) ? alpha * sum : alpha * sum + beta * y_old;
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) scratch.arrivals[block] = 0;
    // END SOLUTION
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
    // BEGIN SOLUTION(step 3: read y early, march over block columns, two chunks each of V-row loads, prefetch the next chunk into registers, reduce over threadIdx.y in shared memory)
    constexpr int V = kVec<T>, TX = BS / V, HALF = BS / 2, EPT = BS / (2 * TY);
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TX + tx;
    const index_t block = first_block + static_cast<index_t>(blockIdx.x);
    const index_t row0 = block * BS + tx * V;  // this thread's first row
    const index_t out = block * BS + t;        // the row whose result thread t writes (t < BS)
    const bool owns = t < BS && (!RowEdge || out < A.rows);
    // y is read now, not after the march: its DRAM latency overlaps the march
    const T y_old = owns && beta != T(0) ? y[out] : T(0);
    const bool fast_rows = vec && !RowEdge;
    const index_t blocks = (A.cols + BS - 1) / BS;
    const index_t J0 = static_cast<index_t>(blockIdx.y) * per_slice, J1 = min(blocks, J0 + per_slice);
    const T* a_rows = A.vals + (row0 < A.rows ? row0 : 0);
    const index_t rows_left = A.rows - row0;
    // Loads chunk h of block column J into registers; zeros outside the matrix.
    auto load = [&](index_t J, int h, T(&a)[EPT][V], T(&xv)[EPT]) {
        const index_t c0 = J * BS + h * HALF + ty;
        const bool col_edge = (J + 1) * BS > A.cols;
#pragma unroll
        for (int k = 0; k < EPT; ++k) {
            const index_t col = c0 + k * TY;
            const bool in = !col_edge || col < A.cols;
            load_rows(a_rows + static_cast<size_t>(in ? col : 0) * A.lda, fast_rows && in, in, rows_left, a[k]);
            xv[k] = in ? x[col] : T(0);
        }
    };
    T sum[V] = {};
    if (J0 < J1) {
        T a0[EPT][V], x0[EPT], a1[EPT][V], x1[EPT];
        load(J0, 0, a0, x0);
        for (index_t J = J0; J < J1; ++J) {
            load(J, 1, a1, x1);  // prefetch the second chunk before using the first
#pragma unroll
            for (int k = 0; k < EPT; ++k)
#pragma unroll
                for (int v = 0; v < V; ++v) sum[v] += a0[k][v] * x0[k];
            if (J + 1 < J1) load(J + 1, 0, a0, x0);  // and the next block's first chunk
#pragma unroll
            for (int k = 0; k < EPT; ++k)
#pragma unroll
                for (int v = 0; v < V; ++v) sum[v] += a1[k][v] * x1[k];
        }
    }
    __shared__ T part[TY][BS];
#pragma unroll
    for (int v = 0; v < V; ++v) part[ty][tx * V + v] = sum[v];
    __syncthreads();
    T s = 0;
    if (t < BS) {
#pragma unroll
        for (int r = 0; r < TY; ++r) s += part[r][t];
    }
    store_outputs(s, owns, out, block, alpha, beta, y_old, y, scratch);
    // END SOLUTION
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
    // BEGIN SOLUTION(step 3: read y early, march down block rows from a staggered start, two chunks each of V-row loads with prefetch, accumulate 2*EPT columns per thread, reduce over threadIdx.x)
    constexpr int V = kVec<T>, TX = BS / V, HALF = BS / 2, EPT = BS / (2 * TY);
    constexpr int LANES = TX < 32 ? TX : 32, WARPS = TX / LANES;  // threads of one thread row: per warp, warps
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TX + tx;
    const index_t block = first_block + static_cast<index_t>(blockIdx.x);
    const index_t col_base = block * BS, out = col_base + t;
    const bool owns = t < BS && out < A.cols;
    const T y_old = owns && beta != T(0) ? y[out] : T(0);  // read early, as in gemv_n_blocked
    const index_t blocks = (A.rows + BS - 1) / BS;
    const index_t I0 = static_cast<index_t>(blockIdx.y) * per_slice, count = max(index_t(0), min(blocks, I0 + per_slice) - I0);
    const index_t first = count > 0 ? static_cast<index_t>(blockIdx.x) % count : 0;
    const auto block_row = [&](index_t step) { return I0 + (first + step < count ? first + step : first + step - count); };
    // Loads chunk h of block row I; zeros outside the matrix.
    auto load = [&](index_t I, int h, T(&a)[EPT][V]) {
        const index_t row = I * BS + tx * V;
        const bool fast = vec && (I + 1) * BS <= A.rows;
#pragma unroll
        for (int k = 0; k < EPT; ++k) {
            const index_t col = col_base + h * HALF + ty + k * TY;
            const bool in = (!ColEdge || col < A.cols) && row < A.rows;
            load_rows(A.vals + (in ? row + static_cast<size_t>(col) * A.lda : 0), fast && in, in, A.rows - row, a[k]);
        }
    };
    T acc0[EPT] = {}, acc1[EPT] = {};
    if (count > 0) {
        T a0[EPT][V], a1[EPT][V];
        load(block_row(0), 0, a0);
        for (index_t step = 0; step < count; ++step) {
            const index_t I = block_row(step), row = I * BS + tx * V;
            T xv[V];
#pragma unroll
            for (int v = 0; v < V; ++v) xv[v] = row + v < A.rows ? x[row + v] : T(0);
            load(I, 1, a1);  // prefetch the second chunk before using the first
#pragma unroll
            for (int k = 0; k < EPT; ++k)
#pragma unroll
                for (int v = 0; v < V; ++v) acc0[k] += a0[k][v] * xv[v];
            if (step + 1 < count) load(block_row(step + 1), 0, a0);  // and the next block's first chunk
#pragma unroll
            for (int k = 0; k < EPT; ++k)
#pragma unroll
                for (int v = 0; v < V; ++v) acc1[k] += a1[k][v] * xv[v];
        }
    }
#pragma unroll
    for (int k = 0; k < EPT; ++k)
#pragma unroll
        for (int off = LANES / 2; off > 0; off /= 2) {  // lanes tx..tx+LANES-1 of a warp share ty
            acc0[k] += __shfl_xor_sync(0xffffffffu, acc0[k], off);
            acc1[k] += __shfl_xor_sync(0xffffffffu, acc1[k], off);
        }
    __shared__ T part[BS][WARPS];
    if (tx % LANES == 0) {
#pragma unroll
        for (int k = 0; k < EPT; ++k) {
            part[ty + k * TY][tx / LANES] = acc0[k];
            part[HALF + ty + k * TY][tx / LANES] = acc1[k];
        }
    }
    __syncthreads();
    T s = 0;
    if (t < BS) {
#pragma unroll
        for (int w = 0; w < WARPS; ++w) s += part[t][w];
    }
    store_outputs(s, owns, out, block, alpha, beta, y_old, y, scratch);
    // END SOLUTION
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
    // BEGIN SOLUTION(step 5: a warp per C columns; read y early; U = 8 / C loads of V rows per column, and the x they need, before the sums; add the lanes' sums with shuffles; lane c writes column c0 + c)
    constexpr int V = kVec<T>, U = 8 / C, WARP_ROWS = 32 * V;
    const int lane = threadIdx.x % 32;
    const index_t warp = static_cast<index_t>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
    const index_t c0 = warp * C;
    if (c0 >= A.cols) return;  // the whole warp: c0 is the same in all its lanes
    const index_t out = c0 + lane;
    const bool owns = lane < C && out < A.cols;
    const T y_old = owns && beta != T(0) ? y[out] : T(0);  // read early, as in gemv_n_blocked
    T acc[C] = {};
    for (index_t r = 0; r < A.rows; r += U * WARP_ROWS) {
        T a[U][C][V], xv[U][V];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const index_t row = r + u * WARP_ROWS + lane * V;
            const bool in_rows = row < A.rows, whole = vec && row + V <= A.rows;
            load_rows(x + (in_rows ? row : 0), whole, in_rows, A.rows - row, xv[u]);
#pragma unroll
            for (int c = 0; c < C; ++c) {
                const bool in = in_rows && c0 + c < A.cols;
                load_rows(A.vals + (in ? row + static_cast<size_t>(c0 + c) * A.lda : 0), whole && in, in, A.rows - row, a[u][c]);
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int c = 0; c < C; ++c)
#pragma unroll
                for (int v = 0; v < V; ++v) acc[c] += a[u][c][v] * xv[u][v];
    }
    T s = 0;
#pragma unroll
    for (int c = 0; c < C; ++c) {
#pragma unroll
        for (int off = 16; off > 0; off /= 2) acc[c] += __shfl_xor_sync(0xffffffffu, acc[c], off);
        if (lane == c) s = acc[c];  // every lane has every sum; lane c keeps column c0 + c's
    }
    if (owns) y[out] = beta == T(0) ? alpha * s : alpha * s + beta * y_old;
    // END SOLUTION
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
    static_assert(shape_supported<T>(BlockSize, ThreadY),
                  "gemv_block_size: a power of two >= 32 and a multiple of 2 thread_y; thread_y >= 16 / sizeof(T), "
                  "so that the block's gemv_block_size outputs each have a thread; at most 1024 threads");
    // BEGIN SOLUTION(step 3: one thread block of (BlockSize / V) x ThreadY per block row or block column, every block checked, one slice; vector loads only when vector_loads(A))
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
    // BEGIN SOLUTION(step 5: finish_empty_gemv first; then ceil(cols / ColumnsPerWarp) warps, 4 per thread block of 128 threads; 16-byte loads only when A and x allow them)
    // STARTER: kit::todo("09-gemv", 5, "cuda::gemv_warp_columns");
    if (finish_empty_gemv(op, A, beta, y)) return;
    constexpr int threads = 128;
    const long long warps = (static_cast<long long>(A.cols) + ColumnsPerWarp - 1) / ColumnsPerWarp;
    const bool vec = vector_loads(A) && is_aligned(x, 16);
    kernel::gemv_t_warp_columns<T, ColumnsPerWarp><<<grid_for(warps * 32, threads), threads>>>(A, alpha, x, beta, y, vec);
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
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(threads.x * threads.y), 0));
    return static_cast<index_t>(std::max(1, per_sm)) * sm_count();
}

}  // namespace

template <class T, int BlockSize, int ThreadY>
void gemv_streamed(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y) {
    static_assert(shape_supported<T>(BlockSize, ThreadY),
                  "gemv_block_size: a power of two >= 32 and a multiple of 2 thread_y; thread_y >= 16 / sizeof(T), "
                  "so that the block's gemv_block_size outputs each have a thread; at most 1024 threads");
    // BEGIN SOLUTION(step 4: finish_empty_gemv first; full block rows in one kernel, the partial one in a second kernel on its own stream; split the march into slices when there are too few thread blocks, with slice_scratch for their partial sums)
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
            kernel::gemv_n_blocked<T, BlockSize, ThreadY, false><<<grid, threads>>>(A, alpha, x, beta, y, 0, per_slice, scratch, vec);
        else
            kernel::gemv_t_blocked<T, BlockSize, ThreadY, false><<<grid, threads>>>(A, alpha, x, beta, y, 0, per_slice, scratch, vec);
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
    // BEGIN SOLUTION(step 5: list the instantiated shapes, the same for float and double: BlockSize in 32, 64, 128; ThreadY >= 4 with 2*ThreadY dividing BlockSize, at most 8 loads (32 floats) per chunk and thread; and gemv_warp_columns with 1, 2 and 4 columns per warp)
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
