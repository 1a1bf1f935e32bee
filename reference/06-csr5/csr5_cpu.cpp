// Lab 06, steps 1 and 2: CSR5 SpMV on the CPU, written lane by lane as the GPU runs it.
// See handouts/06-csr5.md.
#include <algorithm>
#include <vector>

#include "csr5_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {
namespace {

/// What the omega GPU threads of a tile keep in registers after phase 1, one slot per lane.
template <class T>
struct LaneSums {
    std::vector<T> head;            ///< sum before the lane's first flag: the end of a segment begun to its left
    std::vector<T> open;            ///< sum from the lane's last flag to its end: a segment that may go on
    std::vector<int> open_segment;  ///< the segment of `open`
};

/// Phase 1: each lane sums its sigma entries (column-major in the tile) and closes a segment at
/// each bit_flag. A segment that lies inside a lane goes to write(segment, sum) at once.
template <class T, class Write>
LaneSums<T> lane_sums(Csr5View<T> A, index_t tile, const T* x, Write&& write) {
    // BEGIN SOLUTION(step 1: per lane, running sums closed at each bit_flag, from y_offset on)
    // STARTER: return {};
    const int omega = A.omega;
    const count_t base = static_cast<count_t>(tile) * omega * A.sigma;
    LaneSums<T> lanes{std::vector<T>(omega, 0), std::vector<T>(omega, 0), std::vector<int>(omega, 0)};
    for (int lane = 0; lane < omega; ++lane) {
        const std::uint64_t desc = A.tile_desc[static_cast<count_t>(tile) * omega + lane];
        const std::uint32_t flags = csr5_bit_flag(desc);
        int segment = csr5_y_offset(desc);
        bool started = false;
        T sum = 0;
        for (int j = 0; j < A.sigma; ++j) {
            if (flags >> j & 1u) {
                if (started)
                    write(segment++, sum);  // a segment that lies inside this lane
                else
                    lanes.head[lane] = sum;
                started = true;
                sum = 0;
            }
            const count_t k = base + static_cast<count_t>(j) * omega + lane;  // column-major in the tile
            sum += A.vals[k] * x[A.col_idx[k]];
        }
        if (started)
            lanes.open[lane] = sum;
        else
            lanes.head[lane] = sum;  // no row starts here: the whole lane continues its left neighbour's segment
        lanes.open_segment[lane] = segment;
    }
    return lanes;
    // END SOLUTION
}

/// Phase 2, the fast segmented sum. Lane i's open segment continues through lanes i+1 ..
/// i+seg_offset (which start nothing) and ends in the head of lane i+seg_offset+1. Shifting
/// every head one lane left (v[i] = head[i+1]) turns that into the sum of v over lanes
/// i .. end[i], end[i] = i + seg_offset[i]: a doubling scan, as the GPU does with
/// __shfl_down_sync. Returns v.
template <class T>
std::vector<T> segmented_head_sums(Csr5View<T> A, index_t tile, const std::vector<T>& head) {
    // BEGIN SOLUTION(step 1: shift the heads one lane left; doubling scan up to lane + seg_offset)
    // STARTER: return std::vector<T>(head.size(), T(0));
    const int omega = A.omega;
    std::vector<T> v(omega, 0);
    std::vector<int> end(omega, 0);
    for (int lane = 0; lane < omega; ++lane) {
        v[lane] = lane + 1 < omega ? head[lane + 1] : T(0);
        end[lane] = lane + csr5_seg_offset(A.tile_desc[static_cast<count_t>(tile) * omega + lane]);
    }
    for (int d = 1; d < omega; d *= 2) {
        const std::vector<T> before = v;  // all lanes read before any lane adds: one shuffle
        for (int lane = 0; lane + d < omega; ++lane)
            if (lane + d <= end[lane]) v[lane] += before[lane + d];
    }
    return v;
    // END SOLUTION
}

}  // namespace

template <class T>
T csr5_tile(Csr5View<T> A, index_t tile, const T* x, T* y) {
    // BEGIN SOLUTION(step 1: lane_sums, segmented_head_sums, then each lane's open segment)
    // STARTER: kit::todo("06-csr5", 1, "cpu::csr5_tile");
    const index_t tile_row = csr5_tile_row(A.tile_ptr[tile]);
    const index_t* row_of_segment =
        csr5_tile_has_empty_rows(A.tile_ptr[tile]) ? A.empty_offset + A.empty_offset_ptr[tile] : nullptr;
    T carry = 0;
    // Segment 0 may continue a row of an earlier tile: it goes to the carry, never to y.
    const auto write = [&](int segment, T sum) {
        if (segment == 0)
            carry = sum;
        else
            y[tile_row + (row_of_segment ? row_of_segment[segment] : segment)] += sum;
    };
    const LaneSums<T> lanes = lane_sums(A, tile, x, write);
    const std::vector<T> v = segmented_head_sums(A, tile, lanes.head);
    for (int lane = 0; lane < A.omega; ++lane)  // phase 3: each segment started in a lane gets its end
        if (csr5_bit_flag(A.tile_desc[static_cast<count_t>(tile) * A.omega + lane]) != 0)
            write(lanes.open_segment[lane], lanes.open[lane] + v[lane]);
    return carry;
    // END SOLUTION
}

template <class T>
void csr5_spmv(Csr5View<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 2: csr5_tile per complete tile, then the carries into y, then the tail)
    // STARTER: kit::todo("06-csr5", 2, "cpu::csr5_spmv");
    std::vector<T> carry(A.full_tiles);
    for (index_t t = 0; t < A.full_tiles; ++t) carry[t] = csr5_tile(A, t, x, y);
    // Calibration: after every tile is done, so each y entry has one writer at a time.
    for (index_t t = 0; t < A.full_tiles; ++t) y[csr5_tile_row(A.tile_ptr[t])] += carry[t];
    const index_t tail_begin = static_cast<index_t>(static_cast<count_t>(A.full_tiles) * A.omega * A.sigma);
    for (index_t r = A.tail_row_begin; r < A.tail_row_end; ++r) {
        T sum = 0;  // the tail's first row may have begun in the last complete tile
        for (index_t k = std::max(A.row_ptr[r], tail_begin); k < A.row_ptr[r + 1]; ++k)
            sum += A.vals[k] * x[A.col_idx[k]];
        y[r] += sum;
    }
    // END SOLUTION
}

template float csr5_tile<float>(Csr5View<float>, index_t, const float*, float*);
template double csr5_tile<double>(Csr5View<double>, index_t, const double*, double*);
template void csr5_spmv<float>(Csr5View<float>, const float*, float*);
template void csr5_spmv<double>(Csr5View<double>, const double*, double*);

}  // namespace kit::cpu
