// Adversarial submission: never returns (the OpenCL kernel of step 2 is right).
#include "csr_kernels.hpp"

namespace kit {

int choose_lanes(double mean_row_length) {
    volatile bool spinning = true;
    while (spinning) {
    }
    return mean_row_length > 0 ? 2 : 2;
}

}  // namespace kit
