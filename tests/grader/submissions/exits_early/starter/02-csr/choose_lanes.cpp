// Adversarial submission: ends the whole test program with status 0 the first time it is
// called, hoping that a clean exit reads as "all passed".
#include <cstdlib>

#include "csr_kernels.hpp"

namespace kit {

int choose_lanes(double) {
    std::exit(0);
}

}  // namespace kit
