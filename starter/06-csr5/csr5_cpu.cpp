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
    // TODO(06-csr5 step 1): per lane, running sums closed at each bit_flag, from y_offset on
    return {};
}

/// Phase 2, the fast segmented sum. Lane i's open segment continues through lanes i+1 ..
/// i+seg_offset (which start nothing) and ends in the head of lane i+seg_offset+1. Shifting
/// every head one lane left (v[i] = head[i+1]) turns that into the sum of v over lanes
/// i .. end[i], end[i] = i + seg_offset[i]: a doubling scan, as the GPU does with
/// __shfl_down_sync. Returns v.
template <class T>
std::vector<T> segmented_head_sums(Csr5View<T> A, index_t tile, const std::vector<T>& head) {
    // TODO(06-csr5 step 1): shift the heads one lane left; doubling scan up to lane + seg_offset
    return std::vector<T>(head.size(), T(0));
}

}  // namespace

template <class T>
T csr5_tile(Csr5View<T> A, index_t tile, const T* x, T* y) {
    // TODO(06-csr5 step 1): lane_sums, segmented_head_sums, then each lane's open segment
    kit::todo("06-csr5", 1, "cpu::csr5_tile");
}

template <class T>
void csr5_spmv(Csr5View<T> A, const T* x, T* y) {
    // TODO(06-csr5 step 2): csr5_tile per complete tile, then the carries into y, then the tail
    kit::todo("06-csr5", 2, "cpu::csr5_spmv");
}

template float csr5_tile<float>(Csr5View<float>, index_t, const float*, float*);
template double csr5_tile<double>(Csr5View<double>, index_t, const double*, double*);
template void csr5_spmv<float>(Csr5View<float>, const float*, float*);
template void csr5_spmv<double>(Csr5View<double>, const double*, double*);

}  // namespace kit::cpu
