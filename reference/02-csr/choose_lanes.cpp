// Lab 02, step 3 (host part): how many threads share a row in the csr-lanes kernel.
#include "csr_kernels.hpp"
#include "core/kit_error.hpp"

namespace kit {

int choose_lanes(double mean_row_length) {
    // BEGIN SOLUTION(step 3: smallest power of two >= the mean row length, clamped to [2, 32])
    // STARTER: kit::todo("02-csr", 3, "choose_lanes");
    int lanes = 2;
    while (lanes < 32 && lanes < mean_row_length) lanes *= 2;
    return lanes;
    // END SOLUTION
}

}  // namespace kit
