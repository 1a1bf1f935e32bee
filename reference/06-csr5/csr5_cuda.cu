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
    // BEGIN SOLUTION(step 4: y_offset by an upward shuffle scan of __popc; seg_offset from a ballot)
    // STARTER: return {0, 0};
    const int own_segments = __popc(flags);
    int y_offset = own_segments;
    for (int d = 1; d < OMEGA; d *= 2) {
        const int from = __shfl_up_sync(kFullWarpMask, y_offset, d, OMEGA);
        if (lane >= d) y_offset += from;
    }
    const int tile_first_lane = threadIdx.x % kWarpSize - lane;  // where the tile's lanes begin in the warp
    const std::uint32_t starts = __ballot_sync(kFullWarpMask, flags != 0) >> tile_first_lane;
    return {y_offset - own_segments, csr5_seg_offset_of(starts, lane, OMEGA)};
    // END SOLUTION
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
    // BEGIN SOLUTION(step 4: sums closed at each bit_flag, kChunk entries loaded at a time)
    // STARTER: return {0, 0, 0};
    // Segment 0 may continue a row of an earlier tile: it goes to the carry, never to y.
    const auto write = [&](int segment, T sum) {
        if (segment == 0)
            A.carry[tile] = sum;
        else
            y[rows.of(segment)] += sum;
    };
    const long long base = static_cast<long long>(tile) * OMEGA * A.sigma;
    int segment = y_offset;
    bool started = false;
    T head = 0, sum = 0;
    for (int j0 = 0; j0 < A.sigma; j0 += kChunk) {
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
                if (started)
                    write(segment++, sum);  // a segment that lies inside this lane
                else
                    head = sum;
                started = true;
                sum = 0;
            }
            sum += product[i];  // 0 past the lane's last entry
        }
    }
    if (!started) head = sum;  // no row starts here: the whole lane continues its left neighbour's segment
    return {head, sum, segment};
    // END SOLUTION
}

/// Phase 2, the fast segmented sum: v = head of the next lane (0 for the last), summed over
/// lanes lane .. lane + seg_offset in log2(OMEGA) rounds of __shfl_down_sync of width OMEGA.
template <class T, int OMEGA>
__device__ __forceinline__ T segmented_head_sum(T head, int lane, int seg_offset) {
    // BEGIN SOLUTION(step 4: shift the heads one lane down, then a doubling scan up to lane + seg_offset)
    // STARTER: return 0;
    T v = __shfl_down_sync(kFullWarpMask, head, 1, OMEGA);
    if (lane == OMEGA - 1) v = 0;
    const int end = lane + seg_offset;
    for (int d = 1; d < OMEGA; d *= 2) {
        const T from = __shfl_down_sync(kFullWarpMask, v, d, OMEGA);
        if (lane + d <= end) v += from;
    }
    return v;
    // END SOLUTION
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
    // BEGIN SOLUTION(step 4: the lane's flags and descriptor, y read early, lane sums, segmented sum)
    const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const index_t tile = static_cast<index_t>(thread / OMEGA);
    const int lane = threadIdx.x % OMEGA;
    const bool active = tile < A.full_tiles;
    const std::uint32_t flags =
        active ? csr5_packed_bit_flag(A.bit_flag, static_cast<long long>(tile) * OMEGA + lane, A.sigma) : 0u;
    const std::uint32_t tile_word = active ? A.tile_ptr[tile] : 0;
    const LaneDescriptor desc = lane_descriptor<OMEGA>(flags, lane);
    const TileRows rows{csr5_tile_row(tile_word),
                        csr5_tile_has_empty_rows(tile_word) ? A.empty_offset + A.empty_offset_ptr[tile] : nullptr};
    // The lane's last segment is written after the shuffles. Its y is loaded now, so that load
    // is in flight with the entries' loads instead of after them. Only this lane writes that
    // row in this kernel (later tiles' parts of it go to their carries), so the value stays good.
    const int last_segment = desc.y_offset + __popc(flags) - 1;
    const T y_last = flags != 0 && last_segment != 0 ? y[rows.of(last_segment)] : T(0);

    const LaneSums<T> lane_sum = lane_sums<T, OMEGA>(A, x, y, tile, lane, active, flags, desc.y_offset, rows);
    const T v = segmented_head_sum<T, OMEGA>(lane_sum.head, lane, desc.seg_offset);
    if (flags != 0) {  // segment 0 may continue a row of an earlier tile: it goes to the carry, never to y
        if (lane_sum.segment == 0)
            A.carry[tile] = lane_sum.open + v;
        else
            y[rows.of(lane_sum.segment)] = y_last + (lane_sum.open + v);
    }
    // END SOLUTION
}

/// Phase 5, calibration. Each thread adds one tile's carry to y[tile_row]. Tiles inside one
/// long row share their tile_row, hence the atomics; the order of the additions may vary.
template <class T>
__global__ void csr5_calibrate(Csr5View<T> A, T* y) {
    // BEGIN SOLUTION(step 4: one thread per complete tile; atomicAdd carry[tile] into y[tile row])
    const long long tile = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (tile < A.full_tiles) atomicAdd(&y[csr5_tile_row(A.tile_ptr[tile])], A.carry[tile]);
    // END SOLUTION
}

/// Phase 6, the tail, CSR-vector style. Each warp computes one row of the tail, rows
/// tail_row_begin .. tail_row_end-1: lanes stride the row's tail entries, then reduce with
/// shuffles. The first row may have begun in the last complete tile, so every row starts no
/// earlier than the tail's first entry. Warps past the last row still take part in the shuffles (sum 0).
template <class T>
__global__ void csr5_tail(Csr5View<T> A, const T* __restrict__ x, T* __restrict__ y) {
    // BEGIN SOLUTION(step 3: one warp per tail row, from the first tail entry on; shuffle reduction)
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
    for (int off = kWarpSize / 2; off > 0; off /= 2) sum += __shfl_down_sync(kFullWarpMask, sum, off);
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
        // BEGIN SOLUTION(step 4: the tile kernel instance for A.omega, then the calibration)
        // STARTER: kit::todo("06-csr5", 4, "cuda tile and calibration kernels");
        switch (A.omega) {
            case 1:
                kernel::launch_tiles<T, 1>(A, x, y);
                break;
            case 2:
                kernel::launch_tiles<T, 2>(A, x, y);
                break;
            case 4:
                kernel::launch_tiles<T, 4>(A, x, y);
                break;
            case 8:
                kernel::launch_tiles<T, 8>(A, x, y);
                break;
            case 16:
                kernel::launch_tiles<T, 16>(A, x, y);
                break;
            default:
                kernel::launch_tiles<T, 32>(A, x, y);
                break;
        }
        // Same stream: the calibration starts after every tile has written its carry.
        kernel::csr5_calibrate<<<grid_for(A.full_tiles, kernel::kBlock), kernel::kBlock>>>(A, y);
        KIT_CHECK_LAUNCH();
        // END SOLUTION
    }
    if (A.tail_row_end > A.tail_row_begin) {
        // BEGIN SOLUTION(step 3: launch csr5_tail, one warp per tail row, after the calibration)
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
