/// @file
/// Lab 09, steps 2 to 5: the GEMV kernels (device code) that gemv_cuda.cu launches, after
/// Abdelfattah, Keyes and Ltaief. See handouts/09-gemv.md.
#pragma once

#include "gpu/cuda_run.hpp"
#include "gemv_kernels.hpp"

namespace kit::cuda {
namespace kernel {

/// Each thread owns one element of y: thread i computes alpha * (row i of op(A)) . x + beta y[i].
/// Without transpose row i of A is strided by lda, but at each step k the 32 threads of a warp
/// read A(i..i+31, k): one coalesced transaction. With transpose thread j walks column j, and
/// the warp's 32 reads at step k are lda apart.
template <class T, bool Trans>
__global__ void gemv_thread(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y) {
    // BEGIN SOLUTION(step 2: one thread per element of y; y = alpha*sum (+ beta*y unless beta == 0))
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
    // BEGIN SOLUTION(step 4: partial, fence, ticket; the last slice sums in slice order, resets the ticket)
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
        for (unsigned k = 0; k < slices; ++k)
            sum += __ldcg(&scratch.partial[static_cast<size_t>(k) * scratch.ny + out]);
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

/// gemv_n_blocked's march: thread (tx, ty) adds into sum its V rows row0 .. row0 + V-1 times
/// x over the block columns of its slice, two chunks each, double-buffered.
template <class T, int BS, int TY, bool RowEdge>
__device__ __forceinline__ void gemv_n_march(DenseView<T> A, const T* __restrict__ x, index_t row0, index_t per_slice,
                                             bool vec, T (&sum)[kVec<T>]) {
    // BEGIN SOLUTION(step 3: march over the slice's block columns, two chunks each, with prefetch)
    constexpr int V = kVec<T>, HALF = BS / 2, EPT = BS / (2 * TY);
    const int ty = threadIdx.y;
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
    if (J0 >= J1) return;
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
    // END SOLUTION
}

/// gemv_n_blocked's reduction: the TY partial sums of each row of the block row, added through
/// shared memory. Returns row t's sum to thread t < BS. Called by every thread.
template <class T, int BS, int TY>
__device__ __forceinline__ T gemv_n_reduce(const T (&sum)[kVec<T>]) {
    // BEGIN SOLUTION(step 3: the partial sums through shared memory, added over threadIdx.y)
    // STARTER: return 0;
    constexpr int V = kVec<T>, TX = BS / V;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TX + tx;
    __shared__ T part[TY][BS];
#pragma unroll
    for (int v = 0; v < V; ++v) part[ty][tx * V + v] = sum[v];
    __syncthreads();
    T s = 0;
    if (t < BS) {
#pragma unroll
        for (int r = 0; r < TY; ++r) s += part[r][t];
    }
    return s;
    // END SOLUTION
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
__global__ void __launch_bounds__(BS / kVec<T> * TY)
    gemv_n_blocked(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y, index_t first_block,
                   index_t per_slice, SliceScratch<T> scratch, bool vec) {
    // BEGIN SOLUTION(step 3: read y early, gemv_n_march, gemv_n_reduce, store_outputs)
    constexpr int V = kVec<T>, TX = BS / V;
    const int t = threadIdx.y * TX + threadIdx.x;
    const index_t block = first_block + static_cast<index_t>(blockIdx.x);
    const index_t row0 = block * BS + threadIdx.x * V;  // this thread's first row
    const index_t out = block * BS + t;                 // the row whose result thread t writes (t < BS)
    const bool owns = t < BS && (!RowEdge || out < A.rows);
    // y is read now, not after the march: its DRAM latency overlaps the march
    const T y_old = owns && beta != T(0) ? y[out] : T(0);
    T sum[V] = {};
    gemv_n_march<T, BS, TY, RowEdge>(A, x, row0, per_slice, vec, sum);
    const T s = gemv_n_reduce<T, BS, TY>(sum);
    store_outputs(s, owns, out, block, alpha, beta, y_old, y, scratch);
    // END SOLUTION
}

/// gemv_t_blocked's march: thread (tx, ty) accumulates, for the 2 EPT columns it reads in the
/// block column starting at col_base, acc0 (left chunk) and acc1 (right chunk) over its V rows
/// of every block row of its slice, from the staggered start on, double-buffered.
template <class T, int BS, int TY, bool ColEdge>
__device__ __forceinline__ void gemv_t_march(DenseView<T> A, const T* __restrict__ x, index_t col_base,
                                             index_t per_slice, bool vec, T (&acc0)[BS / (2 * TY)],
                                             T (&acc1)[BS / (2 * TY)]) {
    // BEGIN SOLUTION(step 3: march down the slice's block rows from a staggered start, with prefetch)
    constexpr int V = kVec<T>, HALF = BS / 2, EPT = BS / (2 * TY);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const index_t blocks = (A.rows + BS - 1) / BS;
    const index_t I0 = static_cast<index_t>(blockIdx.y) * per_slice;
    const index_t count = max(index_t(0), min(blocks, I0 + per_slice) - I0);
    const index_t first = count > 0 ? static_cast<index_t>(blockIdx.x) % count : 0;
    const auto block_row = [&](index_t step) {
        return I0 + (first + step < count ? first + step : first + step - count);
    };
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
    if (count == 0) return;
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
    // END SOLUTION
}

/// gemv_t_blocked's reduction: the partial sums of one column (all tx of a thread row) are
/// added by shuffles inside each warp, then across the TX/32 warps of a thread row (when
/// TX > 32) in shared memory. Returns column t's sum to thread t < BS. Called by every thread.
template <class T, int BS, int TY>
__device__ __forceinline__ T gemv_t_reduce(T (&acc0)[BS / (2 * TY)], T (&acc1)[BS / (2 * TY)]) {
    // BEGIN SOLUTION(step 3: __shfl_xor_sync within each warp, then shared memory across warps)
    // STARTER: return 0;
    constexpr int V = kVec<T>, TX = BS / V, HALF = BS / 2, EPT = BS / (2 * TY);
    constexpr int LANES = TX < kWarpSize ? TX : kWarpSize, WARPS = TX / LANES;  // of one thread row: per warp, warps
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TX + tx;
#pragma unroll
    for (int k = 0; k < EPT; ++k)
#pragma unroll
        for (int off = LANES / 2; off > 0; off /= 2) {  // lanes tx..tx+LANES-1 of a warp share ty
            acc0[k] += __shfl_xor_sync(kFullWarpMask, acc0[k], off);
            acc1[k] += __shfl_xor_sync(kFullWarpMask, acc1[k], off);
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
    return s;
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
__global__ void __launch_bounds__(BS / kVec<T> * TY)
    gemv_t_blocked(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y, index_t first_block,
                   index_t per_slice, SliceScratch<T> scratch, bool vec) {
    // BEGIN SOLUTION(step 3: read y early, gemv_t_march, gemv_t_reduce, store_outputs)
    constexpr int V = kVec<T>, TX = BS / V, EPT = BS / (2 * TY);
    const int t = threadIdx.y * TX + threadIdx.x;
    const index_t block = first_block + static_cast<index_t>(blockIdx.x);
    const index_t col_base = block * BS, out = col_base + t;
    const bool owns = t < BS && out < A.cols;
    const T y_old = owns && beta != T(0) ? y[out] : T(0);  // read early, as in gemv_n_blocked
    T acc0[EPT] = {}, acc1[EPT] = {};
    gemv_t_march<T, BS, TY, ColEdge>(A, x, col_base, per_slice, vec, acc0, acc1);
    const T s = gemv_t_reduce<T, BS, TY>(acc0, acc1);
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
__global__ void __launch_bounds__(128)
    gemv_t_warp_columns(DenseView<T> A, T alpha, const T* __restrict__ x, T beta, T* y, bool vec) {
    // BEGIN SOLUTION(step 5: a warp per C columns, 8 loads in flight; xor-shuffle sums; lane c writes)
    constexpr int V = kVec<T>, U = 8 / C, WARP_ROWS = kWarpSize * V;
    const int lane = threadIdx.x % kWarpSize;
    const index_t warp = static_cast<index_t>(blockIdx.x) * (blockDim.x / kWarpSize) + threadIdx.x / kWarpSize;
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
                load_rows(A.vals + (in ? row + static_cast<size_t>(c0 + c) * A.lda : 0), whole && in, in, A.rows - row,
                          a[u][c]);
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
        for (int off = kWarpSize / 2; off > 0; off /= 2) acc[c] += __shfl_xor_sync(kFullWarpMask, acc[c], off);
        if (lane == c) s = acc[c];  // every lane has every sum; lane c keeps column c0 + c's
    }
    if (owns) y[out] = beta == T(0) ? alpha * s : alpha * s + beta * y_old;
    // END SOLUTION
}

}  // namespace kernel

}  // namespace kit::cuda
