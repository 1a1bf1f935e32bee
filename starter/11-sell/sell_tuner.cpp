// Lab 11, step 3: the choice of C and sigma from the row lengths. See handouts/11-sell.md.
#include <algorithm>
#include <vector>

#include "core/kit_error.hpp"
#include "measure/bytes_model.hpp"
#include "sell_tuner.hpp"

namespace kit::sell {

count_t sell_slots(const std::vector<index_t>& row_lengths, index_t C, index_t sigma) {
    // TODO(11-sell): step 3a: perm = sell_row_order(row_lengths, sigma); sum over chunks of C x the chunk's longest row
    kit::todo("11-sell", 3, "sell_slots");
}

SellChoice choose_sell(const std::vector<index_t>& row_lengths, index_t cols, count_t value_bytes) {
    // TODO(11-sell): step 3b: rate (C, sigma) for C in kTunerC, sigma in sigma_candidates by sell_bytes; first within kTieBand of the fewest
    kit::todo("11-sell", 3, "choose_sell");
}

}  // namespace kit::sell
