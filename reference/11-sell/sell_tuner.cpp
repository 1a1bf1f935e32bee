// Lab 11, step 3: the choice of C and sigma from the row lengths. See handouts/11-sell.md.
#include <algorithm>
#include <vector>

#include "core/kit_error.hpp"
#include "measure/bytes_model.hpp"
#include "sell_tuner.hpp"

namespace kit::sell {

count_t sell_slots(const std::vector<index_t>& row_lengths, index_t C, index_t sigma) {
    // BEGIN SOLUTION(step 3a: perm = sell_row_order(row_lengths, sigma); sum over chunks of C x the chunk's longest row)
    // STARTER: kit::todo("11-sell", 3, "sell_slots");
    if (C < 1) throw Error("sell_slots: C must be at least 1");
    const std::vector<index_t> perm = sell_row_order(row_lengths, sigma);
    count_t slots = 0;
    for (std::size_t start = 0; start < perm.size(); start += static_cast<std::size_t>(C)) {
        const std::size_t end = std::min(perm.size(), start + static_cast<std::size_t>(C));
        index_t width = 0;
        for (std::size_t p = start; p < end; ++p) width = std::max(width, row_lengths[perm[p]]);
        slots += static_cast<count_t>(width) * C;  // the last chunk has C lanes too
    }
    return slots;
    // END SOLUTION
}

SellChoice choose_sell(const std::vector<index_t>& row_lengths, index_t cols, count_t value_bytes) {
    // BEGIN SOLUTION(step 3b: rate (C, sigma) for C in kTunerC, sigma in sigma_candidates by sell_bytes; first within kTieBand of the fewest)
    // STARTER: kit::todo("11-sell", 3, "choose_sell");
    const auto rows = static_cast<index_t>(row_lengths.size());
    SellChoice choice;
    count_t fewest = -1;
    for (const index_t C : kTunerC)
        for (const index_t sigma : sigma_candidates(C, rows)) {
            SellCandidate e;
            e.C = C;
            e.sigma = sigma;
            e.slots = sell_slots(row_lengths, C, sigma);
            e.bytes = sell_bytes(rows, cols, (static_cast<count_t>(rows) + C - 1) / C, e.slots, value_bytes);
            if (fewest < 0 || e.bytes < fewest) fewest = e.bytes;
            choice.candidates.push_back(e);
        }
    // The first in trial order within the band: smaller C, then smaller sigma, keep rows near
    // their natural order (x and y locality) unless sorting further saves more than the band.
    for (const SellCandidate& e : choice.candidates)
        if (static_cast<double>(e.bytes) <= (1.0 + kTieBand) * static_cast<double>(fewest)) {
            choice.best = e;
            break;
        }
    return choice;
    // END SOLUTION
}

}  // namespace kit::sell
