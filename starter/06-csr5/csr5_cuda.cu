/// @file
/// Lab 06, steps 3 and 4: CSR5 SpMV on the GPU, the same phases as csr5_cpu.cpp.
/// See handouts/06-csr5.md.
#include <string>

#include "csr5_kernels.hpp"
#include "gpu/cuda_run.hpp"
#include "core/kit_error.hpp"

namespace kit::cuda {
namespace kernel {

/// Threads per CUDA block: a multiple of 32, so a tile of OMEGA <= 32 lanes never straddles two warps.
constexpr int kBlock = 256;
constexpr int kChunk = 4;  ///< entries of a lane loaded before any is added: their loads are in flight together

/// The two descriptor fields of a lane that the GPU recomputes from the flags.
struct LaneDescriptor {
    int y_offset;    ///< segments started in the tile's lanes before this one
    int seg_offset;  ///< lanes after this one that start no segment (up to the next that does)
};

/// The offsets from the flags (handout, section 3, "On the GPU"): the lane's descriptor from
/// the flags of the tile's lanes. y_offset: exclusive scan of the lanes' segment counts
/// (__shfl_up_sync of width OMEGA). seg_offset: from a ballot of the lanes that start a
/// segment; bit i of `starts` is lane i of the tile.
template <int OMEGA>
__device__ __forceinline__ LaneDescriptor lane_descriptor(std::uint32_t flags, int lane) {
    // TODO(06-csr5 step 4): y_offset by an upward shuffle scan of __popc; seg_offset from a ballot
    return {0, 0};
}

/// Where a tile's segments go: segment s is row tile_row + s, or tile_row + row_of_segment[s]
/// when the tile holds empty rows.
struct TileRows {
    index_t tile_row;               ///< the tile's first row
    const index_t* row_of_segment;  ///< the tile's empty_offset list, or null
    /// The row of segment s.
    __device__ index_t of(int segment) const { return tile_row + (row_of_segment ? row_of_segment[segment] : segment); }
};

/// What a lane leaves for the segmented sum.
template <class T>
struct LaneSums {
    T head;       ///< the sum before its first flag (all of it when it has none)
    T open;       ///< the sum after its last flag: the segment that may go on in the next lanes
    int segment;  ///< the segment of `open`
};

/// Phase 1 (handout, section 3): the lane walks its sigma entries (entry j at base + j*OMEGA + lane: neighbouring
/// lanes read neighbouring entries), loading kChunk entries before it adds any so that their
/// loads are in flight together. At each flag it closes a segment: the first is the head, the
/// later ones lie inside the lane and are written at once (segment 0 to the carry, never to y).
/// An entry the lane does not have (past sigma, or past the last tile) loads entry 0 and
/// counts 0: no branch, so the chunk's loads go out together.
template <class T, int OMEGA>
__device__ __forceinline__ LaneSums<T> lane_sums(Csr5View<T> A, const T* __restrict__ x, T* __restrict__ y,
                                                 index_t tile, int lane, bool active, std::uint32_t flags, int y_offset,
                                                 TileRows rows) {
    // TODO(06-csr5 step 4): sums closed at each bit_flag, kChunk entries loaded at a time
    return {0, 0, 0};
}

/// Phase 2, the fast segmented sum: v = head of the next lane (0 for the last), summed over
/// lanes lane .. lane + seg_offset in log2(OMEGA) rounds of __shfl_down_sync of width OMEGA.
template <class T, int OMEGA>
__device__ __forceinline__ T segmented_head_sum(T head, int lane, int seg_offset) {
    // TODO(06-csr5 step 4): shift the heads one lane down, then a doubling scan up to lane + seg_offset
    return 0;
}

/// Phases 1 to 4 on the GPU. OMEGA consecutive threads (a warp, or an aligned part of one) own
/// one complete tile; thread `lane` owns the tile's column `lane`. Threads past the last tile
/// carry no entries but still take part in every shuffle and ballot, so the full mask is
/// always right.
///
/// Only the bit_flags are loaded, sigma bits a lane (csr5_packed_bit_flag); lane_descriptor
/// recomputes y_offset and seg_offset from them. No special case for a tile inside one row:
/// the conversion already gives it the carry's flag alone (lane 0, entry 0), so the flags'
/// load waits for nothing and goes out together with tile_ptr's.
template <class T, int OMEGA>
__global__ void csr5_tiles(Csr5View<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(06-csr5 step 4): the lane's flags and descriptor, y read early, lane sums, segmented sum
}

/// Phase 5, calibration. Each thread adds one tile's carry to y[tile_row]. Tiles inside one
/// long row share their tile_row, hence the atomics; the order of the additions may vary.
template <class T>
__global__ void csr5_calibrate(Csr5View<T> A, T* y) {
    // TODO(06-csr5 step 4): one thread per complete tile; atomicAdd carry[tile] into y[tile row]
}

/// Phase 6, the tail, CSR-vector style. Each warp computes one row of the tail, rows
/// tail_row_begin .. tail_row_end-1: lanes stride the row's tail entries, then reduce with
/// shuffles. The first row may have begun in the last complete tile, so every row starts no
/// earlier than the tail's first entry. Warps past the last row still take part in the shuffles (sum 0).
template <class T>
__global__ void csr5_tail(Csr5View<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // TODO(06-csr5 step 3): one warp per tail row, from the first tail entry on; shuffle reduction
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
        // TODO(06-csr5 step 4): the tile kernel instance for A.omega, then the calibration
        kit::todo("06-csr5", 4, "cuda tile and calibration kernels");
    }
    if (A.tail_row_end > A.tail_row_begin) {
        // TODO(06-csr5 step 3): launch csr5_tail, one warp per tail row, after the calibration
        kit::todo("06-csr5", 3, "cuda tail kernel launch");
    }
}

/// @cond
template void csr5_spmv<float>(Csr5View<float>, const float*, float*);
template void csr5_spmv<double>(Csr5View<double>, const double*, double*);
/// @endcond

}  // namespace kit::cuda
