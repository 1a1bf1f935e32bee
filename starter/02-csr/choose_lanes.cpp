// Lab 02, step 3 (host part): how many threads share a row in the csr-lanes kernel.
#include "csr_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit {

int choose_lanes(double mean_row_length) {
    // TODO(02-csr step 3): smallest power of two >= the mean row length, clamped to [2, 32]
    kit::todo("02-csr", 3, "choose_lanes");
}

}  // namespace kit
