/// @file
/// Lab 02, steps 1, 3 and 4: CSR SpMV kernels on the GPU. See handouts/02-csr.md.
#include "csr_kernels.hpp"
#include "cuda_run.hpp"

namespace kit::cuda {
namespace kernel {

/// A group of LANES consecutive threads computes y[row] += A[row,:] * x for one row:
/// lane l reads entries row_start+l, row_start+l+LANES, ... (consecutive lanes read
/// consecutive entries, so the loads coalesce), then the group sums its partial results
/// with shuffles. LANES = 1 is the scalar kernel, LANES = 32 the vector kernel.
template <class T, int LANES>
__global__ void csr_lanes(CsrView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 1: row = global thread / LANES, lane = thread % LANES; strided partial sums; shuffle reduction)
    const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long row = thread / LANES;
    const int lane = threadIdx.x % LANES;
    // Rows past the end still take part in the shuffles (with sum 0), so no thread leaves early.
    T sum = 0;
    if (row < A.rows) {
        const index_t end = A.row_ptr[row + 1];
        for (index_t k = A.row_ptr[row] + lane; k < end; k += LANES) sum += A.vals[k] * __ldg(&x[A.col_idx[k]]);
    }
    for (int off = LANES / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off, LANES);
    if (lane == 0 && row < A.rows) y[row] += sum;
    // END SOLUTION
}

/// Launches csr_lanes with one group of LANES threads per row.
template <class T, int LANES>
void launch_lanes(CsrView<T> A, const T* x, T* y) {
    constexpr int block = 256;  // a multiple of 32, so groups never straddle warps
    csr_lanes<T, LANES><<<grid_for(static_cast<long long>(A.rows) * LANES, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

/// Merge-path search by one whole warp, for the coordinate of a block's first or last
/// diagonal in global memory. Each round the 32 lanes test 32 pivots spread over the
/// candidate range [lo, hi], and a ballot keeps the piece where the test changes, so the
/// range shrinks 32-fold per round (5 rounds for 10^7 items, against 23 steps of a binary
/// search by one thread, each a dependent load from memory).
__device__ inline MergeCoord warp_merge_search(long long diagonal, const index_t* row_end, index_t rows,
                                               index_t nnz) {
    const int lane = threadIdx.x % 32;
    long long lo = diagonal > nnz ? diagonal - nnz : 0;  // the answer lies in [lo, hi]
    long long hi = diagonal < rows ? diagonal : rows;
    while (lo < hi) {
        const long long n = hi - lo;
        const long long pivot = lo + lane * n / 32;  // lo <= pivot < hi: a valid row
        const bool before = row_end[pivot] <= diagonal - pivot - 1;  // row end `pivot` precedes the diagonal
        const int yes = __popc(__ballot_sync(0xffffffffu, before));  // the test holds for lanes 0..yes-1
        if (yes == 0) {
            hi = lo;
        } else {
            const long long last_yes = lo + (yes - 1) * n / 32;
            hi = yes < 32 ? lo + yes * n / 32 : hi;
            lo = last_yes + 1;
        }
    }
    return {static_cast<index_t>(lo), static_cast<index_t>(diagonal - lo)};
}

/// Merge-based SpMV (Merrill and Garland, SC'16). The merge path of the matrix is the
/// rows + nnz items of "row i ends" and "nonzero k" in merge order. Block b takes items
/// [b * TILE, (b+1) * TILE), TILE = THREADS * ITEMS; thread t of the block takes the
/// ITEMS consecutive items t * ITEMS ... of the block's share. So every thread does the
/// same amount of work, whatever the row lengths: a long row is cut into many shares, an
/// empty row costs one item.
///
/// - Two warps find the block's first and last coordinate (warp_merge_search).
/// - The block stages its share in shared memory: the row ends, and the products
///   vals[k] * x[col_idx[k]] (consecutive threads load consecutive entries: coalesced).
/// - Each thread finds its start by binary search in shared memory, then walks its items:
///   a nonzero adds its product to the running sum, a row end writes the sum to y.
/// - A thread's last row is usually unfinished: its partial sum (the carry) belongs to the
///   row the next thread starts with. A segmented scan of the carries over the block (keyed
///   by row) gives each thread what the threads before it left for its first row.
/// - A row cut by a block boundary gets every part through atomicAdd: the block that starts
///   it adds its carry, the block that ends it adds its total. Rows inside a block have one
///   writer and use a plain y[row] +=.
template <class T, int THREADS, int ITEMS>
__global__ void csr_merge(CsrView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    static_assert(THREADS % 32 == 0 && THREADS >= 64, "whole warps, and two of them for the block's search");
    constexpr int TILE = THREADS * ITEMS;
    constexpr int WARPS = THREADS / 32;
    __shared__ index_t s_row_end[TILE];  // row ends of the share (at most TILE of them)
    __shared__ T s_product[TILE];        // products of the share's nonzeros (at most TILE)
    __shared__ T s_scan[THREADS];        // each thread's carry, after the segmented scan
    __shared__ int s_warp_row[WARPS];    // each warp's last carry: its row (local) ...
    __shared__ T s_warp_carry[WARPS];    // ... and its sum
    __shared__ MergeCoord s_tile[2];     // coordinates of the block's first and last diagonal
    // BEGIN SOLUTION(step 4: search the block's share, stage it, walk ITEMS items per thread, scan the carries)
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const long long items = static_cast<long long>(A.rows) + A.nnz;
    const long long diag0 = static_cast<long long>(blockIdx.x) * TILE;
    const long long diag1 = diag0 + TILE < items ? diag0 + TILE : items;
    if (warp < 2) {
        const MergeCoord c = warp_merge_search(warp == 0 ? diag0 : diag1, A.row_ptr + 1, A.rows, A.nnz);
        if (lane == 0) s_tile[warp] = c;
    }
    __syncthreads();
    const index_t row0 = s_tile[0].row, nz0 = s_tile[0].nz;
    const int tile_rows = s_tile[1].row - row0;  // row ends in the share
    const int tile_nnz = s_tile[1].nz - nz0;     // nonzeros in the share; tile_rows + tile_nnz <= TILE
    for (int i = threadIdx.x; i < tile_rows; i += THREADS) s_row_end[i] = A.row_ptr[row0 + 1 + i];
    for (int k = threadIdx.x; k < tile_nnz; k += THREADS)
        s_product[k] = A.vals[nz0 + k] * __ldg(&x[A.col_idx[nz0 + k]]);
    __syncthreads();

    // This thread's items: [d, d + ITEMS) of the share, found by binary search in shared memory.
    const int tile_items = tile_rows + tile_nnz;
    const int d = min(static_cast<int>(threadIdx.x) * ITEMS, tile_items);
    int lo = max(0, d - tile_nnz), hi = min(d, tile_rows);
    while (lo < hi) {
        const int pivot = (lo + hi) / 2;
        if (s_row_end[pivot] <= nz0 + (d - pivot - 1))
            lo = pivot + 1;
        else
            hi = pivot;
    }
    int i = lo, k = d - lo;  // next row end, next nonzero (both local to the share)
    T sum = 0, first_sum = 0;
    int first_row = -1;  // local row of the first row end this thread consumes
#pragma unroll
    for (int item = 0; item < ITEMS; ++item) {
        if (i + k >= tile_items) break;
        if (i < tile_rows && s_row_end[i] <= nz0 + k) {  // row i ends here
            if (first_row < 0) {
                first_row = i;  // written after the scan: earlier threads may hold part of it
                first_sum = sum;
            } else {
                y[row0 + i] += sum;  // began in this thread: this thread is its only writer
            }
            sum = 0;
            ++i;
        } else if (k < tile_nnz) {
            sum += s_product[k];
            ++k;
        }
    }

    // Segmented inclusive scan of the carries (row i, sum): rows never decrease with the
    // thread index, so equal rows are neighbours. First within each warp, with shuffles ...
    T carry = sum;
    for (int off = 1; off < 32; off *= 2) {
        const T up = __shfl_up_sync(0xffffffffu, carry, off);
        const int up_row = __shfl_up_sync(0xffffffffu, i, off);
        if (lane >= off && up_row == i) carry += up;
    }
    if (lane == 31) {
        s_warp_row[warp] = i;
        s_warp_carry[warp] = carry;
    }
    __syncthreads();
    // ... then across the warps: a warp whose last row is the previous warp's last row holds
    // only that row, so it extends the previous warp's sum.
    if (threadIdx.x == 0)
        for (int w = 1; w < WARPS; ++w)
            if (s_warp_row[w] == s_warp_row[w - 1]) s_warp_carry[w] += s_warp_carry[w - 1];
    __syncthreads();
    if (warp > 0 && s_warp_row[warp - 1] == i) carry += s_warp_carry[warp - 1];
    s_scan[threadIdx.x] = carry;
    __syncthreads();

    // Row 0 of the share is cut by the block boundary when it has entries before the share.
    const bool first_row_cut = tile_rows > 0 && A.row_ptr[row0] < nz0;
    if (first_row >= 0) {
        // This thread starts on the row the previous thread ended on, so the previous
        // thread's scanned carry is everything the block holds of that row so far.
        const T total = first_sum + (threadIdx.x > 0 ? s_scan[threadIdx.x - 1] : T(0));
        if (first_row == 0 && first_row_cut)
            atomicAdd(&y[row0], total);
        else
            y[row0 + first_row] += total;
    }
    // The last thread's scanned carry is the block's part of the row open at the share's end.
    const index_t row1 = s_tile[1].row;
    if (threadIdx.x == THREADS - 1 && row1 < A.rows && A.row_ptr[row1] < s_tile[1].nz) atomicAdd(&y[row1], carry);
    // END SOLUTION
}

/// Launches csr_merge with one block per TILE = THREADS * ITEMS items of the merge path.
template <class T, int THREADS, int ITEMS>
void launch_merge(CsrView<T> A, const T* x, T* y) {
    const long long items = static_cast<long long>(A.rows) + A.nnz;
    csr_merge<T, THREADS, ITEMS><<<grid_for(items, THREADS * ITEMS), THREADS>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

}  // namespace kernel

template <class T>
void csr_scalar_spmv(CsrView<T> A, const T* x, T* y) {
    kernel::launch_lanes<T, 1>(A, x, y);
}

template <class T>
void csr_vector_spmv(CsrView<T> A, const T* x, T* y) {
    kernel::launch_lanes<T, 32>(A, x, y);
}

template <class T>
void csr_mean_lanes_spmv(CsrView<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 3: pick LANES with choose_lanes(mean), the mean nnz / rows computed in double (integer division turns 2.25 into 2), and launch the matching instance)
    // STARTER: kit::todo("02-csr", 3, "cuda::csr_mean_lanes_spmv dispatch");
    const double mean = A.rows > 0 ? static_cast<double>(A.nnz) / A.rows : 0.0;
    switch (choose_lanes(mean)) {
        case 2: kernel::launch_lanes<T, 2>(A, x, y); break;
        case 4: kernel::launch_lanes<T, 4>(A, x, y); break;
        case 8: kernel::launch_lanes<T, 8>(A, x, y); break;
        case 16: kernel::launch_lanes<T, 16>(A, x, y); break;
        default: kernel::launch_lanes<T, 32>(A, x, y); break;
    }
    // END SOLUTION
}

template <class T>
void csr_merge_spmv(CsrView<T> A, const T* x, T* y) {
    // 128 threads of 7 items: the shape merge-spmv tunes for recent GPUs; a share of 896 items
    // keeps the block's shared memory at 11 KB in double, so many blocks fit on one SM.
    kernel::launch_merge<T, 128, 7>(A, x, y);
}

/// @cond
template void csr_scalar_spmv<float>(CsrView<float>, const float*, float*);
template void csr_scalar_spmv<double>(CsrView<double>, const double*, double*);
template void csr_vector_spmv<float>(CsrView<float>, const float*, float*);
template void csr_vector_spmv<double>(CsrView<double>, const double*, double*);
template void csr_mean_lanes_spmv<float>(CsrView<float>, const float*, float*);
template void csr_mean_lanes_spmv<double>(CsrView<double>, const double*, double*);
template void csr_merge_spmv<float>(CsrView<float>, const float*, float*);
template void csr_merge_spmv<double>(CsrView<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
