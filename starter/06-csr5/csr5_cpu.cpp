// Lab 06, steps 1 and 2: CSR5 SpMV on the CPU, written lane by lane as the GPU runs it.
// See handouts/06-csr5.md.
#include <algorithm>
#include <vector>

#include "csr5_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit::cpu {

template <class T>
T csr5_tile(Csr5View<T> A, index_t tile, const T* x, T* y) {
    // TODO(06-csr5 step 1): lanes sum their sigma entries and close a segment at each bit_flag; shift each lane's head to the lane before; segmented sum up to lane + seg_offset; write open segments; segment 0 is the carry
    kit::todo("06-csr5", 1, "cpu::csr5_tile");
}

template <class T>
void csr5_spmv(Csr5View<T> A, const T* x, T* y) {
    // TODO(06-csr5 step 2): csr5_tile on every complete tile, keeping the carries; add each carry to y[tile_row]; then the tail rows as in CSR, starting at the first tail entry
    kit::todo("06-csr5", 2, "cpu::csr5_spmv");
}

template float csr5_tile<float>(Csr5View<float>, index_t, const float*, float*);
template double csr5_tile<double>(Csr5View<double>, index_t, const double*, double*);
template void csr5_spmv<float>(Csr5View<float>, const float*, float*);
template void csr5_spmv<double>(Csr5View<double>, const double*, double*);

}  // namespace kit::cpu
