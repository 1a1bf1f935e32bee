// Lab 06, steps 1 and 2: CSR5 SpMV on the CPU, written lane by lane as the GPU runs it.
// See handouts/06-csr5.md.
#include <algorithm>
#include <vector>

#include "csr5_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
T csr5_tile(Csr5View<T> A, index_t tile, const T* x, T* y) {
    // BEGIN SOLUTION(step 1: lanes sum their sigma entries and close a segment at each bit_flag; shift each lane's head to the lane before; segmented sum up to lane + seg_offset; write open segments; segment 0 is the carry)
    // STARTER: kit::todo("06-csr5", 1, "cpu::csr5_tile");
    const int omega = A.omega;
    const count_t base = static_cast<count_t>(tile) * omega * A.sigma;
    const index_t tile_row = csr5_tile_row(A.tile_ptr[tile]);
    const index_t* row_of_segment =
        csr5_tile_has_empty_rows(A.tile_ptr[tile]) ? A.empty_offset + A.empty_offset_ptr[tile] : nullptr;
    T carry = 0;
    // Segment 0 may continue a row of an earlier tile: it goes to the carry, never to y.
    const auto write = [&](int segment, T sum) {
        if (segment == 0) carry = sum;
        else y[tile_row + (row_of_segment ? row_of_segment[segment] : segment)] += sum;
    };

    // What each GPU thread keeps in registers, one slot per lane.
    std::vector<T> head(omega, 0);  // sum before the lane's first flag: the end of a segment begun to its left
    std::vector<T> open(omega, 0);  // sum from the lane's last flag to its end: a segment that may go on
    std::vector<int> open_segment(omega, 0);
    for (int lane = 0; lane < omega; ++lane) {
        const std::uint64_t desc = A.tile_desc[static_cast<count_t>(tile) * omega + lane];
        const std::uint32_t flags = csr5_bit_flag(desc);
        int segment = csr5_y_offset(desc);
        bool started = false;
        T sum = 0;
        for (int j = 0; j < A.sigma; ++j) {
            if (flags >> j & 1u) {
                if (started) write(segment++, sum);  // a segment that lies inside this lane
                else head[lane] = sum;
                started = true;
                sum = 0;
            }
            const count_t k = base + static_cast<count_t>(j) * omega + lane;  // column-major in the tile
            sum += A.vals[k] * x[A.col_idx[k]];
        }
        if (started) open[lane] = sum;
        else head[lane] = sum;  // no row starts here: the whole lane continues its left neighbour's segment
        open_segment[lane] = segment;
    }

    // Fast segmented sum. Lane i's open segment continues through lanes i+1 .. i+seg_offset
    // (which start nothing) and ends in the head of lane i+seg_offset+1. Shifting every head
    // one lane left (v[i] = head[i+1]) turns that into the sum of v over lanes i .. end[i],
    // end[i] = i + seg_offset[i]: a doubling scan, as the GPU does with __shfl_down_sync.
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
    for (int lane = 0; lane < omega; ++lane)
        if (csr5_bit_flag(A.tile_desc[static_cast<count_t>(tile) * omega + lane]) != 0)
            write(open_segment[lane], open[lane] + v[lane]);
    return carry;
    // END SOLUTION
}

template <class T>
void csr5_spmv(Csr5View<T> A, const T* x, T* y) {
    // BEGIN SOLUTION(step 2: csr5_tile on every complete tile, keeping the carries; add each carry to y[tile_row]; then the tail rows as in CSR, starting at the first tail entry)
    // STARTER: kit::todo("06-csr5", 2, "cpu::csr5_spmv");
    std::vector<T> carry(A.full_tiles);
    for (index_t t = 0; t < A.full_tiles; ++t) carry[t] = csr5_tile(A, t, x, y);
    // Calibration: after every tile is done, so each y entry has one writer at a time.
    for (index_t t = 0; t < A.full_tiles; ++t) y[csr5_tile_row(A.tile_ptr[t])] += carry[t];
    const index_t tail_begin = static_cast<index_t>(static_cast<count_t>(A.full_tiles) * A.omega * A.sigma);
    for (index_t r = A.tail_row_begin; r < A.tail_row_end; ++r) {
        T sum = 0;  // the tail's first row may have begun in the last complete tile
        for (index_t k = std::max(A.row_ptr[r], tail_begin); k < A.row_ptr[r + 1]; ++k) sum += A.vals[k] * x[A.col_idx[k]];
        y[r] += sum;
    }
    // END SOLUTION
}

template float csr5_tile<float>(Csr5View<float>, index_t, const float*, float*);
template double csr5_tile<double>(Csr5View<double>, index_t, const double*, double*);
template void csr5_spmv<float>(Csr5View<float>, const float*, float*);
template void csr5_spmv<double>(Csr5View<double>, const double*, double*);

}  // namespace kit::cpu
