/// @file
/// Lab 06, steps 3 and 4: CSR5 SpMV on the GPU, the same phases as csr5_cpu.cpp.
/// See handouts/06-csr5.md.
#include <string>

#include "csr5_kernels.hpp"
#include "cuda_run.hpp"
#include "kit_error.hpp"

namespace kit::cuda {
namespace kernel {

constexpr unsigned kFullMask = 0xffffffffu;  ///< every lane of the warp takes part in a shuffle
constexpr int kBlock = 256;  ///< threads per CUDA block: a multiple of 32, so a tile of OMEGA <= 32 lanes never straddles two warps

/// Phase 1. OMEGA consecutive threads (a warp, or an aligned part of one) own one complete
/// tile; thread `lane` owns the tile's column `lane`. At step j the OMEGA threads read the
/// neighbouring entries base + j*OMEGA + lane (the point of the transposed layout). Each
/// thread closes a segment at every bit_flag; shuffles of width OMEGA finish the segments
/// that cross lanes. Threads past the last tile carry no entries but still take part in
/// every shuffle, so the full mask is always right.
template <class T, int OMEGA>
__global__ void csr5_tiles(Csr5View<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 4: tile = thread / OMEGA, lane = thread % OMEGA; per-lane sums closed at each bit_flag; head shifted one lane down; segmented sum with __shfl_down_sync(width OMEGA), adding lane + d while it is <= lane + seg_offset; segment 0 to A.carry[tile])
    const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const index_t tile = static_cast<index_t>(thread / OMEGA);
    const int lane = threadIdx.x % OMEGA;
    const bool active = tile < A.full_tiles;
    const std::uint64_t desc = active ? A.tile_desc[static_cast<long long>(tile) * OMEGA + lane] : 0;
    const std::uint32_t flags = csr5_bit_flag(desc);
    const std::uint32_t tile_word = active ? A.tile_ptr[tile] : 0;
    const index_t tile_row = csr5_tile_row(tile_word);
    const index_t* row_of_segment =
        csr5_tile_has_empty_rows(tile_word) ? A.empty_offset + A.empty_offset_ptr[tile] : nullptr;
    // Segment 0 may continue a row of an earlier tile: it goes to the carry, never to y.
    const auto write = [&](int segment, T sum) {
        if (segment == 0) A.carry[tile] = sum;
        else y[tile_row + (row_of_segment ? row_of_segment[segment] : segment)] += sum;
    };

    const long long base = static_cast<long long>(tile) * OMEGA * A.sigma;
    int segment = csr5_y_offset(desc);
    bool started = false;
    T head = 0, sum = 0;
    for (int j = 0; j < A.sigma; ++j) {
        if (flags >> j & 1u) {
            if (started) write(segment++, sum);  // a segment that lies inside this lane
            else head = sum;
            started = true;
            sum = 0;
        }
        if (active) {
            const long long k = base + static_cast<long long>(j) * OMEGA + lane;
            sum += A.vals[k] * __ldg(&x[A.col_idx[k]]);
        }
    }
    if (!started) head = sum;  // no row starts here: the whole lane continues its left neighbour's segment

    // Fast segmented sum: v = head of the next lane, summed over lanes lane .. lane + seg_offset.
    T v = __shfl_down_sync(kFullMask, head, 1, OMEGA);
    if (lane == OMEGA - 1) v = 0;
    const int end = lane + csr5_seg_offset(desc);
    for (int d = 1; d < OMEGA; d *= 2) {
        const T from = __shfl_down_sync(kFullMask, v, d, OMEGA);
        if (lane + d <= end) v += from;
    }
    if (flags != 0) write(segment, sum + v);
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
