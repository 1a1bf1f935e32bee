/// @file
/// Lab 06, steps 3 and 4: CSR5 SpMV on the GPU, the same phases as csr5_cpu.cpp.
/// See handouts/06-csr5.md.
#include <string>

#include "csr5_kernels.hpp"
#include "gpu/cuda_run.hpp"
#include "core/kit_error.hpp"

namespace kit::cuda {
namespace kernel {

constexpr unsigned kFullMask = 0xffffffffu;  ///< every lane of the warp takes part in a shuffle
constexpr int kBlock = 256;  ///< threads per CUDA block: a multiple of 32, so a tile of OMEGA <= 32 lanes never straddles two warps
constexpr int kChunk = 4;    ///< entries of a lane loaded before any is added: their loads are in flight together

/// Phase 1. OMEGA consecutive threads (a warp, or an aligned part of one) own one complete
/// tile; thread `lane` owns the tile's column `lane`. At step j the OMEGA threads read the
/// neighbouring entries base + j*OMEGA + lane (the point of the transposed layout). Each
/// thread closes a segment at every bit_flag; shuffles of width OMEGA finish the segments
/// that cross lanes. Threads past the last tile carry no entries but still take part in
/// every shuffle and ballot, so the full mask is always right.
///
/// Only the bit_flags are loaded, sigma bits a lane (csr5_packed_bit_flag): y_offset is the
/// number of flags in the lanes before, a prefix sum of popcounts; seg_offset comes from a
/// ballot of the lanes that start a segment. The flags' load waits for nothing, so it goes out
/// together with tile_ptr's instead of after it.
template <class T, int OMEGA>
__global__ void csr5_tiles(Csr5View<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 4: tile = thread / OMEGA, lane = thread % OMEGA; bit_flags = csr5_packed_bit_flag(A.bit_flag, tile * OMEGA + lane, A.sigma), 0 past the last tile; y_offset = exclusive __shfl_up_sync scan of __popc(flags); seg_offset = csr5_seg_offset_of(ballot of lanes with flags, shifted to the tile's first lane); per-lane sums closed at each bit_flag, loads a chunk at a time; head shifted one lane down; segmented sum with __shfl_down_sync(width OMEGA), adding lane + d while it is <= lane + seg_offset; segment 0 to A.carry[tile])
    const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const index_t tile = static_cast<index_t>(thread / OMEGA);
    const int lane = threadIdx.x % OMEGA;
    const bool active = tile < A.full_tiles;
    // No special case for a tile inside one row: the conversion already gives it the carry's
    // flag alone (lane 0, entry 0). So the flags' load does not wait for tile_ptr's.
    const std::uint32_t flags =
        active ? csr5_packed_bit_flag(A.bit_flag, static_cast<long long>(tile) * OMEGA + lane, A.sigma) : 0u;
    const std::uint32_t tile_word = active ? A.tile_ptr[tile] : 0;
    const index_t tile_row = csr5_tile_row(tile_word);

    // The two other descriptor fields, recomputed. y_offset: inclusive scan of the lanes'
    // segment counts, minus the lane's own. seg_offset: bit i of `starts` is lane i of the tile.
    const int own_segments = __popc(flags);
    int y_offset = own_segments;
    for (int d = 1; d < OMEGA; d *= 2) {
        const int from = __shfl_up_sync(kFullMask, y_offset, d, OMEGA);
        if (lane >= d) y_offset += from;
    }
    y_offset -= own_segments;
    const int tile_first_lane = threadIdx.x % kWarpSize - lane;  // where the tile's lanes begin in the warp
    const std::uint32_t starts = __ballot_sync(kFullMask, flags != 0) >> tile_first_lane;
    const int seg_offset = csr5_seg_offset_of(starts, lane, OMEGA);

    const index_t* row_of_segment =
        csr5_tile_has_empty_rows(tile_word) ? A.empty_offset + A.empty_offset_ptr[tile] : nullptr;
    const auto row_of = [&](int segment) { return tile_row + (row_of_segment ? row_of_segment[segment] : segment); };
    // Segment 0 may continue a row of an earlier tile: it goes to the carry, never to y.
    const auto write = [&](int segment, T sum) {
        if (segment == 0) A.carry[tile] = sum;
        else y[row_of(segment)] += sum;
    };
    // The lane's last segment is written after the shuffles. Its y is loaded now, so that load
    // is in flight with the entries' loads instead of after them. Only this lane writes that
    // row in this kernel (later tiles' parts of it go to their carries), so the value stays good.
    const int last_segment = y_offset + own_segments - 1;
    const T y_last = own_segments > 0 && last_segment != 0 ? y[row_of(last_segment)] : T(0);

    const long long base = static_cast<long long>(tile) * OMEGA * A.sigma;
    int segment = y_offset;
    bool started = false;
    T head = 0, sum = 0;
    for (int j0 = 0; j0 < A.sigma; j0 += kChunk) {
        // An entry the lane does not have (past sigma, or past the last tile) loads entry 0
        // and counts 0: no branch, so the chunk's loads go out together.
        T product[kChunk];
#pragma unroll
        for (int i = 0; i < kChunk; ++i) {
            const int j = j0 + i;
            const bool mine = active && j < A.sigma;
            const long long k = mine ? base + static_cast<long long>(j) * OMEGA + lane : 0;
            const T p = A.vals[k] * __ldg(&x[A.col_idx[k]]);
            product[i] = mine ? p : T(0);
        }
#pragma unroll
        for (int i = 0; i < kChunk; ++i) {
            const int j = j0 + i;
            if (j < A.sigma && (flags >> j & 1u)) {
                if (started) write(segment++, sum);  // a segment that lies inside this lane
                else head = sum;
                started = true;
                sum = 0;
            }
            sum += product[i];  // 0 past the lane's last entry
        }
    }
    if (!started) head = sum;  // no row starts here: the whole lane continues its left neighbour's segment

    // Fast segmented sum: v = head of the next lane, summed over lanes lane .. lane + seg_offset.
    T v = __shfl_down_sync(kFullMask, head, 1, OMEGA);
    if (lane == OMEGA - 1) v = 0;
    const int end = lane + seg_offset;
    for (int d = 1; d < OMEGA; d *= 2) {
        const T from = __shfl_down_sync(kFullMask, v, d, OMEGA);
        if (lane + d <= end) v += from;
    }
    if (flags != 0) {
        if (segment == 0) A.carry[tile] = sum + v;
        else y[row_of(segment)] = y_last + (sum + v);
    }
    // END SOLUTION
}

/// Phase 2. Each thread adds one tile's carry to y[tile_row]. Tiles inside one long row
/// share their tile_row, hence the atomics; the order of the additions may vary.
template <class T>
__global__ void csr5_calibrate(Csr5View<T> A, T* y) {
    // BEGIN SOLUTION(step 4: one thread per complete tile; atomicAdd carry[tile] into y[tile row])
    const long long tile = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (tile < A.full_tiles) atomicAdd(&y[csr5_tile_row(A.tile_ptr[tile])], A.carry[tile]);
    // END SOLUTION
}

/// Phase 3, CSR-vector style. Each warp computes one row of the tail, rows tail_row_begin ..
/// tail_row_end-1: lanes stride the row's tail entries, then reduce with shuffles. The first
/// row may have begun in the last complete tile, so every row starts no earlier than the
/// tail's first entry. Warps past the last row still take part in the shuffles (sum 0).
template <class T>
__global__ void csr5_tail(Csr5View<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 3: row = tail_row_begin + thread / 32; entries from max(row_ptr[row], first tail entry); shuffle reduction; lane 0 adds to y[row])
    const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long row = A.tail_row_begin + thread / kWarpSize;
    const int lane = threadIdx.x % kWarpSize;
    const index_t tail_begin = static_cast<index_t>(static_cast<long long>(A.full_tiles) * A.omega * A.sigma);
    T sum = 0;
    if (row < A.tail_row_end) {
        const index_t end = A.row_ptr[row + 1];
        for (index_t k = max(A.row_ptr[row], tail_begin) + lane; k < end; k += kWarpSize)
            sum += A.vals[k] * __ldg(&x[A.col_idx[k]]);
    }
    for (int off = kWarpSize / 2; off > 0; off /= 2) sum += __shfl_down_sync(kFullMask, sum, off);
    if (lane == 0 && row < A.tail_row_end) y[row] += sum;
    // END SOLUTION
}

/// Launches csr5_tiles with OMEGA threads per full tile.
template <class T, int OMEGA>
void launch_tiles(Csr5View<T> A, const T* x, T* y) {
    csr5_tiles<T, OMEGA><<<grid_for(static_cast<long long>(A.full_tiles) * OMEGA, kBlock), kBlock>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

}  // namespace kernel

template <class T>
void csr5_spmv(Csr5View<T> A, const T* x, T* y) {
    if (A.omega < 1 || A.omega > kWarpSize || (A.omega & (A.omega - 1)) != 0)
        throw Error("cuda::csr5_spmv: omega = " + std::to_string(A.omega) +
                    "; a tile must be a warp or a power-of-two part of one (1, 2, 4, 8, 16, 32)");
    if (A.full_tiles > 0) {
        // BEGIN SOLUTION(step 4: launch the tile kernel instance for A.omega, then the calibration with one thread per tile)
        // STARTER: kit::todo("06-csr5", 4, "cuda tile and calibration kernels");
        switch (A.omega) {
            case 1: kernel::launch_tiles<T, 1>(A, x, y); break;
            case 2: kernel::launch_tiles<T, 2>(A, x, y); break;
            case 4: kernel::launch_tiles<T, 4>(A, x, y); break;
            case 8: kernel::launch_tiles<T, 8>(A, x, y); break;
            case 16: kernel::launch_tiles<T, 16>(A, x, y); break;
            default: kernel::launch_tiles<T, 32>(A, x, y); break;
        }
        // Same stream: the calibration starts after every tile has written its carry.
        kernel::csr5_calibrate<<<grid_for(A.full_tiles, kernel::kBlock), kernel::kBlock>>>(A, y);
        KIT_CHECK_LAUNCH();
        // END SOLUTION
    }
    if (A.tail_row_end > A.tail_row_begin) {
        // BEGIN SOLUTION(step 3: launch csr5_tail with one warp per row of the tail, after the calibration)
        // STARTER: kit::todo("06-csr5", 3, "cuda tail kernel launch");
        const long long rows = static_cast<long long>(A.tail_row_end) - A.tail_row_begin;
        kernel::csr5_tail<<<grid_for(rows * kWarpSize, kernel::kBlock), kernel::kBlock>>>(A, x, y);
        KIT_CHECK_LAUNCH();
        // END SOLUTION
    }
}

/// @cond
template void csr5_spmv<float>(Csr5View<float>, const float*, float*);
template void csr5_spmv<double>(Csr5View<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
