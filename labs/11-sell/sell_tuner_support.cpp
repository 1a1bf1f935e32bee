// Lab 11: the candidates of the (C, sigma) rule; the rule itself is the student's (step 3).
#include "sell_tuner.hpp"

namespace kit::sell {

std::vector<index_t> sigma_candidates(index_t C, index_t rows) {
    std::vector<index_t> out = {1};
    // Windows of C, 4C, 16C, ...: each step gathers rows from four times as many chunks; the
    // first window that covers every row is a global sort, and nothing larger changes the order.
    for (count_t sigma = C; sigma <= kSellMaxSigma; sigma *= 4) {
        out.push_back(static_cast<index_t>(sigma));
        if (sigma >= rows) break;
    }
    return out;
}

}  // namespace kit::sell
