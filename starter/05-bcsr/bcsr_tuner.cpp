// Lab 05, steps 4 and 5: the run-time half of the GOSpMV autotuner. See handouts/05-bcsr.md.
#include <algorithm>
#include <vector>

#include "bcsr_tuner.hpp"
#include "core/kit_error.hpp"

namespace kit::bcsr {

double estimate_fill(const CooMatrix& A, const std::vector<count_t>& row_ptr, int r, int c, double sigma) {
    // TODO(05-bcsr step 4): fill of the sampled block rows: r*c*blocks / entries (sigma = 1 if none)
    kit::todo("05-bcsr", 4, "estimate_fill");
}

TunerChoice choose_block(const CooMatrix& A, const BcsrProfile& profile, const std::string& variant, Precision p,
                         double sigma) {
    // TODO(05-bcsr step 5): for r, c in 1..4, estimate = gflops / fill * structure; keep the first best
    kit::todo("05-bcsr", 5, "choose_block");
}

}  // namespace kit::bcsr
