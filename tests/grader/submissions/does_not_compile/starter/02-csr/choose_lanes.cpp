// Adversarial submission: does not compile (a missing semicolon, then an undeclared name).
#include "csr_kernels.hpp"

namespace kit {

int choose_lanes(double mean_row_length) {
    int lanes = 2
    while (lanes < 32 && lanes < mean_row_length) lanes *= 2;
    return lanez;
}

}  // namespace kit
