// Lab 05, steps 4 and 5: the run-time half of the GOSpMV autotuner. See handouts/05-bcsr.md.
#include <algorithm>
#include <vector>

#include "bcsr_tuner.hpp"
#include "core/kit_error.hpp"

namespace kit::bcsr {

double estimate_fill(const CooMatrix& A, const std::vector<count_t>& row_ptr, int r, int c, double sigma) {
    // BEGIN SOLUTION(step 4: fill of the sampled block rows: r*c*blocks / entries (sigma = 1 if none))
    // STARTER: kit::todo("05-bcsr", 4, "estimate_fill");
    const index_t block_rows = static_cast<index_t>((static_cast<count_t>(A.rows) + r - 1) / r);
    // seen[bc] holds the last sampled block row that used block column bc: no clearing needed.
    std::vector<index_t> seen((static_cast<std::size_t>(A.cols) + c - 1) / c, -1);
    count_t entries = 0, blocks = 0;
    for (index_t ib = 0; ib < block_rows; ++ib) {
        if (!in_sample(ib, sigma)) continue;
        const count_t first = row_ptr[static_cast<std::size_t>(ib) * r];
        const count_t last = row_ptr[std::min<std::size_t>(static_cast<std::size_t>(ib + 1) * r, A.rows)];
        for (count_t k = first; k < last; ++k) {
            const index_t bc = A.col_idx[k] / c;
            if (seen[bc] != ib) {
                seen[bc] = ib;
                ++blocks;
            }
        }
        entries += last - first;
    }
    if (entries == 0) return A.nnz() > 0 && sigma < 1.0 ? estimate_fill(A, row_ptr, r, c, 1.0) : 1.0;
    return static_cast<double>(blocks) * r * c / static_cast<double>(entries);
    // END SOLUTION
}

TunerChoice choose_block(const CooMatrix& A, const BcsrProfile& profile, const std::string& variant, Precision p,
                         double sigma) {
    // BEGIN SOLUTION(step 5: for r, c in 1..4, estimate = gflops / fill * structure; keep the first best)
    // STARTER: kit::todo("05-bcsr", 5, "choose_block");
    if (!profile.covers(variant, p))
        throw Error("BCSR tuner: the profile " + profile.source + " has no record for " + variant + " in " +
                    to_string(p) + "; run 'spmv-kit tune-profile' or give the block size (--block RxC)");
    const std::vector<count_t> row_ptr = hub_row_ptr(A);
    TunerChoice choice;
    choice.sigma = sigma;
    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c) {
            BlockEstimate e;
            e.r = r;
            e.c = c;
            e.fill = estimate_fill(A, row_ptr, r, c, sigma);
            e.stored = e.fill * static_cast<double>(A.nnz());
            const ProfileEntry* dense = profile.nearest(variant, p, r, c, e.stored);
            if (!dense) continue;
            e.profile_nnz = dense->nnz;
            e.dense_gflops = dense->gflops;
            // GOSpMV's rating, corrected for what a dense panel cannot show: blocks per block
            // row and how x is gathered (1 with a profile of dense records only).
            e.structure = structure_factor(A, row_ptr, profile, variant, p, r, c, sigma);
            e.estimate = dense->gflops / e.fill * e.structure;
            if (choice.shapes.empty() || e.estimate > choice.best.estimate) choice.best = e;
            choice.shapes.push_back(e);
        }
    return choice;
    // END SOLUTION
}

}  // namespace kit::bcsr
