/// @file
/// Lab 02, steps 1, 3 and 4: CSR SpMV kernels on the GPU. See handouts/02-csr.md.
#include "csr_kernels.hpp"
#include "gpu/cuda_run.hpp"

namespace kit::cuda {
namespace kernel {

/// A group of LANES consecutive threads computes y[row] += A[row,:] * x for one row:
/// lane l reads entries row_start+l, row_start+l+LANES, ... (consecutive lanes read
/// consecutive entries, so the loads coalesce), then the group sums its partial results
/// with shuffles. LANES = 1 is the scalar kernel, LANES = 32 the vector kernel.
template <class T, int LANES>
__global__ void csr_lanes(CsrView<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(02-csr step 1): row = thread / LANES, lane = thread % LANES; strided sums; shuffle reduction
}

/// Launches csr_lanes with one group of LANES threads per row.
template <class T, int LANES>
void launch_lanes(CsrView<T> A, const T* x, T* y) {
    constexpr int block = 256;  // a multiple of 32, so groups never straddle warps
    csr_lanes<T, LANES><<<grid_for(static_cast<long long>(A.rows) * LANES, block), block>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

/// Merge-path search by one whole warp, for the coordinate of one tile boundary (a diagonal)
/// in global memory. Each round the 32 lanes test 32 pivots spread over the
/// candidate range [lo, hi], and a ballot keeps the piece where the test changes, so the
/// range shrinks 32-fold per round (5 rounds for 10^7 items, against 23 steps of a binary
/// search by one thread, each a dependent load from memory).
__device__ inline MergeCoord warp_merge_search(long long diagonal, const index_t* row_end, index_t rows, index_t nnz) {
    const int lane = threadIdx.x % kWarpSize;
    // The answer lies in [lo, hi]. Rows fit in an int, so the search runs in 32-bit
    // arithmetic, except l * n below, which can pass 2^32.
    int lo = diagonal > nnz ? static_cast<int>(diagonal - nnz) : 0;
    int hi = diagonal < rows ? static_cast<int>(diagonal) : rows;
    while (lo < hi) {
        const unsigned n = hi - lo;
        const auto split = [&](int l) {
            return lo + static_cast<int>(static_cast<unsigned long long>(l) * n / kWarpSize);
        };
        const int pivot = split(lane);                                 // lo <= pivot < hi: a valid row
        const bool before = row_end[pivot] <= diagonal - pivot - 1;    // row end `pivot` precedes the diagonal
        const int yes = __popc(__ballot_sync(kFullWarpMask, before));  // the test holds for lanes 0..yes-1
        if (yes == 0) {
            hi = lo;
        } else {
            hi = yes < kWarpSize ? split(yes) : hi;
            lo = split(yes - 1) + 1;
        }
    }
    return {lo, static_cast<index_t>(diagonal - lo)};
}

/// The partition of the merge path into tiles of `tile` items: warp w stores the coordinate
/// of diagonal min(w * tile, rows + nnz) in tile_start[w], for w = 0 .. tiles.
template <class T>
__global__ void csr_merge_partition_kernel(CsrView<T> A, MergeCoord* tile_start, long long tiles, int tile) {
    const long long w = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
    if (w > tiles) return;  // whole warps leave together: blockDim.x is a multiple of 32
    const long long items = static_cast<long long>(A.rows) + A.nnz;
    const MergeCoord c = warp_merge_search(w * tile < items ? w * tile : items, A.row_ptr + 1, A.rows, A.nnz);
    if (threadIdx.x % kWarpSize == 0) tile_start[w] = c;
}

/// Values of T in a 16-byte pack: 4 floats or 2 doubles.
template <class T>
constexpr int kPackValues = 16 / static_cast<int>(sizeof(T));

/// 16 bytes of values and their column indices: 4 floats and 4 ints, or 2 doubles and 2 ints.
template <class T>
struct Pack16;
/// The float pack: 4 values, 4 columns.
template <>
struct Pack16<float> {
    using Vals = float4;  ///< 4 values in one 16-byte load
    using Cols = int4;    ///< their 4 columns in one 16-byte load
};
/// The double pack: 2 values, 2 columns.
template <>
struct Pack16<double> {
    using Vals = double2;  ///< 2 values in one 16-byte load
    using Cols = int2;     ///< their 2 columns in one 8-byte load
};

/// The products a * x[c] of one 16-byte pack: 4 (or 2) independent reads of x in flight.
__device__ inline float4 pack_products(float4 a, int4 c, const float* __restrict__ x) {
    return {a.x * __ldg(&x[c.x]), a.y * __ldg(&x[c.y]), a.z * __ldg(&x[c.z]), a.w * __ldg(&x[c.w])};
}
/// The double form of pack_products: 2 reads of x.
__device__ inline double2 pack_products(double2 a, int2 c, const double* __restrict__ x) {
    return {a.x * __ldg(&x[c.x]), a.y * __ldg(&x[c.y])};
}

/// Stages the share's products s_value[j] = vals[nz0 + j] * x[col_idx[nz0 + j]] with 16-byte
/// loads: thread t takes packs t, t + THREADS, ... of VEC = kPackValues<T> entries, from the
/// first entry at a 16-byte boundary of vals on. The at most VEC - 1 entries before it (head)
/// and after the last whole pack (tail) take one thread each. In float a warp then moves 512
/// bytes of values per load instruction instead of 128: a quarter of the load instructions.
/// Needs vals 16-byte aligned, col_idx aligned to VEC indices, and s_value + j at the same
/// offset modulo 16 bytes as vals + nz0 + j (the kernel places s_value so).
template <class T, int THREADS, int ITEMS>
__device__ void stage_products_packed(CsrView<T> A, const T* __restrict__ x, index_t nz0, int tile_nnz, T* s_value) {
    using Pack = Pack16<T>;
    constexpr int VEC = kPackValues<T>;
    const int t = threadIdx.x;
    const int head = min(tile_nnz, (VEC - nz0 % VEC) % VEC);
    const int packs = (tile_nnz - head) / VEC;
    const int tail = head + packs * VEC;             // the first entry after the last whole pack
    const int odd = t < head ? t : tail + t - head;  // head and tail entries, one per thread
    if (t < head || (odd >= tail && odd < tile_nnz)) s_value[odd] = A.vals[nz0 + odd] * __ldg(&x[A.col_idx[nz0 + odd]]);
    const auto* vals = reinterpret_cast<const typename Pack::Vals*>(A.vals + nz0 + head);
    const auto* cols = reinterpret_cast<const typename Pack::Cols*>(A.col_idx + nz0 + head);
    auto* out = reinterpret_cast<typename Pack::Vals*>(s_value + head);
    constexpr int ROUNDS = (THREADS * ITEMS / VEC + THREADS - 1) / THREADS;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const int p = r * THREADS + t;
        if (p < packs) out[p] = pack_products(__ldg(&vals[p]), __ldg(&cols[p]), x);
    }
}

/// The block's tile of the merge path, from the partition: rows row0 .. row1 - 1 end in it,
/// and it holds the nonzeros nz0 .. nz0 + nnz - 1 (rows + nnz <= TILE).
struct MergeTile {
    index_t row0;  ///< first row of the tile
    index_t nz0;   ///< first nonzero of the tile
    index_t row1;  ///< the row open at the tile's end
    int rows;      ///< row ends in the tile
    int nnz;       ///< nonzeros in the tile
};

/// Item 1: the tile of block blockIdx.x, between tile_start[blockIdx.x] and the next boundary.
/// Every thread reads the same 16 bytes (one transaction per warp).
__device__ __forceinline__ MergeTile merge_tile(const MergeCoord* __restrict__ tile_start) {
    // TODO(02-csr step 4): the tile between this block's boundary and the next
    return {0, 0, 0, 0, 0};
}

/// Item 2, rows: thread t stages rows t, t + THREADS, ... of the tile: its row end made local
/// to the tile (s_row_end) and its y (s_y). Consecutive threads read consecutive rows.
template <class T, int THREADS>
__device__ __forceinline__ void stage_rows(CsrView<T> A, const T* __restrict__ y, const MergeTile& tile,
                                           index_t* s_row_end, T* s_y) {
    // TODO(02-csr step 4): coalesced loops over the tile's rows: local row ends and y
}

/// Item 2, products: s_value[j] = vals[nz0 + j] * x[col_idx[nz0 + j]]; slot `item` of thread t
/// is entry j = item * THREADS + t. Groups of CHUNK slots load all their columns and values,
/// then the x they index, so that 2 * CHUNK loads per thread are in flight at once, not one
/// chain col -> x after another (__syncwarp() keeps the compiler from moving the first loads
/// down next to their x). CHUNK = 1 is the plain loop: one statement per slot, no branch
/// between the loads.
template <class T, int THREADS, int ITEMS, int CHUNK>
__device__ __forceinline__ void stage_products(CsrView<T> A, const T* __restrict__ x, index_t nz0, int tile_nnz,
                                               T* s_value) {
    static_assert(CHUNK >= 1 && CHUNK <= ITEMS, "groups of 1 to ITEMS slots");
    // TODO(02-csr step 4): CHUNK columns and values into registers, __syncwarp, then their x
}

/// Item 3, the search: the first coordinate (i, d - i) of tile item d, by binary search of
/// step 4a on the staged (local) row ends. Returns i, the rows finished before item d.
__device__ __forceinline__ int tile_merge_search(const index_t* s_row_end, int d, int tile_rows, int tile_nnz) {
    // TODO(02-csr step 4): step 4a's binary search, on the local row ends
    return 0;
}

/// Item 3, the walk: from coordinate (i, k) to (i_end, k_end), what one share of step 4a does.
/// Adds the sum of each row that ends among the thread's items to s_y (no other thread
/// touches those rows; row i also gets the earlier threads' part, after the scan) and returns
/// the sum of the row left open after them: the thread's carry.
template <class T>
__device__ __forceinline__ T sum_thread_items(const index_t* s_row_end, const T* s_value, T* s_y, int i, int k,
                                              int i_end, int k_end) {
    // TODO(02-csr step 4): finish the rows that end here into s_y; return the open row's sum
    return 0;
}

/// A thread's carry after the block's segmented scan, and what the threads before it held of
/// the first row it finished.
template <class T>
struct ScannedCarry {
    T carry;   ///< the block's total of this thread's open row, up to this thread
    T before;  ///< the scanned carry of the previous thread (0 for thread 0)
};

/// Item 4: segmented inclusive scan of the carries (row, sum) over the block. Rows never
/// decrease with the thread index, so equal rows are neighbours: first within each warp,
/// with shuffles, then across the warps through shared memory, where a warp whose last row
/// is the previous warp's last row holds only that row and extends the previous warp's sum.
/// Every thread of the block calls it (it synchronises the block).
template <class T, int WARPS>
__device__ __forceinline__ ScannedCarry<T> scan_carries(T sum, int row, int* s_warp_row, T* s_warp_carry) {
    // TODO(02-csr step 4): __shfl_up_sync scan keyed by row in each warp, then across warps
    return {0, 0};
}

/// Item 5: the block writes y of its rows back, coalesced. A row cut by a tile boundary gets
/// every part through atomicAdd: row 0 of the tile when it began in an earlier block
/// (first_row_cut), and row1, open at the tile's end, with the last thread's scanned carry
/// when the tile holds entries of it. Every other row has one writer.
template <class T, int THREADS>
__device__ __forceinline__ void write_tile(CsrView<T> A, T* __restrict__ y, const MergeTile& tile,
                                           const index_t* s_row_end, const T* s_y, bool first_row_cut, T carry) {
    // TODO(02-csr step 4): y = s_y for the tile's rows; atomicAdd for rows cut by a boundary
}

/// Merge-based SpMV (Merrill and Garland, SC'16). The merge path of the matrix is the
/// rows + nnz items of "row i ends" and "nonzero k" in merge order. Block b takes items
/// [b * TILE, (b+1) * TILE), TILE = THREADS * ITEMS; thread t of the block takes the
/// ITEMS consecutive items t * ITEMS ... of the block's share. So every thread does the
/// same amount of work, whatever the row lengths: a long row is cut into many shares, an
/// empty row costs one item.
///
/// The phases, items 1 to 5 of the handout's step 4b:
/// 1. merge_tile: the block's first and last coordinate, from the partition computed once
///    per matrix, not at every call.
/// 2. stage_rows, stage_products (or, with PACKED, stage_products_packed: 16-byte loads):
///    the row ends, y of the rows that end in the tile, and the products
///    vals[k] * x[col_idx[k]] in shared memory, loaded by consecutive threads (coalesced).
/// 3. tile_merge_search, sum_thread_items: each thread finds its first coordinate (its last
///    is the next thread's first), finishes the rows that end among its items and sums the
///    row left open after them (its carry).
/// 4. scan_carries: a segmented scan of the carries (keyed by row) gives each thread what
///    the threads before it left for its first row.
/// 5. write_tile: y back with coalesced stores; atomicAdd for rows cut by a block boundary.
///
/// The second bound of __launch_bounds__ (2048 / THREADS blocks per SM) holds the compiler
/// to 32 registers a thread, which the packed loop would otherwise pass.
template <class T, int THREADS, int ITEMS, int CHUNK, bool PACKED>
__global__ void __launch_bounds__(THREADS, 2048 / THREADS)
    csr_merge(CsrView<T> A, const MergeCoord* __restrict__ tile_start, const T* __restrict__ x, T* __restrict__ y) {
    static_assert(THREADS % kWarpSize == 0, "whole warps");
    constexpr int TILE = THREADS * ITEMS;
    constexpr int WARPS = THREADS / kWarpSize;
    constexpr int VEC = kPackValues<T>;
    __shared__ index_t s_row_end[TILE];  // the tile's row ends, minus nz0 (at most TILE of them)
    // the tile's products, then y of its rows (at most TILE together), from s_value on (below)
    __shared__ __align__(16) T s_staged[TILE + VEC];
    __shared__ int s_thread_row[THREADS + 1];  // each thread's first row (local), then the tile's end
    __shared__ int s_warp_row[WARPS];          // each warp's last carry: its row (local) ...
    __shared__ T s_warp_carry[WARPS];          // ... and its sum
    // TODO(02-csr step 4): call the phases in order, __syncthreads() between them
}

}  // namespace kernel

template <class T>
void csr_scalar_spmv(CsrView<T> A, const T* x, T* y) {
    kernel::launch_lanes<T, 1>(A, x, y);
}

template <class T>
void csr_vector_spmv(CsrView<T> A, const T* x, T* y) {
    kernel::launch_lanes<T, kWarpSize>(A, x, y);
}

template <class T>
void csr_lanes_spmv(CsrView<T> A, const T* x, T* y) {
    // TODO(02-csr step 3): LANES = choose_lanes(nnz / rows in double); launch that instance
    kit::todo("02-csr", 3, "cuda::csr_lanes_spmv dispatch");
}

template <class T>
void csr_merge_partition(CsrView<T> A, MergeCoord* tile_start) {
    const long long tiles = csr_merge_tiles<T>(A.rows, A.nnz);
    constexpr int block = 256;
    kernel::csr_merge_partition_kernel<<<grid_for((tiles + 1) * kWarpSize, block), block>>>(A, tile_start, tiles,
                                                                                            MergeShape<T>::tile);
    KIT_CHECK_LAUNCH();
}

template <class T>
void csr_merge_spmv(CsrView<T> A, const MergeCoord* tile_start, const T* x, T* y) {
    using S = MergeShape<T>;
    const index_t tiles = csr_merge_tiles<T>(A.rows, A.nnz);
    // 16-byte packs need vals on a 16-byte boundary and col_idx on a boundary of as many indices.
    // PACKED = S::packed: where MergeShape asks for no packs, both launches are the one instance.
    if (S::packed && is_aligned(A.vals, 16) && is_aligned(A.col_idx, kernel::kPackValues<T> * sizeof(index_t)))
        kernel::csr_merge<T, S::threads, S::items, S::chunk, S::packed><<<tiles, S::threads>>>(A, tile_start, x, y);
    else
        kernel::csr_merge<T, S::threads, S::items, S::chunk, false><<<tiles, S::threads>>>(A, tile_start, x, y);
    KIT_CHECK_LAUNCH();
}

/// @cond
template void csr_scalar_spmv<float>(CsrView<float>, const float*, float*);
template void csr_scalar_spmv<double>(CsrView<double>, const double*, double*);
template void csr_vector_spmv<float>(CsrView<float>, const float*, float*);
template void csr_vector_spmv<double>(CsrView<double>, const double*, double*);
template void csr_lanes_spmv<float>(CsrView<float>, const float*, float*);
template void csr_lanes_spmv<double>(CsrView<double>, const double*, double*);
template void csr_merge_partition<float>(CsrView<float>, MergeCoord*);
template void csr_merge_partition<double>(CsrView<double>, MergeCoord*);
template void csr_merge_spmv<float>(CsrView<float>, const MergeCoord*, const float*, float*);
template void csr_merge_spmv<double>(CsrView<double>, const MergeCoord*, const double*, double*);
/// @endcond

}  // namespace kit::cuda
