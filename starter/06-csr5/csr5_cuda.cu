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
    // TODO(06-csr5 step 4): tile = thread / OMEGA, lane = thread % OMEGA; bit_flags = csr5_packed_bit_flag(A.bit_flag, tile * OMEGA + lane, A.sigma), 0 past the last tile; y_offset = exclusive __shfl_up_sync scan of __popc(flags); seg_offset = csr5_seg_offset_of(ballot of lanes with flags, shifted to the tile's first lane); per-lane sums closed at each bit_flag, loads a chunk at a time; head shifted one lane down; segmented sum with __shfl_down_sync(width OMEGA), adding lane + d while it is <= lane + seg_offset; segment 0 to A.carry[tile]
}

/// Phase 2. Each thread adds one tile's carry to y[tile_row]. Tiles inside one long row
/// share their tile_row, hence the atomics; the order of the additions may vary.
template <class T>
__global__ void csr5_calibrate(Csr5View<T> A, T* y) {
    // TODO(06-csr5 step 4): one thread per complete tile; atomicAdd carry[tile] into y[tile row]
}

/// Phase 3, CSR-vector style. Each warp computes one row of the tail, rows tail_row_begin ..
/// tail_row_end-1: lanes stride the row's tail entries, then reduce with shuffles. The first
/// row may have begun in the last complete tile, so every row starts no earlier than the
/// tail's first entry. Warps past the last row still take part in the shuffles (sum 0).
template <class T>
__global__ void csr5_tail(Csr5View<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(06-csr5 step 3): row = tail_row_begin + thread / 32; entries from max(row_ptr[row], first tail entry); shuffle reduction; lane 0 adds to y[row]
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
        // TODO(06-csr5 step 4): launch the tile kernel instance for A.omega, then the calibration with one thread per tile
        kit::todo("06-csr5", 4, "cuda tile and calibration kernels");
    }
    if (A.tail_row_end > A.tail_row_begin) {
        // TODO(06-csr5 step 3): launch csr5_tail with one warp per row of the tail, after the calibration
        kit::todo("06-csr5", 3, "cuda tail kernel launch");
    }
}

/// @cond
template void csr5_spmv<float>(Csr5View<float>, const float*, float*);
template void csr5_spmv<double>(Csr5View<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
